/**
 * `node --import tsx bench/site-history.ts`: what string histories cost (issue 13). Crawls the
 * bundled reference data once, derives 29 later snapshots from it (each edits the text and
 * state of 2% of the units of 10 translations, the rest unchanged, as a nightly crawl would
 * find), then builds the newest snapshot three ways: alone (one snapshot in the archive), with
 * 30 snapshots and histories, and with 30 snapshots and `--no-history`. Prints time and size;
 * asserts nothing. Snapshots are derived straight in the object store (docs/snapshot-format.md)
 * because crawling 30 times would take far longer than the builds being measured.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'lossless-json';
import { loadDataset } from '../reference-server/datasets.ts';
import { startReferenceServer } from '../reference-server/server.ts';
import { listSnapshots, openSnapshot } from '../snapshot/reader.ts';
import { ObjectStore } from '../snapshot/store.ts';

const repo = resolve(import.meta.dirname, '..');
const results = join(repo, 'bench/results/site-history');
const single = join(results, 'content-1');
const thirty = join(results, 'content-30');

function run(args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(repo, 'bin/tmsnap.js'), ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => (code === 0 || (code === 3 && args[0] === 'crawl') ? done(out) : fail(new Error(`tmsnap ${args.join(' ')}: exit ${code}\n${err.slice(-2000)}`))));
  });
}

async function crawlOnce(): Promise<void> {
  if ((await listSnapshots(single)).some((s) => s.complete)) return;
  const server = await startReferenceServer({ model: await loadDataset('bundled'), host: '127.0.0.1', port: 0, behaviours: { changesNewestFirst: true } });
  try {
    await run(['crawl', '--url', server.url, '--out', single]);
  } finally {
    await server.close();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

async function deriveSnapshots(count: number): Promise<void> {
  if ((await listSnapshots(thirty)).filter((s) => s.complete).length >= count) return;
  await rm(thirty, { recursive: true, force: true });
  await cp(single, thirty, { recursive: true });
  const store = new ObjectStore(thirty);
  let base = await openSnapshot(thirty);
  const unitLists = Object.keys(base.index.records).filter((path) => path.endsWith('/units/')).sort();
  const started = Date.parse(base.manifest.started);
  for (let n = 1; n < count; n += 1) {
    const records = { ...base.index.records };
    for (let k = 0; k < 10; k += 1) {
      const path = unitLists[(n * 10 + k) % unitLists.length]!;
      const units = parse((await store.readBytes(records[path]!, 'json')).toString('utf8')) as Array<Record<string, unknown>>;
      units.forEach((unit, index) => {
        if ((index + n) % 50 !== 0) return;
        unit.target = (unit.target as string[]).map((text) => `${text} (rev ${n})`);
        unit.state = n % 2 === 0 ? 20 : 10;
      });
      records[path] = (await store.putBytes(stringify(units) ?? '[]', 'json')).hash;
    }
    const index = (await store.putBytes(JSON.stringify({ ...base.index, records }), 'json')).hash;
    const date = new Date(started + n * 86_400_000);
    const id = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
    const manifest = { ...base.manifest, id, started: date.toISOString(), finished: new Date(date.getTime() + 60_000).toISOString(), index };
    await mkdir(join(thirty, 'snapshots', id), { recursive: true });
    await writeFile(join(thirty, 'snapshots', id, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    base = await openSnapshot(thirty, id);
  }
}

async function build(name: string, content: string, extra: string[]): Promise<void> {
  const out = join(results, `dist-${name}`);
  await rm(out, { recursive: true, force: true });
  const load = loadavg()[0]!.toFixed(1);
  const summary = JSON.parse((await run(['build', '--content', content, '--out', out, '--json', ...extra])).trim().split('\n').at(-1)!) as { pages: number; bytes: number; seconds: number };
  const status = (await stat(join(out, 'data/status.json'))).size;
  const units = (await readdir(out, { recursive: true })).filter((f) => f.includes('/units/') && f.endsWith('.html')).length;
  console.log(`${name}: ${summary.seconds.toFixed(1)} s, ${summary.pages} HTML pages (${units} unit pages), ${(summary.bytes / 1e6).toFixed(2)} MB, status.json ${(status / 1024).toFixed(1)} KiB (load average before: ${load})`);
}

const cpu = cpus();
console.log(`machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, node ${process.version}`);
await mkdir(results, { recursive: true });
await crawlOnce();
await deriveSnapshots(30);
await build('1 snapshot', single, []);
await build('30 snapshots, histories', thirty, []);
await build('30 snapshots, --no-history', thirty, ['--no-history']);
