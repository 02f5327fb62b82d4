import { execFile, spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Header, Parser } from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshotListings } from '../../archive/listing.ts';
import { pack, unpack } from '../../archive/pack.ts';
import { prune } from '../../archive/prune.ts';
import { references } from '../../archive/references.ts';
import { verifyStore } from '../../archive/verify.ts';
import { parseJson } from '../../api/index.ts';
import { listObjects, listSnapshotDirs, openSnapshot, openSnapshotWriter, sha256 } from '../../snapshot/index.ts';
import { redate } from './crawl.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { randomActivity } from './activity.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer } from '../helpers/reference-server.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';

/**
 * A content folder with one snapshot per date, translator activity (and, once, structural
 * changes) between them. The server is told what these tests need, so they pass under any
 * default profile: a token (private projects are hidden from anonymous clients of real
 * servers) and limits no crawl here reaches.
 */
async function crawlHistory(content: string, dates: readonly Date[], seed: number): Promise<string[]> {
  const token = 'store-tools-token';
  const model = fixtureModel();
  const server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
  try {
    const ids: string[] = [];
    for (const [index, date] of dates.entries()) {
      if (index > 0) randomActivity(model, seed + index, { unitMutations: 4, structural: index === 2 });
      ids.push(await redate(content, (await crawlComplete(server, content, { token })).snapshotId, date));
    }
    return ids;
  } finally {
    await server.close();
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const execute = promisify(execFile);

async function tmsnap(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, ['bin/tmsnap.js', ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 4, 15));

const contentDir = useContentFolders('tmsnap-archive-', 'all');
/** A content folder with snapshots of four days, the data changing in between; copied per test. */
let history: { content: string; ids: string[] };

beforeAll(async () => {
  const content = await contentDir();
  history = { content, ids: await crawlHistory(content, [day(18), day(19), day(20), day(22)], 7) };
}, 120_000);

async function copyOfHistory(): Promise<string> {
  const content = await contentDir();
  await mkdir(dirname(content), { recursive: true });
  await execute('cp', ['-a', history.content, content]);
  return content;
}

async function flipByte(file: string): Promise<void> {
  const bytes = await readFile(file);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = bytes[at]! ^ 1;
  await writeFile(file, bytes);
}

describe('tmsnap verify', () => {
  it('passes an intact archive and exits 0', async () => {
    const content = await copyOfHistory();
    const result = await tmsnap('verify', '--content', content);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/verify: OK: \d+ objects .*4 snapshots/);
  });

  it('names a damaged object and every snapshot that needs it, and exits 1', async () => {
    const content = await copyOfHistory();
    const [newest] = await listSnapshotDirs(content);
    const found = await references(content, newest!);
    const [key, path] = [...found.objects].find(([, path]) => path.endsWith('/units/'))!;
    const file = join(content, 'objects', key.slice(0, 2), key.slice(2));
    // A pack of the newest, made while it was whole (on another machine, say).
    const saved = join(dirname(content), 'newest.tar.gz');
    await pack(content, [newest!.id], saved);
    await flipByte(file);
    const result = await tmsnap('verify', '--content', content);
    expect(result.code).toBe(1);
    // A plain object hashes to another hash; a delta cannot be read, or rebuilds to bytes that do not match.
    expect(result.stderr).toMatch(
      new RegExp(
        `CORRUPT ${file}: (its content hashes to [0-9a-f]{64}|its content does not match its hash|it cannot be read \\(.*\\)): the object is damaged\n`,
      ),
    );
    expect(result.stderr).not.toContain('unreadable');
    expect(result.stderr).toContain(`CORRUPT ${file}: damaged, needed by snapshot ${newest!.id} for ${path}`);
    // The next step (issue 35): which snapshots are whole, and what to do.
    const report = await verifyStore(content);
    expect(report.damaged).toContain(newest!.id);
    expect(report.whole.length + report.damaged.length).toBe(4);
    expect(result.stdout).toContain(`verify: damaged: ${report.damaged.join(', ')}; whole: ${report.whole.join(', ')}`);
    expect(result.stdout).toContain('verify: to repair, delete the damaged files under objects/ named CORRUPT above, then `tmsnap unpack` a pack holding');
    // Followed, the advice repairs the archive.
    await rm(file);
    expect((await tmsnap('unpack', saved, '--content', content)).code).toBe(0);
    expect((await tmsnap('verify', '--content', content)).code).toBe(0);
  });

  it('reports a missing object, a damaged index and a manifest that does not parse', async () => {
    const content = await copyOfHistory();
    const [newest, second, third] = await listSnapshotDirs(content);
    const rawKey = [...(await references(content, newest!)).objects.keys()].find((key) => key.endsWith('.raw.gz'))!;
    const rawFile = join(content, 'objects', rawKey.slice(0, 2), rawKey.slice(2));
    await rename(rawFile, `${rawFile}.moved`);
    const manifest = parseJson(await readFile(join(second!.dir, 'manifest.json'), 'utf8')) as { index: string };
    await writeFile(join(content, 'objects', manifest.index.slice(0, 2), `${manifest.index.slice(2)}.json.gz`), gzipSync('{"format": 1}\n'));
    await writeFile(join(third!.dir, 'manifest.json'), '{"format": 1, "id": "');

    const report = await verifyStore(content);
    const reasons = report.problems.map((problem) => `${problem.snapshot} ${problem.reason}`);
    expect(reasons).toContainEqual(
      expect.stringMatching(new RegExp(`^${newest!.id} missing, needed by snapshot ${newest!.id} for api/translations/.*/file/$`)),
    );
    expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^${second!.id} the snapshot's index cannot be read`)));
    expect(report.problems.some((problem) => problem.snapshot === third!.id && problem.file.endsWith('manifest.json'))).toBe(true);
    expect(report.strays).toEqual([`${rawFile}.moved`]);
  });
});

describe('tmsnap prune', () => {
  it('removes the snapshots the policy does not keep and exactly the objects only they needed', async () => {
    const content = await copyOfHistory();
    const [d22, d20, d19, d18] = history.ids.slice().reverse();
    const needed = async (ids: string[]) => {
      const keys = new Set<string>();
      for (const dir of (await listSnapshotDirs(content)).filter((snapshot) => ids.includes(snapshot.id))) {
        for (const key of (await references(content, dir)).objects.keys()) keys.add(key);
      }
      return keys;
    };
    const keptKeys = await needed([d22!, d20!]);

    const dry = await tmsnap('prune', '--content', content, '--keep-daily', '2', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout.split('\n').filter((line) => line.startsWith('would remove snapshot'))).toEqual([
      `would remove snapshot ${d19} (complete)`,
      `would remove snapshot ${d18} (complete)`,
    ]);
    expect((await listSnapshotDirs(content)).map((snapshot) => snapshot.id)).toEqual([d22, d20, d19, d18]);

    const run = await tmsnap('prune', '--content', content, '--keep-daily', '2');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`removing snapshot ${d18} (complete)`);
    expect((await listSnapshotDirs(content)).map((snapshot) => snapshot.id)).toEqual([d22, d20]);
    const left = new Set((await listObjects(content)).objects.map((object) => object.key));
    expect(left).toEqual(keptKeys);
    expect((await verifyStore(content)).problems).toEqual([]);
    const snapshot = await openSnapshot(content, d20);
    for (const { path } of await snapshot.translations()) await snapshot.units(path);
  });

  it('keeps weekly and monthly picks and never the newest complete snapshot, even with nothing else to keep', async () => {
    const content = await copyOfHistory();
    const [d22, , , d18] = history.ids.slice().reverse();
    // Nov 18–22 2026: the 18th–20th are in ISO week 47 and the 22nd a Sunday of week 47 too; one month.
    const result = await prune(content, { daily: 0, weekly: 1, monthly: 0 }, { dryRun: false });
    expect(result.keep.map((decision) => [decision.snapshot.id, decision.reasons])).toEqual([[d22, ['newest complete', 'weekly 2026-W47']]]);
    expect(result.removed.at(-1)?.id).toBe(d18);
    expect(await tmsnap('prune', '--content', content)).toMatchObject({ code: 2, stderr: expect.stringContaining('at least one of --keep-daily') });
  });

  it('spares the objects of a crawl in progress', async () => {
    const content = await copyOfHistory();
    const writer = await openSnapshotWriter(content, { baseUrl: 'http://127.0.0.1:9/api/', scope: {}, tmsnapVersion: '0', resume: false });
    await writer.putRecord('http://127.0.0.1:9/api/projects/only-here/', { slug: 'only-here', unexpected: true });
    const partialKeys = [
      ...(
        await references(
          content,
          (await listSnapshotDirs(content)).find((snapshot) => snapshot.partial)!,
        )
      ).objects.keys(),
    ];
    expect(partialKeys.length).toBeGreaterThan(0);
    await prune(content, { daily: 1, weekly: 0, monthly: 0 }, { dryRun: false });
    const left = new Set((await listObjects(content)).objects.map((object) => object.key));
    for (const key of partialKeys) expect(left.has(key), key).toBe(true);
    expect((await listSnapshotDirs(content)).filter((snapshot) => snapshot.partial)).toHaveLength(1);
  });
});

