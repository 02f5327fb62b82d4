/**
 * Tonight first (issue 27): the site built after a first night that stopped once the current
 * state was in is the site of a complete crawl but for the history it lacks. On the fixture
 * (fewer changes than the site shows) that history is the translation files: the site differs
 * only by the archived files, the links to them and the home page's note that they follow.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlComplete, crawlReferenceServer } from '../helpers/crawl.ts';
import { siteFiles } from '../helpers/public-sites.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, scratch } from '../site/browser.ts';

const token = 'wlu_tonight_first_site';
const tempFolder = useTempFolders('tmsnap-tonight-site-', 'each', scratch);

/** The built site of the archive `content`, its own snapshot id and times set aside. */
async function site(content: string): Promise<Map<string, string>> {
  const dist = `${content}-dist`;
  await buildWithCli(['--content', content, '--out', dist]);
  const { id, started, finished } = (await openSnapshot(content)).manifest;
  const own = (text: string) => text.replaceAll(id, '<id>').replaceAll(started, '<started>').replaceAll(finished, '<finished>');
  return new Map((await siteFiles(dist)).map((file) => [file.path, own(file.text)]));
}

describe('the site after the first night', () => {
  it('is the site of a complete crawl but for the archived files, the links to them and a note on the home page', async () => {
    const work = await tempFolder();
    const [whole, night] = await withTestServer({ behaviours: { tokens: [token], rateLimit: raisedRateLimit } }, async (server) => {
      const complete = await crawlComplete(server, join(work, 'whole'), { token });
      // The first night's budget: the current state and two requests of the history (one kept for the public view).
      const first = await crawlReferenceServer(server, join(work, 'night'), { token, maxRequests: (complete.currentMade ?? 0) + 3 });
      expect(first.outcome).toBe('complete');
      expect(first.parts?.history).toBe(false);
      expect(first.parts?.changes_from).toBeUndefined();
      return [await site(join(work, 'whole')), await site(join(work, 'night'))];
    });
    const differing = [...whole.keys()].filter((path) => night.get(path) !== whole.get(path));
    const added = [...night.keys()].filter((path) => !whole.has(path));
    expect(added).toEqual([]);
    // What differs: the archived files the night did not fetch, and the pages that link to them.
    const missing = differing.filter((path) => !night.has(path));
    expect(missing.length).toBeGreaterThan(0);
    for (const path of missing) expect(path).toMatch(/\/file\/[^/]+$/);
    const changed = differing.filter((path) => night.has(path));
    console.log(`tonight-first site: ${missing.length} files not archived yet; ${changed.length} pages differing before the file links are set aside`);
    // The home page says the history is not all in.
    const pending = '; translation files follow on the next crawls';
    expect(night.get('index.html')).toContain(pending);
    expect(whole.get('index.html')).not.toContain(pending);
    // A translation page links its archived file, or says it is not archived yet.
    const withoutFileLinks = (text: string | undefined) =>
      text
        ?.replace(
          / · <a href="file\/[^"]*" download>[^<]*<\/a> <span class="muted">\([^)]*\)<\/span>|<span class="muted"> \(not archived in this snapshot\)<\/span>/g,
          '<file>',
        )
        .replace(pending, '');
    for (const path of changed) expect(withoutFileLinks(whole.get(path)), path).toBe(withoutFileLinks(night.get(path)));
  }, 600_000);
});
