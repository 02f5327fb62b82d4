/**
 * Release tags move with the snapshots they pin (issue 26 follow-up): `pack` carries them,
 * `unpack` merges them into the receiving archive's under its lock, never moving or dropping a
 * tag already there, and refuses the whole pack when a name pins another snapshot. A pack is
 * hostile input: its tags file is checked as `tmsnap tag` checks names. status.json lists the
 * releases the site shows.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { tagsFile } from '../../archive/tags.ts';
import { statusDocument } from '../../site-model/status-schema.ts';
import { crawlHistory } from '../archive/crawl.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const contentDir = useContentFolders('tmsnap-pack-tags-', 'all');
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 4, 15));
let content: string;
let ids: string[];
/** A pack of the three snapshots, with tags v1.0 (oldest) and v2.0 (newest). */
let all: string;

const run = async (args: string[]) => {
  const result = await tmsnap(args);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
};
const tagsOf = async (dir: string) => JSON.parse((await run(['tag', '--json', '--content', dir])).stdout) as { name: string; snapshot: string }[];
/** A pack of `snapshots` (all without) from the crawled archive, next to `dir`. */
async function packOf(dir: string, name: string, ...snapshots: string[]): Promise<string> {
  const out = join(dirname(dir), `${name}.tar.gz`);
  await run(['pack', ...snapshots, '--content', content, '--out', out]);
  return out;
}
/** Every file under `dir` with its bytes: what a refused unpack must leave as it was. */
async function everything(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name)));
  }
  return files;
}

beforeAll(async () => {
  content = await contentDir();
  ids = await crawlHistory(content, [day(10), day(11), day(12)], 11);
  await run(['tag', 'v1.0', ids[0]!, '--content', content]);
  await run(['tag', 'v2.0', ids[2]!, '--content', content]);
  all = await packOf(content, 'all');
}, 300_000);