describe('tmsnap pack / unpack', () => {
  it('ships an archive a day at a time: pack --since to stdout, unpack from stdin', async () => {
    const [d18, d19, d20, d22] = history.ids;
    const first = join(dirname(await contentDir()), 'first.tar.gz');
    expect((await tmsnap('pack', d18!, d19!, '--content', history.content, '--out', first)).code).toBe(0);
    const target = await contentDir();
    expect((await tmsnap('unpack', first, '--content', target)).code).toBe(0);

    // What d20 and d22 add to d19, through a pipe as `tmsnap pack --out - | ssh … tmsnap unpack -` would.
    const packed = spawnSync(process.execPath, ['bin/tmsnap.js', 'pack', '--since', d19!, '--content', history.content, '--out', '-'], { cwd: root });
    expect(packed.status, packed.stderr.toString()).toBe(0);
    expect(packed.stderr.toString()).toMatch(/^pack: 2 snapshots since .*→ stdout/);
    const needed = async (ids: string[]) => {
      const keys = new Set<string>();
      for (const id of ids)
        for (const key of (await references(history.content, { id, dir: join(history.content, 'snapshots', id), partial: false })).objects.keys())
          keys.add(key);
      return keys;
    };
    const older = await needed([d19!]);
    const added = [...(await needed([d20!, d22!]))].filter((key) => !older.has(key));
    const entries: string[] = [];
    await pipeline(Readable.from(packed.stdout), new Parser({ onReadEntry: (entry) => (entries.push(entry.path), entry.resume()) }));
    expect(entries.filter((path) => path.startsWith('objects/')).sort()).toEqual(added.map((key) => `objects/${key.slice(0, 2)}/${key.slice(2)}`).sort());

    const unpacked = spawnSync(process.execPath, ['bin/tmsnap.js', 'unpack', '-', '--content', target], { cwd: root, input: packed.stdout });
    expect(unpacked.status, unpacked.stderr.toString()).toBe(0);
    expect((await listSnapshotDirs(target)).map((snapshot) => snapshot.id)).toEqual([d22, d20, d19, d18]);
    expect((await verifyStore(target)).problems).toEqual([]);

    // Without the snapshot it was made since, the receiving folder is told what is missing.
    const empty = await contentDir();
    const refused = spawnSync(process.execPath, ['bin/tmsnap.js', 'unpack', '-', '--content', empty], { cwd: root, input: packed.stdout });
    expect(refused.status).toBe(1);
    expect(refused.stderr.toString()).toContain(`it is a pack made with --since and ${empty} lacks the snapshot it was made since`);
  });

  it('moves chosen snapshots with exactly the objects they need, byte for byte, reproducibly', async () => {
    const [d22, d20] = history.ids.slice().reverse();
    const out = join(dirname(await contentDir()), 'two.tar.gz');
    const packed = await tmsnap('pack', d20!, d22!, '--content', history.content, '--out', out);
    expect(packed.code).toBe(0);
    const again = `${out}.again.tar.gz`;
    await pack(history.content, [d22!, d20!], again);
    expect(sha256(await readFile(again))).toBe(sha256(await readFile(out)));

    const target = await contentDir();
    expect((await tmsnap('unpack', out, '--content', target)).code).toBe(0);
    expect((await listSnapshotDirs(target)).map((snapshot) => snapshot.id)).toEqual([d22, d20]);
    expect((await verifyStore(target)).problems).toEqual([]);
    const needed = new Set<string>();
    for (const dir of await listSnapshotDirs(target))
      for (const key of (await references(history.content, { ...dir, dir: join(history.content, 'snapshots', dir.id) })).objects.keys()) needed.add(key);
    expect(new Set((await listObjects(target)).objects.map((object) => object.key))).toEqual(needed);
    for (const id of [d22!, d20!]) {
      expect(await readFile(join(target, 'snapshots', id, 'manifest.json'))).toEqual(await readFile(join(history.content, 'snapshots', id, 'manifest.json')));
    }
    const second = await unpack(target, out);
    expect(second).toEqual({ added: [], present: [d20, d22], objectsAdded: 0, tags: [] });
  });

  function tarball(entries: { path: string; type?: 'File' | 'SymbolicLink' | 'Directory'; body?: string; linkpath?: string }[]): Buffer {
    const blocks: Buffer[] = [];
    for (const entry of entries) {
      const body = Buffer.from(entry.body ?? '');
      const header = new Header({
        path: entry.path,
        mode: 0o644,
        size: entry.type === 'File' || entry.type === undefined ? body.length : 0,
        type: entry.type ?? 'File',
        mtime: new Date(0),
        ...(entry.linkpath ? { linkpath: entry.linkpath } : {}),
      });
      const block = Buffer.alloc(512);
      header.encode(block, 0);
      blocks.push(block);
      if (body.length > 0 && (entry.type ?? 'File') === 'File') blocks.push(Buffer.concat([body, Buffer.alloc((512 - (body.length % 512)) % 512)]));
    }
    blocks.push(Buffer.alloc(1024));
    return gzipSync(Buffer.concat(blocks));
  }

  const goodObject = '{"ok": true}\n';
  const goodPath = `objects/${sha256(goodObject).slice(0, 2)}/${sha256(goodObject).slice(2)}.json`;

  it.each([
    ['a path climbing out', [{ path: '../escaped.json', body: 'x' }], '../escaped.json'],
    ['an absolute path', [{ path: '/tmp/tmsnap-absolute-escape.json', body: 'x' }], '/tmp/tmsnap-absolute-escape.json'],
    ['a snapshot path climbing out', [{ path: 'snapshots/../../escaped.json', body: 'x' }], 'snapshots/../../escaped.json'],
    ['a symbolic link', [{ path: 'objects/ab', type: 'SymbolicLink' as const, linkpath: '/etc' }], 'objects/ab'],
    ['an object that does not match its hash', [{ path: `objects/00/${'0'.repeat(62)}.json`, body: goodObject }], 'does not match its hash'],
    [
      'a file tmsnap never writes',
      [
        { path: goodPath, body: goodObject },
        { path: 'snapshots/2026-11-22T041500Z/run.sh', body: 'rm -rf /' },
      ],
      'snapshots/2026-11-22T041500Z/run.sh',
    ],
  ])('refuses %s and unpacks nothing', async (_name, entries, named) => {
    const target = await contentDir();
    const archive = join(dirname(target), 'hostile.tar.gz');
    await writeFile(archive, tarball(entries));
    const result = await tmsnap('unpack', archive, '--content', target);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(named);
    expect(result.stderr).toContain('nothing was unpacked');
    expect(existsSync(join(dirname(target), 'escaped.json'))).toBe(false);
    expect(existsSync('/tmp/tmsnap-absolute-escape.json')).toBe(false);
    expect(existsSync(join(target, 'objects'))).toBe(false);
    expect(await readdir(target).catch(() => [])).toEqual([]);
  });

  it('refuses a pack whose snapshot lacks an object it needs', async () => {
    const [d22] = history.ids.slice().reverse();
    const manifest = await readFile(join(history.content, 'snapshots', d22!, 'manifest.json'), 'utf8');
    const target = await contentDir();
    const archive = join(dirname(target), 'incomplete.tar.gz');
    await writeFile(archive, tarball([{ path: `snapshots/${d22}/manifest.json`, body: manifest }]));
    const result = await tmsnap('unpack', archive, '--content', target);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`snapshot ${d22}`);
    expect(await listSnapshotDirs(target)).toEqual([]);
  });
});

