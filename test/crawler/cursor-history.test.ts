/**
 * Tonight first on a server whose change log pages by cursor (issue 27; docs/crawl.md, "Tonight
 * first"): the chain of `next` links is followed one at a time, and the links past the newest
 * 10,000 changes (plan.ts `siteChanges`) wait for the history phase, as numbered pages do. A night
 * stopped there records how far back its log reaches (`parts.changes_from`), a resumed run knows
 * how far its chain had come, and the following nights read the older log once.
 */
import { cp } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteChanges } from '../../crawler/plan.ts';
import { journalTask, queuedTask } from '../../crawler/queue/journal.ts';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { type ReferenceServer, startTestServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { type CountingProxy, startCountingProxy } from './counting-proxy.ts';
import { type Exported, exported, historyData, isHistory } from './history-export.ts';

const contentFolder = useContentFolders('tmsnap-cursor-history-');
const token = 'wlu_cursor_history';
const data = historyData;

let server: ReferenceServer;
let proxy: CountingProxy;
/** The crawl in one go (one request at a time, so a later run can be stopped at the same request). */
let oneGo: { requests: string[]; current: number; whole: Exported[]; times: string[]; siteFrom: string };

beforeAll(async () => {
  server = await startTestServer({ data: await loadDataset(data), behaviours: { tokens: [token], rateLimit: raisedRateLimit, cursorPagination: true } });
  proxy = await startCountingProxy(server.url);
  const content = await contentFolder();
  const result = await crawlComplete(server, content, { token, apiRoot: new URL(proxy.url), concurrency: 1 });
  const whole = await exported(content);
  const times = whole.flatMap((line) => (line.kind === 'change' ? [line.timestamp ?? ''] : [])).sort((a, b) => Date.parse(b) - Date.parse(a));
  // The oldest of the newest 10,000: where the site's log ends, and a first night's with it.
  oneGo = { requests: [...proxy.requests], current: result.currentMade ?? 0, whole, times, siteFrom: times[siteChanges - 1] ?? '' };
}, 120_000);

afterAll(async () => {
  await proxy.close();
  await server.close();
});

/** The requests for pages of the change log among `requests`. */
function logPages(requests: readonly string[]): string[] {
  const changes = new URL('changes/', proxy.url).pathname;
  return requests.filter((request) => request.startsWith(changes));
}

/** Runs a crawl through the proxy; answers its result and the requests it made. */
async function night(content: string, options: Parameters<typeof crawlReferenceServer>[2] = {}) {
  const start = proxy.requests.length;
  const result = await crawlReferenceServer(server, content, { token, apiRoot: new URL(proxy.url), ...options });
  return { result, requests: proxy.requests.slice(start) };
}

describe('a change log paged by cursor, tonight first', () => {
  it('the instance is paged by cursor and its log is longer than the site shows', () => {
    expect(logPages(oneGo.requests).some((request) => /[?&]cursor=/.test(request))).toBe(true);
    expect(oneGo.requests.some((request) => /[?&]page=/.test(request))).toBe(false);
    expect(oneGo.whole.filter((line) => line.kind === 'change').length).toBeGreaterThan(siteChanges + 1_000);
  });

  it('a first night too short for the history holds the current state and the log back to the newest 10,000', async () => {
    const content = await contentFolder();
    // The current state, one request of the history and the one kept for the public view.
    const { result, requests } = await night(content, { maxRequests: oneGo.current + 2 });
    expect(result.outcome, result.message).toBe('complete');
    expect(result.parts?.history).toBe(false);
    expect(result.parts?.changes_from).toBe(oneGo.siteFrom);
    expect(result.message).toContain(`its change log reaches back to ${oneGo.siteFrom}`);
    // Only the log's links past the newest 10,000 were left: the one-go crawl's pages but those.
    expect(logPages(requests).length).toBe(siteChanges / 1_000);
    const first = await exported(content);
    expect(first.filter((line) => !isHistory(line, oneGo.siteFrom))).toEqual(oneGo.whole.filter((line) => !isHistory(line, oneGo.siteFrom)));
    expect(first.filter((line) => line.kind === 'change').length).toBe(siteChanges);
  }, 120_000);

  it('the following nights end with the one-go archive, no page of the log read twice', async () => {
    const content = await contentFolder();
    const first = await night(content, { maxRequests: oneGo.current + 2, concurrency: 1 });
    expect(first.result.parts?.changes_from).toBe(oneGo.siteFrom);
    // The second night stops after the first page of the older log: a trial run on a copy finds
    // that request (one at a time, the order is the same).
    const trialContent = await contentFolder();
    await cp(content, trialContent, { recursive: true });
    const trial = await night(trialContent, { concurrency: 1 });
    const older = (request: string, from: string) => logPages([request]).length > 0 && request.includes(`timestamp_before=${encodeURIComponent(from)}`);
    const olderPages = trial.requests.flatMap((request, index) => (older(request, oneGo.siteFrom) ? [index] : []));
    expect(olderPages.length).toBeGreaterThan(1);
    // The last request it may send is that page (one more is kept for the public view).
    const second = await night(content, { maxRequests: (olderPages[1] ?? 0) + 1, concurrency: 1 });
    expect(second.result.outcome, second.result.message).toBe('complete');
    expect(second.result.parts?.history).toBe(false);
    // Its log reaches back to the oldest change of that page: the 1,000 newest from the first night's oldest on.
    const fromFirst = oneGo.times.filter((time) => Date.parse(time) <= Date.parse(oneGo.siteFrom));
    const reached = fromFirst[999] ?? '';
    expect(second.result.parts?.changes_from).toBe(reached);
    const third = await night(content, { concurrency: 1 });
    expect(third.result.outcome, third.result.message).toBe('complete');
    expect(third.result.parts).toBeUndefined();
    expect(await exported(content)).toEqual(oneGo.whole);

    // The older log read on from where the second night's ends, no page of it twice.
    expect(third.requests.filter((request) => older(request, reached)).length).toBeGreaterThan(0);
    expect(third.requests.filter((request) => older(request, oneGo.siteFrom))).toEqual([]);
    const log = logPages([...first.requests, ...second.requests, ...third.requests]);
    const olderLog = log.filter((request) => older(request, oneGo.siteFrom) || older(request, reached));
    expect(new Set(olderLog).size).toBe(olderLog.length);
    // Each night's pages: the first night's ten, then each later night's window of the log since
    // and its pages of the older log, whose first page starts at the oldest change held (again).
    expect(logPages(first.requests).length).toBe(siteChanges / 1_000);
    expect(log.length, JSON.stringify(log)).toBeLessThanOrEqual(logPages(oneGo.requests).length + 2 * 2);
  }, 300_000);

  it('a run stopped mid-chain resumes at its place, and the chain still stops at the newest 10,000', async () => {
    const content = await contentFolder();
    // Stopped before the sixth page of the log: five pages (5,000 changes) in, the chain's link pending.
    const log = oneGo.requests.map((request, index) => ({ request, index })).filter(({ request }) => logPages([request]).length > 0);
    const stopAt = log[5]?.index ?? 0;
    // A keyed crawl keeps one request of its share for the public view, which a stopped run does not ask.
    const stopped = await night(content, { maxRequests: stopAt + 1, concurrency: 1 });
    expect(stopped.result.outcome).toBe('failed');
    expect(stopped.result.dir).toMatch(/\.partial$/);
    expect(logPages(stopped.requests).length).toBe(5);

    const resumed = await night(content, { maxRequests: oneGo.current + 2 - stopAt, concurrency: 1 });
    expect(resumed.result.outcome, resumed.result.message).toBe('complete');
    // Counted from the start of the chain, not from the resumed run's first link.
    expect(resumed.result.parts?.changes_from).toBe(oneGo.siteFrom);
    // The pages' cursors (the window's end, `timestamp_before`, is each crawl's start time).
    const cursors = (requests: readonly string[]) => logPages(requests).map((request) => new URL(request, proxy.url).searchParams.get('cursor'));
    expect([...cursors(stopped.requests), ...cursors(resumed.requests)]).toEqual(cursors(oneGo.requests).slice(0, siteChanges / 1_000));
    expect((await exported(content)).filter((line) => line.kind === 'change').length).toBe(siteChanges);
  }, 120_000);

  it('a journal line of an earlier tmsnap, without the chain count, still loads', () => {
    const task = { url: 'https://example.org/api/changes/?cursor=bz0xMDAw', type: 'changes' as const, phase: 2 };
    expect(queuedTask(journalTask(task))).toEqual(task);
    expect(queuedTask(journalTask({ ...task, delivered: 1_000 }))).toEqual({ ...task, delivered: 1_000 });
  });
});