describe('tmsnap pack / unpack with release tags', () => {
  it('carries the tags to an empty content folder, and unpacking again changes nothing', async () => {
    const target = await contentDir();
    const unpacked = await run(['unpack', all, '--content', target]);
    expect(unpacked.stdout).toContain(`added tag v1.0 (snapshot ${ids[0]})\nadded tag v2.0 (snapshot ${ids[2]})\n`);
    expect(await readFile(join(target, tagsFile))).toEqual(await readFile(join(content, tagsFile)));
    const again = await run(['unpack', all, '--content', target]);
    expect(again.stdout).not.toContain('added tag');
    expect(await readFile(join(target, tagsFile))).toEqual(await readFile(join(content, tagsFile)));
  }, 120_000);

  it('carries only the tags pinning the packed snapshots, or the one a --since pack was made since', async () => {
    const target = await contentDir();
    const first = await run(['pack', ids[0]!, '--json', '--content', content, '--out', join(dirname(target), 'first.tar.gz')]);
    expect((JSON.parse(first.stdout) as { tags: unknown }).tags).toEqual([{ name: 'v1.0', snapshot: ids[0] }]);
    await run(['unpack', join(dirname(target), 'first.tar.gz'), '--content', target]);
    expect(await tagsOf(target)).toEqual([{ name: 'v1.0', snapshot: ids[0] }]);

    const rest = join(dirname(target), 'rest.tar.gz');
    const packed = await run(['pack', '--since', ids[0]!, '--content', content, '--out', rest]);
    expect(packed.stdout).toMatch(/^pack: 2 snapshots since .*, tags v1\.0 v2\.0 → /);
    const unpacked = await run(['unpack', rest, '--content', target]);
    expect(unpacked.stdout).toContain(`added tag v2.0 (snapshot ${ids[2]})\n`);
    expect(unpacked.stdout).not.toContain('added tag v1.0');
    expect(await tagsOf(target)).toEqual(await tagsOf(content));
  }, 120_000);

  it('refuses a tag here pinning another snapshot in one line, leaving the target byte for byte', async () => {
    const target = await contentDir();
    await run(['unpack', await packOf(target, 'middle', ids[1]!), '--content', target]);
    await run(['tag', 'v2.0', ids[1]!, '--content', target]);
    await run(['tag', 'local', ids[1]!, '--content', target]);
    const before = await everything(target);
    expect(before.has(join(target, tagsFile))).toBe(true);

    const refused = await tmsnap(['unpack', all, '--content', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `tmsnap unpack: ${all}: tag v2.0 pins snapshot ${ids[1]} in ${target} but ${ids[2]} in the pack: rename the one here ` +
        `(\`tmsnap tag NEWNAME ${ids[1]}\`, then \`tmsnap tag --delete v2.0\`) and unpack again; nothing was unpacked\n`,
    );
    expect(await everything(target)).toEqual(before);

    // A name differing only in case would share a page folder on some disks: refused the same way.
    await run(['tag', '--delete', 'v2.0', '--content', target]);
    await run(['tag', 'V2.0', ids[1]!, '--content', target]);
    const lookalike = await everything(target);
    const alsoRefused = await tmsnap(['unpack', all, '--content', target]);
    expect(alsoRefused).toMatchObject({
      code: 1,
      stderr: `tmsnap unpack: ${all}: tag V2.0 exists: a tag may not differ from another only in case; nothing was unpacked\n`,
    });
    expect(await everything(target)).toEqual(lookalike);
  }, 120_000);

  it.each([
    ['a name climbing out of the folder', () => ({ '../x': ids[0] }), '"../x" is not a tag name'],
    [
      'a snapshot neither the pack nor the folder holds',
      () => ({ v9: '2001-01-01T000000Z' }),
      "lacks snapshot 2001-01-01T000000Z, which the pack's tag v9 pins",
    ],
    ['a path for a snapshot id', () => ({ v9: '../../etc' }), '"../../etc" is not a snapshot id'],
  ])(
    'refuses a pack whose tags file holds %s, unpacking nothing',
    async (_name, tags, named) => {
      const target = await contentDir();
      // A real pack of the oldest snapshot, its tags file replaced.
      const unpackedPack = join(dirname(target), 'hostile');
      await mkdir(unpackedPack);
      await tar.x({ file: await packOf(target, 'one', ids[0]!), cwd: unpackedPack });
      expect(await readdir(unpackedPack)).toEqual(['objects', 'snapshots', tagsFile]);
      await writeFile(join(unpackedPack, tagsFile), JSON.stringify({ format: 1, tags: tags() }));
      const hostile = join(dirname(target), 'hostile.tar.gz');
      await tar.c({ gzip: true, cwd: unpackedPack, file: hostile }, await readdir(unpackedPack));

      const result = await tmsnap(['unpack', hostile, '--content', target]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(named);
      expect(result.stderr).toContain('nothing was unpacked');
      expect(await readdir(target).catch(() => [])).toEqual([]);
      expect(existsSync(join(dirname(target), 'x'))).toBe(false);
    },
    120_000,
  );

  it('names the snapshot a --since pack needs when the target lacks it, rather than blaming its tag (issue 35)', async () => {
    const target = await contentDir();
    const rest = join(dirname(target), 'rest-alone.tar.gz');
    await run(['pack', '--since', ids[0]!, '--content', content, '--out', rest]);
    const result = await tmsnap(['unpack', rest, '--content', target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tmsnap unpack: ${rest}: ${target} lacks snapshot ${ids[0]}, which the pack's tag v1.0 pins and a pack made with --since ${ids[0]} needs: unpack a pack holding it first, or make the pack without --since; nothing was unpacked\n`,
    );
  }, 120_000);

  it('refuses a pack whose tag pins an incomplete snapshot, as tmsnap tag would, unpacking nothing', async () => {
    const target = await contentDir();
    // A real pack of the oldest snapshot, its manifest saying the crawl did not see everything.
    const unpackedPack = join(dirname(target), 'incomplete');
    await mkdir(unpackedPack);
    await tar.x({ file: await packOf(target, 'one', ids[0]!), cwd: unpackedPack });
    const manifest = join(unpackedPack, 'snapshots', ids[0]!, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ ...(JSON.parse(await readFile(manifest, 'utf8')) as object), complete: false }));
    const incomplete = join(dirname(target), 'incomplete.tar.gz');
    await tar.c({ gzip: true, cwd: unpackedPack, file: incomplete }, await readdir(unpackedPack));

    const result = await tmsnap(['unpack', incomplete, '--content', target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tmsnap unpack: ${incomplete}: ${tagsFile} of the pack pins tag v1.0 to snapshot ${ids[0]}, which is incomplete: a release names a complete snapshot; nothing was unpacked\n`,
    );
    expect(await readdir(target).catch(() => [])).toEqual([]);
  }, 120_000);

  it('lists the releases the site shows in status.json', async () => {
    const target = await contentDir();
    await run(['unpack', all, '--content', target]);
    const out = join(dirname(target), 'site');
    await run(['build', '--content', target, '--out', out]);
    const status = statusDocument.parse(JSON.parse(await readFile(join(out, 'data/status.json'), 'utf8')));
    const started = async (id: string) => (JSON.parse(await readFile(join(target, 'snapshots', id, 'manifest.json'), 'utf8')) as { started: string }).started;
    expect(status.releases).toEqual([
      { name: 'v1.0', snapshot: ids[0], date: await started(ids[0]!), page: 'releases/v1.0/index.html' },
      { name: 'v2.0', snapshot: ids[2], date: await started(ids[2]!), page: 'releases/v2.0/index.html' },
    ]);
    for (const release of status.releases!) expect(existsSync(join(out, release.page)), release.page).toBe(true);

    // Built at a snapshot before every release, the site shows none, and status.json says nothing of them.
    await run(['tag', '--delete', 'v1.0', '--content', target]);
    const before = join(dirname(target), 'site-before');
    await run(['build', '--snapshot', ids[1]!, '--content', target, '--out', before]);
    const earlier = JSON.parse(await readFile(join(before, 'data/status.json'), 'utf8')) as Record<string, unknown>;
    expect(statusDocument.parse(earlier).snapshot.id).toBe(ids[1]);
    expect('releases' in earlier).toBe(false);
  }, 600_000);
});
