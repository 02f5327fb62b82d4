import { describe, expect, it } from 'vitest';
import { action } from '../../api/change.ts';
import {
  allTime,
  credits,
  creditsJson,
  creditsMarkdown,
  lastMonths,
  publicName,
  readCredits,
  sinceSnapshot,
  type CreditsInput,
} from '../../archive/credits.ts';
import { findEmails, redactEmails } from '../../site-model/privacy.ts';
import { publishedSnapshot } from '../../site-model/published-snapshot.ts';
import { openSnapshot, storedChange, storedUser, type StoredChange } from '../../snapshot/index.ts';
import { builders } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { creditsModel, crawlInto, historyServer } from './crawl.ts';

const base = 'http://127.0.0.1:8000/';
const build = builders(base);

/** A change as the snapshot stores it: links relative to the server's base. */
function change(id: number, code: number, translation: string | null, who: { user?: string | null; author?: string | null }, timestamp: string): StoredChange {
  const link = (username: string | null | undefined) => (username === undefined || username === null ? null : `api/users/${username}/`);
  const record = build.change(id, code, 'api/components/demo/po/', translation, { timestamp, unit: null, url: `api/changes/${id}/` });
  // The builder types `author` as always null; a stored change may name one.
  return storedChange.parse({ ...record, user: link(who.user), author: link(who.author) });
}

const cs = 'api/translations/demo/po/cs/';
const de = 'api/translations/demo/po/de/';
const users = new Map(
  [
    { id: 1, username: 'jana', full_name: 'Jana Nováková' },
    { id: 2, username: 'petr', full_name: '' },
    { id: 3, username: 'max@example.org', full_name: 'max@example.org' },
    { id: 4, username: 'lena', full_name: 'Lena <lena@example.org>' },
  ].map((user) => [`api/users/${encodeURIComponent(user.username)}/`, storedUser.parse(user)]),
);
const input = (changes: StoredChange[], period = allTime): CreditsInput => ({
  changes,
  users,
  projectNames: new Map([['demo', 'Demo *app*']]),
  languageNames: new Map([
    ['cs', 'Czech'],
    ['de', 'German'],
  ]),
  period,
  redact: redactEmails,
});

describe('credits from change records', () => {
  it('counts translation work per project and language, crediting the author over the user who saved it', () => {
    const changes = [
      change(1, action.translationAdded, cs, { user: 'jana', author: 'jana' }, '2026-01-02T10:00:00.000000Z'),
      change(2, action.translationChanged, cs, { user: 'jana', author: 'jana' }, '2026-01-03T10:00:00.000000Z'),
      // A suggestion by petr accepted by jana: petr's words.
      change(3, action.suggestionAccepted, cs, { user: 'jana', author: 'petr' }, '2026-01-04T10:00:00.000000Z'),
      change(4, action.translationApproved, de, { user: 'max%40example.org', author: null }, '2026-01-05T10:00:00.000000Z'),
      // Not translation work: machine translation, a repository update, a component-level change, the system.
      change(5, action.automaticallyTranslated, cs, { user: 'petr', author: 'petr' }, '2026-01-06T10:00:00.000000Z'),
      change(6, action.stringUpdatedInTheRepository, cs, { user: 'petr', author: 'petr' }, '2026-01-06T10:00:00.000000Z'),
      change(7, action.translationChanged, null, { user: 'petr', author: 'petr' }, '2026-01-06T10:00:00.000000Z'),
      change(8, action.translationChanged, de, { user: null, author: null }, '2026-01-06T10:00:00.000000Z'),
    ];
    const result = credits(input(changes));
    expect(result).toEqual([
      {
        project: { slug: 'demo', name: 'Demo *app*' },
        languages: [
          {
            language: { slug: 'cs', name: 'Czech' },
            contributors: [
              { name: 'Jana Nováková', changes: 2 },
              { name: 'petr', changes: 1 },
            ],
          },
          { language: { slug: 'de', name: 'German' }, contributors: [{ name: '(e-mail address hidden)', changes: 1 }] },
        ],
      },
    ]);
    expect(creditsMarkdown(result)).toBe('## Demo \\*app\\*\n\n- **Czech**: Jana Nováková, petr\n- **German**: (e-mail address hidden)\n');
  });

  it('keeps only the period’s changes: since inclusive, until exclusive, twelve months back from a date', () => {
    const changes = [
      change(1, action.translationChanged, cs, { author: 'jana' }, '2025-11-25T23:59:59.999999Z'),
      change(2, action.translationChanged, cs, { author: 'petr' }, '2025-11-26T00:00:00.000000Z'),
      change(3, action.translationChanged, de, { author: 'jana' }, '2026-11-26T00:00:00.000000Z'),
    ];
    const year = lastMonths(new Date('2026-11-26T00:00:00Z'));
    expect(year).toEqual({ since: new Date('2025-11-26T00:00:00Z'), until: new Date('2026-11-26T00:00:00Z') });
    expect(credits(input(changes, year)).flatMap((project) => project.languages.flatMap((language) => language.contributors.map((each) => each.name)))).toEqual(
      ['petr'],
    );
    expect(
      credits(input(changes, sinceSnapshot({ manifest: { started: '2026-11-26T00:00:00.000Z' } })))[0]!.languages.map((language) => language.language.slug),
    ).toEqual(['de']);
    expect(JSON.parse(creditsJson(credits(input(changes, year)), year))).toEqual({
      period: { since: '2025-11-26T00:00:00.000Z', until: '2026-11-26T00:00:00.000Z' },
      projects: [{ project: 'demo', name: 'Demo *app*', languages: [{ language: 'cs', name: 'Czech', contributors: [{ name: 'petr', changes: 1 }] }] }],
    });
  });

  it('names a contributor by a public name holding no e-mail address', () => {
    expect(publicName('api/users/jana/', users, redactEmails)).toBe('Jana Nováková');
    // No full name: the username.
    expect(publicName('api/users/petr/', users, redactEmails)).toBe('petr');
    // A full name that is an address: the username; both addresses: hidden.
    expect(publicName('api/users/lena/', users, redactEmails)).toBe('lena');
    expect(publicName('api/users/max%40example.org/', users, redactEmails)).toBe('(e-mail address hidden)');
    // A user the snapshot holds no record of: the username from the link, decoded.
    expect(publicName('api/users/o%C5%A1k%C3%A1r/', users, redactEmails)).toBe('oškár');
    expect(publicName('api/users/ann%40example.org/', users, redactEmails)).toBe('(e-mail address hidden)');
  });
});

