/**
 * `npm run bench:build [-- bundled 100k 1m 1m-direct]`: how fast `tmsnap build` turns a snapshot into
 * the site. For each scenario it starts the reference server, crawls it (once: a finished
 * crawl in bench/results/ is reused), then builds in a child process and reports pages/s,
 * total time and the child's peak RSS. Prints figures; asserts none.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset } from '../reference-server/datasets.ts';
import { raisedRateLimit } from '../reference-server/rate-limit.ts';
import { startReferenceServer } from '../reference-server/server.ts';
import { listSnapshots } from '../snapshot/reader.ts';
import { writeScaledSnapshot } from '../test/site/fixture.ts';

const repo = resolve(import.meta.dirname, '..');
const results = join(repo, 'bench/results/build');

const scenarios: Record<string, string> = {
  bundled: 'bundled',
  '100k': 'synthetic:units=100000,seed=1',
  '1m': 'synthetic:units=1000000,seed=1',
  // The same size written straight through the snapshot writer: crawling the synthetic server
  // over HTTP took ~10 min per 100k units on this (shared) machine, far longer than the build.
  '1m-direct': 'direct:1000000',
};

/** Runs a child to completion, its output appended to `log`; the last stdout line is returned. */
function run(args: string[], log: string, onLine?: (line: string) => void, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const out = createWriteStream(log, { flags: 'a' });
    let last = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        out.write(text);
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          if (stream === child.stdout) last = line;
          onLine?.(line);
        }
      });
    }
    child.on('error', fail);
    child.on('close', (code) => {
      out.end();
      // The crawl exits 3 for "complete with problems", still a usable snapshot.
      if (code === 0 || (code === 3 && args.includes('crawl'))) done(last);
      else fail(new Error(`${args.join(' ')} exited with ${code}; see ${log}`));
    });
  });
}

async function countFiles(dir: string): Promise<{ html: number; files: number; bytes: number }> {
  let html = 0;
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    if (entry.name.endsWith('.html')) html += 1;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { html, files, bytes };
}

async function crawlOnce(name: string, data: string, content: string, log: string): Promise<void> {
  if ((await listSnapshots(content)).some((s) => s.complete)) {
    console.log(`${name}: reusing the crawl in ${content}`);
    return;
  }
  if (data.startsWith('direct:')) {
    const started = performance.now();
    await writeScaledSnapshot(content, Number(data.slice('direct:'.length)), (done) =>
      process.stdout.write(`\r${name}: writing the snapshot, ${done} units   `),
    );
    console.log(`\n${name}: wrote the snapshot in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return;
  }
  // The default (5.4) profile read with a token at raised limits (anonymous: 100 requests a day).
  const token = 'wlu_bench_build';
  const server = await startReferenceServer({
    model: await loadDataset(data),
    host: '127.0.0.1',
    port: 0,
    behaviours: { tokens: [token], rateLimit: raisedRateLimit },
  });
  try {
    const started = performance.now();
    await run([join(repo, 'bin/tmsnap.js'), 'crawl', '--url', server.url, '--content', content], log, undefined, { WEBLATE_TOKEN: token });
    console.log(`${name}: crawled ${data} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await server.close();
  }
}

async function bench(name: string): Promise<void> {
  const data = scenarios[name];
  if (!data) throw new Error(`unknown scenario "${name}"; scenarios: ${Object.keys(scenarios).join(', ')}`);
  const content = join(results, name, 'content');
  const out = join(results, name, 'dist');
  const log = join(results, `${name}.log`);
  await mkdir(results, { recursive: true });
  await crawlOnce(name, data, content, log);
  const [snapshot] = (await listSnapshots(content)).filter((s) => s.complete);
  await rm(out, { recursive: true, force: true });
  const started = performance.now();
  let routes = 0;
  const childResult = await run(['--import', 'tsx', join(repo, 'bench/build.ts'), '--child', content, out], log, (line) => {
    if (line.includes('▶ src/pages/')) {
      routes += 1;
      process.stdout.write(`\r${name}: building, route ${routes} (${((performance.now() - started) / 1000).toFixed(0)} s)   `);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const { maxRssKb } = JSON.parse(childResult) as { maxRssKb: number };
  const { html, files, bytes } = await countFiles(out);
  const counts = snapshot?.manifest?.counts ?? {};
  process.stdout.write('\n');
  console.log(
    [
      `scenario ${name} (${data})`,
      `  input: ${counts.unit ?? 0} units, ${counts.translation ?? 0} translations, ${counts.component ?? 0} components, ${counts.change ?? 0} changes`,
      `  output: ${html} HTML pages, ${files} files, ${(bytes / 1e6).toFixed(0)} MB`,
      `  build: ${seconds.toFixed(1)} s total, ${(html / seconds).toFixed(0)} pages/s, ${((counts.unit ?? 0) / seconds).toFixed(0)} units/s, peak RSS ${(maxRssKb / 1024).toFixed(0)} MB`,
    ].join('\n'),
  );
}

async function child(content: string, out: string): Promise<void> {
  const { buildSite } = await import('../site/build.ts');
  await buildSite({ content, out, base: '/', hideAuthors: false });
  // ru_maxrss, in kilobytes on Linux: the peak of this whole process.
  console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] as string, args[2] as string);
} else {
  const cpu = cpus();
  console.log(`machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, node ${process.version}`);
  for (const name of args.length > 0 ? args : ['bundled', '100k', '1m-direct']) await bench(name);
}