describe('tmsnap snapshots', () => {
  it('lists every snapshot newest first with state, counts and the bytes each added', async () => {
    const listings = await snapshotListings(history.content);
    expect(listings.map((listing) => listing.id)).toEqual(history.ids.slice().reverse());
    expect(listings.every((listing) => listing.state === 'complete' && listing.scope === 'whole instance')).toBe(true);
    const oldest = listings.at(-1)!;
    expect(oldest.addedBytes).toBe(oldest.bytes);
    const sizes = new Map((await listObjects(history.content)).objects.map((object) => [object.key, object.size]));
    const dirs = await listSnapshotDirs(history.content);
    for (const [index, listing] of listings.slice(0, -1).entries()) {
      const now = (await references(history.content, dirs[index]!)).objects;
      const older = (await references(history.content, dirs[index + 1]!)).objects;
      const added = [...now.keys()].filter((key) => !older.has(key)).reduce((sum, key) => sum + sizes.get(key)!, 0);
      expect(listing.addedBytes).toBe(added);
      expect(listing.bytes).toBe([...now.keys()].reduce((sum, key) => sum + sizes.get(key)!, 0));
      expect(added).toBeLessThan(listing.bytes);
    }
    const text = await tmsnap('snapshots', '--content', history.content);
    expect(text.stdout.split('\n')[1]).toMatch(new RegExp(`^${listings[0]!.id}\\s+complete\\s+whole instance\\s+2 projects`));
  });

  it('records each snapshot’s sizes once, lists the same from them, and ignores sizes of another index', async () => {
    const dirs = (await listSnapshotDirs(history.content)).filter((snapshot) => !snapshot.partial);
    await Promise.all(dirs.map((snapshot) => rm(join(snapshot.dir, 'sizes.json'), { force: true })));
    const walked = await snapshotListings(history.content);
    for (const snapshot of dirs) expect(existsSync(join(snapshot.dir, 'sizes.json'))).toBe(true);
    expect(await snapshotListings(history.content)).toEqual(walked);
    // A migrated snapshot's manifest names a new index: what was recorded for the old one is not its size.
    const newest = join(dirs[0]!.dir, 'sizes.json');
    await writeFile(newest, JSON.stringify({ index: sha256('another index'), objects: {} }));
    expect(await snapshotListings(history.content)).toEqual(walked);
    expect(JSON.parse(await readFile(newest, 'utf8')).index).not.toBe(sha256('another index'));
  });

  it('starts without zod once sizes are recorded: it reads only the fields it shows', async () => {
    await snapshotListings(history.content);
    const probe = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); loaded.push(found.url); return found; } });
      const { main } = await import('./cli/main.ts');
      await main(['snapshots', '--content', ${JSON.stringify(history.content)}]);
      console.log(JSON.stringify(loaded.filter((url) => url.includes('/zod/') || url.includes('/references.ts'))));`;
    const { stdout } = await execute(process.execPath, ['--input-type=module', '-e', probe], { cwd: root });
    expect(stdout.trim().split('\n').at(-1)).toBe('[]');
  });

  it('leaves the sizes out of a pack: packing before and after a listing gives the same bytes', async () => {
    const [, newest] = history.ids.slice(-2);
    const dirs = await listSnapshotDirs(history.content);
    await Promise.all(dirs.map((snapshot) => rm(join(snapshot.dir, 'sizes.json'), { force: true })));
    const out = join(dirname(history.content), 'sizes-pack');
    await mkdir(out, { recursive: true });
    expect((await tmsnap('pack', newest!, '--content', history.content, '--out', join(out, 'before.tar.gz'))).code).toBe(0);
    await snapshotListings(history.content);
    expect((await tmsnap('pack', newest!, '--content', history.content, '--out', join(out, 'after.tar.gz'))).code).toBe(0);
    expect(await readFile(join(out, 'after.tar.gz'))).toEqual(await readFile(join(out, 'before.tar.gz')));
  });
});