describe('credits of a crawled snapshot', () => {
  const contentDir = useContentFolders('tmsnap-credits-', 'all');

  it('credit what the public sees: no private project, no e-mail address, the period’s work only', async () => {
    let now = new Date('2025-06-01T09:00:00Z');
    const { model, unitId: unitOf } = creditsModel(() => now);
    model.translate(unitOf(1, 'cs', 4), ['Otevřený'], 'jane@example.org');
    now = new Date('2026-03-01T09:00:00Z');
    model.translate(unitOf(1, 'cs', 2), ['Orangutan má %d banán.\n', 'Orangutan má %d banány.\n', 'Orangutan má %d banánů!\n'], 'alice');
    model.approve(unitOf(1, 'cs', 1), 'carol');
    model.translate(unitOf(3, 'cs', 2), ['Spustit'], 'bob');
    const server = await historyServer(model);
    try {
      const content = await contentDir();
      const snapshot = await openSnapshot(content, await crawlInto(server, content));
      const published = await publishedSnapshot(snapshot, { publish: [], hideAuthors: false });

      const everything = await readCredits(published, allTime, redactEmails);
      expect(
        everything.map(({ project, languages }) => [
          project.name,
          languages.map(({ language, contributors }) => [language.name, contributors.map(({ name, changes }) => `${name}:${changes}`)]),
        ]),
      ).toEqual([
        [
          'Hello',
          [
            ['Arabic', ['Bob:1']],
            ['Czech', ['Alice <Translator>:3', '(e-mail address hidden):1', 'Carol:1']],
          ],
        ],
      ]);
      const markdown = creditsMarkdown(everything);
      expect(markdown).toBe('## Hello\n\n- **Arabic**: Bob\n- **Czech**: Alice \\<Translator\\>, (e-mail address hidden), Carol\n');

      const year = lastMonths(new Date('2026-11-26T00:00:00Z'));
      const recent = await readCredits(published, year, redactEmails);
      expect(recent.flatMap(({ languages }) => languages.map(({ language, contributors }) => [language.slug, contributors.map((each) => each.name)]))).toEqual([
        ['cs', ['Alice <Translator>', 'Carol']],
      ]);

      // The snapshot itself (a keyed crawl) holds the private project too; the redaction still holds.
      const keyed = await readCredits(snapshot, allTime, redactEmails);
      expect(keyed.map(({ project }) => project.slug)).toEqual(['hello', 'secret']);
      for (const output of [markdown, creditsJson(everything, allTime), creditsMarkdown(keyed), creditsJson(keyed, allTime)]) {
        expect(findEmails(output)).toEqual([]);
        expect(output).not.toContain('example.org');
      }
    } finally {
      await server.close();
    }
  });
});
