import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePublicSites, emailAddressesIn, siteFiles } from '../helpers/public-sites.ts';
import { useTempFolders } from '../helpers/temp.ts';
import type { CliResult } from '../helpers/tmsnap.ts';
import { apiAs, buildSite, commitAll, crawlAs, exportLines, resetThrottle, summaryOf, weblate } from './helpers.ts';

/**
 * Issue 23, "Only what the public sees, by default", on a real server: the site of an admin-keyed
 * crawl holds nothing the site of an anonymous crawl of the same server lacks, and neither holds
 * an e-mail address, though the seeded catalogs carry translators' addresses in their headers
 * and comments and the server knows its users' addresses.
 */

const folder = useTempFolders('tmsnap-weblate-public-', 'all');

describe(`only what the public sees (${weblate().version})`, () => {
  it('a keyed crawl’s site adds nothing to an anonymous crawl’s site, and no site has an e-mail address', async () => {
    const dir = await folder();
    await commitAll();
    await resetThrottle();
    expect((await crawlAs('admin', join(dir, 'keyed'))).code).toBe(0);
    // Anonymous: 100 requests a day, resumed as the days pass (crawl.test.ts), until the history
    // (files among it) is in too: a night that leaves some for later exits 0 with the site current.
    const whole = (crawl: CliResult) => crawl.code === 0 && summaryOf(crawl).parts?.history !== false;
    let anonymous = await crawlAs('anonymous', join(dir, 'anonymous'));
    for (let day = 1; !whole(anonymous) && day < 10; day++) {
      await resetThrottle();
      anonymous = await crawlAs('anonymous', join(dir, 'anonymous'));
    }
    expect(whole(anonymous), anonymous.stderr).toBe(true);
    expect((await buildSite(join(dir, 'keyed'), join(dir, 'keyed-site'))).code).toBe(0);
    expect((await buildSite(join(dir, 'anonymous'), join(dir, 'anonymous-site'))).code).toBe(0);

    // The keyed site leaves out the changes of projects the public is not listed, and also the
    // few that name no translation or component while any project is left out (site-model/privacy.ts):
    // it counts fewer changes than the anonymous site, whose count is then a word of its own.
    // That count is the one word the keyed site may have alone.
    await resetThrottle();
    const listed = async (role: 'admin' | 'anonymous') => (await apiAs(role).all<{ id: number }>('changes/?page_size=1000')).length;
    const count = /([\d,]+) changes archived/.exec(await readFile(join(dir, 'keyed-site', 'changes', 'index.html'), 'utf8'))?.[1] ?? '';
    const comparison = await comparePublicSites(join(dir, 'anonymous-site'), join(dir, 'keyed-site'), {
      allowWord: (word, file) => /(^|\/)changes\//.test(file) && count.split(',').includes(word),
    });
    console.log(
      `test:weblate: changes listed with a key ${await listed('admin')}, anonymously ${await listed('anonymous')}; the keyed site publishes ${count}`,
    );
    console.log(
      `test:weblate: public view: ${comparison.files.keyed} files keyed, ${comparison.files.anonymous} anonymous; extra files ${comparison.extraFiles.length}, extra words ${comparison.extraWords.length}, e-mail addresses ${comparison.emails.length}`,
    );
    expect(comparison.extraFiles).toEqual([]);
    for (const { word, file } of comparison.extraWords) {
      const text = await readFile(join(dir, 'keyed-site', file), 'utf8');
      const at = text.indexOf(word);
      console.log(`test:weblate: keyed site alone: ${word} in ${file}: …${text.slice(Math.max(0, at - 400), at + 100)}…`);
    }
    expect(comparison.extraWords).toEqual([]);
    expect(comparison.emails).toEqual([]);

    // The check can fail: opting in to addresses publishes the seeded translators' ones.
    expect((await buildSite(join(dir, 'keyed'), join(dir, 'with-emails'), ['--publish', 'emails'])).code).toBe(0);
    expect((await emailAddressesIn(join(dir, 'with-emails'))).map((found) => found.address)).toContain('tereza.de@example.org');

    // 2026's announcements and suggestions (docs/site.md, "Announcements and suggestions"): the
    // seed made them where the API has them (seed.ts `seedNews`), on 2026.10.1 and not on 5.14.3.
    const { news, version } = weblate();
    expect(news === undefined, `seeded announcements on ${version}`).toBe(version.startsWith('5.'));
    if (news !== undefined) {
      for (const site of ['keyed-site', 'anonymous-site']) {
        const projectPage = await readFile(join(dir, site, 'projects', news.publicAnnouncement.project, 'index.html'), 'utf8');
        expect(projectPage, site).toContain(escapeHtml(news.publicAnnouncement.message));
        const files = await siteFiles(join(dir, site));
        const unitPages = files.filter((file) => file.path.startsWith(`projects/${news.suggestion.translation}/units/`));
        expect(
          unitPages.some((file) => file.text.includes('Pending suggestions') && file.text.includes(news.suggestion.target)),
          `${site}: the suggestion on its string's page`,
        ).toBe(true);
        // The private project's announcement is in the keyed crawl and nowhere in either site.
        expect(
          files.filter((file) => file.text.includes(news.privateAnnouncement.message)).map((file) => file.path),
          site,
        ).toEqual([]);
      }
      const keyed = await exportLines(join(dir, 'keyed'));
      expect(keyed.some((line) => line.includes(JSON.stringify(news.privateAnnouncement.message).slice(1, -1)))).toBe(true);
    }
  });
});

/** Text as Astro writes it into a page. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
