import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { exportLines, summaryOf, weblate } from './helpers.ts';
import { type Seeded, WeblateClient, seedWeblate } from './seed.ts';
import { type RealWeblate, resetThrottle, startRealWeblate } from './server.ts';

/**
 * Issue 23, throttled at the server's real limits: a server of its own whose key may make 40
 * requests a minute (Weblate's throttle, its own counting and `Retry-After`), a second client
 * spending the same key's budget meanwhile so that the crawl meets 429s it could not foresee
 * from the X-RateLimit headers. The crawl waits as told and loses nothing.
 */

let server: RealWeblate;
let seeded: Seeded;
const folder = useTempFolders('tmsnap-weblate-throttle-', 'all');

beforeAll(async () => {
  server = await startRealWeblate(weblate().release, { throttle: { user: '40/minute' } });
  seeded = await seedWeblate(server);
}, 600_000);
afterAll(async () => {
  await server?.close();
});

function crawl(content: string) {
  return tmsnap(['crawl', '--url', server.url, '--content', content, '--project', 'humanize', '--json', '--max-wait', '120'], {
    env: { WEBLATE_TOKEN: seeded.tokens.admin },
  });
}

/** Answers 429 the server logged, apart from the rival's (`GET /api/projects/` without a query). */
function crawlRefusals(log: string): number {
  return log.split('\n').filter((line) => /" 429 /.test(line) && !line.includes('"GET /api/projects/ HTTP')).length;
}

describe('throttled at 40 requests a minute', () => {
  it('honours Retry-After on 429 and stores what an unthrottled crawl stores', async () => {
    const dir = await folder();
    await resetThrottle(server.cachePrefix);
    // Another client of the same key spends the whole minute's budget first: the crawl's first
    // requests meet 429 with Retry-After, which no X-RateLimit header of its own foretold.
    const rival = new WeblateClient(server.url, seeded.tokens.admin);
    for (let spent = 0; spent < 100; spent++) {
      const refused = await rival.call('GET', 'projects/').then(
        () => false,
        (error: Error) => error.message.includes(': 429 '),
      );
      if (refused) break;
    }
    const before = crawlRefusals(server.log());
    const throttled = await crawl(join(dir, 'throttled'));
    const refused = crawlRefusals(server.log()) - before;
    const summary = summaryOf(throttled);
    console.log(
      `test:weblate: throttled crawl (40/minute, budget spent by another client first): exit ${throttled.code}, ${summary.made} requests, ${refused} answered 429`,
    );
    expect(throttled.code, throttled.stderr).toBe(0);
    expect(refused).toBeGreaterThan(0);
    expect(summary.problems).toEqual([]);

    await resetThrottle(server.cachePrefix);
    const clean = await crawl(join(dir, 'clean'));
    expect(clean.code).toBe(0);
    expect(await exportLines(join(dir, 'throttled'))).toEqual(await exportLines(join(dir, 'clean')));
  });
});
