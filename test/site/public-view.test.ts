/**
 * Only what the public sees, by default (issue 23; site-model/privacy.ts, docs/site.md): the reference
 * server with a key configured is crawled anonymously and with the key, and both sites are built.
 * The keyed site holds nothing the anonymous one lacks but what `--publish` names, and neither
 * holds an e-mail address, though the data has them in PO headers, PO comments (a unit's note),
 * change records, user records and a component's fields. test/helpers/public-sites.ts does the
 * comparing, for a real Weblate too.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { findEmails } from '../../site-model/privacy.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { writeDataset } from '../../dataset/write.ts';
import { uiTranslator } from '../../src/i18n/index.ts';
import { sizeText } from '../../src/i18n/size.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { comparePublicSites, emailAddressesIn, siteFiles } from '../helpers/public-sites.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, scratch } from './browser.ts';

const tempFolder = useTempFolders('tmsnap-public-view-', 'all', scratch);
const key = 'wlu_public_view';
let work: string;
let anonymousContent: string;
let keyedContent: string;

/** The fixture rows with addresses where real servers have them. */
function rowsWithAddresses() {
  const rows = fixtureRows();
  // A translator whose username is an address (Weblate allows it), and the last to change a public translation: PO's Last-Translator.
  rows.users.push({ id: 4, username: 'carol@example.org', full_name: 'Carol Example <carol@example.org>' });
  const czech = rows.translations.find((t) => t.componentId === 1 && t.languageCode === 'cs');
  const unit = rows.units.find((u) => u.translationId === czech?.id && u.position === 2);
  if (!czech || !unit) throw new Error('the fixture lacks hello/po/cs');
  // A note: PO's `#.` comment, the unit pages, the search index.
  unit.note = 'Ask Jane Doe <jane.doe@example.net> before changing this.';
  const last = Math.max(...rows.changes.map((c) => c.id));
  const stamp = rows.changes.at(-1)?.timestamp ?? '2026-01-01T00:00:00.000000Z';
  rows.changes.push({
    id: last + 1,
    action: 2,
    timestamp: stamp,
    user: 'carol@example.org',
    author: 'carol@example.org',
    unitId: unit.id,
    translationId: czech.id,
    componentId: 1,
    target: 'Write to help@example.com',
  });
  return rows;
}

beforeAll(async () => {
  work = await tempFolder();
  anonymousContent = join(work, 'anonymous');
  keyedContent = join(work, 'keyed');
  const server = await startTestServer({ data: new MemoryModel(rowsWithAddresses()), behaviours: { tokens: [key], rateLimit: raisedRateLimit } });
  try {
    await crawlComplete(server, anonymousContent, { concurrency: 2 });
    await crawlComplete(server, keyedContent, { concurrency: 2, token: key });
  } finally {
    await server.close();
  }
  // Four builds of a small instance: about a minute when the suite shares two cores.
  await buildWithCli(['--content', anonymousContent, '--out', join(work, 'anonymous-site')]);
  await buildWithCli(['--content', keyedContent, '--out', join(work, 'keyed-site')]);
  await buildWithCli(['--content', keyedContent, '--out', join(work, 'opted-in-site'), '--publish', 'private-projects,repository,all-languages']);
  // With the dataset (`--dataset`): the keyed crawl, its private project and addresses, and the authors hidden.
  await buildWithCli(['--content', keyedContent, '--out', join(work, 'hidden-authors-site'), '--hide-authors', '--dataset']);
}, 600_000);

