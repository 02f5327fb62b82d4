/**
 * Issue 26, the time machine: `tmsnap tag` pins releases to snapshots of a real crawl history,
 * `prune` keeps every tagged snapshot, and `build --snapshot TAG` builds the site as it was at
 * that snapshot (its figures, its history up to then). Names are untrusted path parts.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tagsFile } from '../../archive/tags.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { statusDocument } from '../../site-model/status-schema.ts';
import { crawlHistory } from '../archive/crawl.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const contentDir = useContentFolders('tmsnap-tag-', 'all');
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 4, 15));
let content: string;
let ids: string[];

beforeAll(async () => {
  content = await contentDir();
  ids = await crawlHistory(content, [day(10), day(11), day(12)], 7);
}, 300_000);

const tagsOf = async () => JSON.parse((await tmsnap(['tag', '--json', '--content', content])).stdout) as { name: string; snapshot: string }[];

/** Translated strings per project in a snapshot, from its translation records. */
async function translatedByProject(id: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const { path, record } of await (await openSnapshot(content, id)).translations()) {
    const project = path.split('/')[2]!;
    sums.set(project, (sums.get(project) ?? 0) + record.translated);
  }
  return sums;
}

describe('tmsnap tag', () => {
  it('lists no tags in a fresh archive, then pins one to the newest complete snapshot by default', async () => {
    expect(await tagsOf()).toEqual([]);
    const tagged = await tmsnap(['tag', 'v2.0', '--content', content]);
    expect(tagged).toMatchObject({ code: 0, stdout: `tagged ${ids[2]} as v2.0\n` });
    expect(await tmsnap(['tag', 'v1.0', ids[0]!, '--content', content])).toMatchObject({ code: 0 });
    expect(await tagsOf()).toEqual([
      { name: 'v1.0', snapshot: ids[0] },
      { name: 'v2.0', snapshot: ids[2] },
    ]);
    expect((await tmsnap(['tag', '--content', content])).stdout).toBe(`${'v1.0'.padEnd(16)} ${ids[0]}\n${'v2.0'.padEnd(16)} ${ids[2]}\n`);
  }, 120_000);

  it('refuses an existing name unless --move, and moves it with --move', async () => {
    const refused = await tmsnap(['tag', 'v1.0', ids[1]!, '--content', content]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`tmsnap tag: tag v1.0 exists (snapshot ${ids[0]}): give --move to pin it to ${ids[1]}\n`);
    expect(await tmsnap(['tag', 'V1.0', '--content', content])).toMatchObject({ code: 1, stderr: expect.stringContaining('only in case') });
    expect(await tmsnap(['tag', 'v1.0', ids[1]!, '--move', '--content', content])).toMatchObject({
      code: 0,
      stdout: `moved tag v1.0 from ${ids[0]} to ${ids[1]}\n`,
    });
    expect(await tmsnap(['tag', 'v1.0', ids[0]!, '--move', '--content', content])).toMatchObject({ code: 0 });
  }, 120_000);

  it('refuses bad names (exit 2) and unknown snapshots (exit 1) in one line, leaving the tags as they were', async () => {
    const before = await readFile(join(content, tagsFile), 'utf8');
    for (const bad of ['../v1', 'a/b', '.hidden', 'v1..2', 'v1.', 'v 1', 'x'.repeat(65), ids[1]!, 'ü1']) {
      const result = await tmsnap(['tag', bad, '--content', content]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr.split('\n')[0], bad).toMatch(/^tmsnap tag: ".*" is (not a tag name|a snapshot id)/);
    }
    const unknown = await tmsnap(['tag', 'v3', '2001-01-01T000000Z', '--content', content]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`tmsnap tag: no finished snapshot "2001-01-01T000000Z" in ${content}: \`tmsnap snapshots --content ${content}\` lists them\n`);
    const notAnId = await tmsnap(['tag', 'v3', '../../etc', '--content', content]);
    expect(notAnId.code).toBe(1);
    expect(notAnId.stderr.split('\n')).toHaveLength(2);
    expect(await tmsnap(['tag', '--delete', 'v9', '--content', content])).toMatchObject({
      code: 1,
      stderr: 'tmsnap tag: no tag "v9": `tmsnap tag` lists them\n',
    });
    expect(await readFile(join(content, tagsFile), 'utf8')).toBe(before);
  }, 300_000);

  it('builds the site as it was at a tagged snapshot: that snapshot’s figures and history up to it', async () => {
    const out = join(dirname(content), 'site-v1');
    const result = await tmsnap(['build', '--snapshot', 'v1.0', '--content', content, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const status = statusDocument.parse(JSON.parse(await readFile(join(out, 'data/status.json'), 'utf8')));
    expect(status.snapshot.id).toBe(ids[0]);
    const then = await translatedByProject(ids[0]!);
    const now = await translatedByProject(ids[2]!);
    // The history changed the figures: an old build showing today's would be caught. (The
    // keyed crawl's private project stays out of the site.)
    expect(then.get('hello')).not.toBe(now.get('hello'));
    expect(status.projects.map((project) => [project.slug, project.statistics.translated])).toEqual([['hello', then.get('hello')]]);
    // No history after the built snapshot: one point, and no what-changed page of later pairs.
    expect(await readFile(join(out, 'projects/hello/index.html'), 'utf8')).not.toMatch(/data-points="[2-9]/);
    expect(await readdir(join(out, 'changes-between')).catch(() => [])).not.toContain(`${ids[0]}--${ids[1]}`);
    // Only the releases tagged by then: v2.0 pins a later snapshot.
    expect(await readdir(join(out, 'releases'))).toEqual(['index.html', 'v1.0']);
  }, 300_000);

  it('keeps every tagged snapshot when prune’s policy would remove it', async () => {
    const result = await tmsnap(['prune', '--keep-daily', '1', '--json', '--content', content]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { kept: { id: string; reasons: string[] }[]; removed: string[] };
    expect(report.removed).toEqual([ids[1]]);
    expect(report.kept.find((kept) => kept.id === ids[0])?.reasons).toEqual(['tag v1.0']);
    expect(report.kept.find((kept) => kept.id === ids[2])?.reasons).toEqual(['newest complete', 'tag v2.0', `daily ${ids[2]!.slice(0, 10)}`]);
    const removed = await tmsnap(['tag', '--delete', 'v1.0', '--content', content]);
    expect(removed).toMatchObject({ code: 0, stdout: 'removed tag v1.0\n' });
    expect((await tmsnap(['prune', '--keep-daily', '1', '--json', '--content', content])).stdout).toContain(ids[0]);
  }, 120_000);

  it('stops build, prune and tag in one line when the tags file is damaged, removing nothing', async () => {
    const file = join(content, tagsFile);
    await writeFile(file, JSON.stringify({ format: 1, tags: { '../x': ids[0] } }));
    const snapshots = await readdir(join(content, 'snapshots'));
    for (const args of [['build', '--out', join(dirname(content), 'never')], ['prune', '--keep-daily', '1'], ['tag']]) {
      const result = await tmsnap([...args, '--content', content]);
      expect(result.code, args[0]).toBe(1);
      expect(result.stderr.trim().split('\n'), args[0]).toHaveLength(1);
      expect(result.stderr, args[0]).toContain(`${file}: "../x" is not a tag name`);
    }
    expect(await readdir(join(content, 'snapshots'))).toEqual(snapshots);
    expect(await readdir(dirname(content))).not.toContain('never');
  }, 120_000);
});
