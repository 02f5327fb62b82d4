/**
 * The bundled demo data crawled and built as `tmsnap demo` does it (cli/demo.ts): the reference
 * server over the bundled catalogs, read with a key at raised limits (anonymous clients get 100
 * requests a day), one full crawl, then `tmsnap build`. The docs' figures
 * (test/docs/figures.test.ts) and screenshots (scripts/screenshots.ts) come from such a build.
 */
import { join } from 'node:path';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import type { BuildSummary } from '../../site/build.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { buildWithCli } from '../site/browser.ts';

/** The key the demo's server accepts; made up, like the one `tmsnap demo` makes for itself. */
export const demoToken = 'wlu_docs_demo';

export interface DemoBuild {
  /** The archive folder: one snapshot. */
  content: string;
  /** The built site. */
  out: string;
  /** What `tmsnap build --json` printed. */
  summary: BuildSummary;
}

/** Crawls the bundled data into `<work>/content` and builds `<work>/site` from it. */
export async function buildBundledDemo(work: string): Promise<DemoBuild> {
  const content = join(work, 'content');
  const out = join(work, 'site');
  const server = await startTestServer({ data: 'bundled', behaviours: { tokens: [demoToken], rateLimit: raisedRateLimit } });
  try {
    await crawlComplete(server, content, { token: demoToken });
  } finally {
    await server.close();
  }
  return { content, out, summary: await buildJson(content, out) };
}

/** `tmsnap build --json` of the newest snapshot in `content` into `out`. */
export async function buildJson(content: string, out: string, flags: string[] = []): Promise<BuildSummary> {
  const output = await buildWithCli(['--content', content, '--out', out, '--json', ...flags]);
  const line = output.split('\n').find((text) => text.startsWith('{"snapshot"'));
  if (line === undefined) throw new Error(`tmsnap build --json printed no summary:\n${output}`);
  return JSON.parse(line) as BuildSummary;
}