describe('a keyed crawl against an anonymous one, both built', () => {
  it('records what the crawl could read, and the data holds addresses for the sites to leave out', async () => {
    const keyed = await openSnapshot(keyedContent);
    expect(keyed.manifest.keyed).toBe(true);
    expect(keyed.manifest.public_projects).toEqual(['api/projects/hello/']);
    expect((await keyed.projects()).map((p) => p.record.slug).sort()).toEqual(['hello', 'secret']);
    const anonymous = await openSnapshot(anonymousContent);
    expect(anonymous.manifest.keyed).toBe(false);
    expect(anonymous.manifest.public_projects).toBeUndefined();
    // So that the checks below can fail: addresses in a raw PO file (header and comments), users and changes.
    const file = await keyed.file('api/translations/hello/po/cs/');
    const text = file?.bytes.toString('utf8') ?? '';
    expect(findEmails(text)).toEqual(expect.arrayContaining(['carol@example.org', 'jane.doe@example.net', 'bugs@example.org']));
    expect(text).toMatch(/^#\. Ask Jane Doe <jane\.doe@example\.net>/m);
    expect(text).toContain('"Last-Translator: Carol Example <carol@example.org>\\n"');
    expect((await keyed.users()).some((user) => findEmails(JSON.stringify(user.record)).length > 0)).toBe(true);
  });

  it('publishes nothing of the keyed crawl that the anonymous site lacks, and no e-mail address in either', async () => {
    const comparison = await comparePublicSites(join(work, 'anonymous-site'), join(work, 'keyed-site'));
    expect(comparison.extraFiles).toEqual([]);
    expect(comparison.extraWords).toEqual([]);
    expect(comparison.emails).toEqual([]);
    expect(comparison.files.keyed).toBeGreaterThan(50);
  });

  it('publishes what is opted in by name, and still no address', async () => {
    const comparison = await comparePublicSites(join(work, 'anonymous-site'), join(work, 'opted-in-site'));
    expect(comparison.extraFiles.length).toBeGreaterThan(0);
    // Every file the anonymous site lacks is the private project's (its pages, badges, files).
    expect(comparison.extraFiles.filter((path) => !/(^|\/)secret(\/|\.)/.test(path))).toEqual([]);
    expect(comparison.extraWords.map((extra) => extra.word)).toContain('Secret');
    expect(comparison.emails).toEqual([]);
    const nothingMore = await comparePublicSites(join(work, 'anonymous-site'), join(work, 'opted-in-site'), {
      allowFile: (path) => /(^|\/)secret(\/|\.)/.test(path) || path === 'data/status.json',
    });
    expect(nothingMore.extraFiles).toEqual([]);
  });

  it('keeps the published PO file valid, its translator named without an address, and with --hide-authors not at all', async () => {
    const path = 'projects/hello/po/cs/file/';
    const published = (await siteFiles(join(work, 'keyed-site'))).filter((file) => file.path.startsWith(path));
    expect(published).toHaveLength(1);
    const text = published[0]!.text;
    expect(text).toContain('"Last-Translator: Carol Example\\n"');
    expect(text).toMatch(/^#\. Ask Jane Doe before changing this\.$/m);
    const hidden = (await siteFiles(join(work, 'hidden-authors-site'))).find((file) => file.path.startsWith(path));
    expect(hidden?.text).toContain('"Last-Translator: \\n"');
    expect(await emailAddressesIn(join(work, 'hidden-authors-site'))).toEqual([]);
  });

  it('ships with --dataset the SQLite file of the published view, linked with its size: no private project, no address, no name', async () => {
    const site = join(work, 'hidden-authors-site');
    const file = join(site, 'data', 'tmsnap-dataset.sqlite');
    const bytes = await readFile(file);
    const home = await readFile(join(site, 'index.html'), 'utf8');
    expect(home).toContain('href="data/tmsnap-dataset.sqlite"');
    const size = sizeText(uiTranslator('en'), (await stat(file)).size);
    expect(size).toMatch(/^\d+(\.\d)? kB$/);
    expect(home).toContain(`SQLite, 1 snapshot, ${size}`);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect(
        db
          .prepare('SELECT DISTINCT project FROM projects')
          .all()
          .map((row) => row.project),
      ).toEqual(['hello']);
      expect(db.prepare('SELECT COUNT(*) AS n FROM changes WHERE user IS NOT NULL OR author IS NOT NULL').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM translations WHERE last_author IS NOT NULL').get()).toEqual({ n: 0 });
      expect((db.prepare('SELECT COUNT(*) AS n FROM changes').get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    // The bytes, whatever table or page of the file might hold them.
    const text = bytes.toString('latin1');
    expect(text).toContain('Hello');
    expect(text).not.toMatch(/secret/i);
    expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
    const names = ['alice', 'bob', 'carol', 'admin', 'Site Admin', 'Translator'];
    expect(names.filter((name) => text.toLowerCase().includes(name.toLowerCase()))).toEqual([]);
    // Those names are there to find: the same dataset naming people, as without --hide-authors.
    const named = join(work, 'named.sqlite');
    await writeDataset({ content: keyedContent, out: named, format: 'sqlite', tmsnapVersion: 'test' });
    const namedText = (await readFile(named)).toString('latin1').toLowerCase();
    expect(names.filter((name) => namedText.includes(name.toLowerCase()))).not.toEqual([]);
    // A build without the flag has neither the file nor the link.
    await expect(stat(join(work, 'anonymous-site', 'data', 'tmsnap-dataset.sqlite'))).rejects.toThrow();
    const plainHome = await readFile(join(work, 'anonymous-site', 'index.html'), 'utf8');
    expect(plainHome).not.toContain('tmsnap-dataset');
    expect(plainHome).not.toContain('SQLite');
  });
});
