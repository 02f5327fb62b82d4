/**
 * Issue 26, credits: `tmsnap credits` over two crawls of a server whose users include e-mail
 * addresses, one release tagged between them. Counts per person equal the change records the
 * server made for the work (or, for all time, the stored change records of the public project);
 * no e-mail address in any output; the keyed crawl's private project is never named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { ChangeRow } from '../../packages/reference-server/model.ts';
import { findEmails } from '../../site-model/privacy.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { creditsModel, crawlInto, historyServer, redate } from '../archive/crawl.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const contentDir = useContentFolders('tmsnap-cli-credits-', 'all');
let content: string;
let later: ChangeRow[];
let model: MemoryModel;

/** The work issue 26 credits: writing, uploading, suggesting, reverting, replacing, reviewing. */
const work = new Set([2, 4, 5, 7, 8, 9, 27, 36, 37]);
/** Each user's name as an anonymous visitor may see it: full name, else username, no address. */
const shown: Record<string, string> = {
  admin: 'Site Admin',
  alice: 'Alice <Translator>',
  bob: 'Bob',
  carol: 'Carol',
  'jane@example.org': '(e-mail address hidden)',
};

beforeAll(async () => {
  content = await contentDir();
  let now = new Date('2026-01-05T09:00:00Z');
  const fixture = creditsModel(() => now);
  model = fixture.model;
  const unitOf = fixture.unitId;
  model.translate(unitOf(1, 'cs', 4), ['Otevřený'], 'jane@example.org');
  const server = await historyServer(model);
  try {
    await redate(content, await crawlInto(server, content), new Date('2026-01-10T04:15:00Z'));
    expect((await tmsnap(['tag', 'v1', '--content', content])).code).toBe(0);
    now = new Date('2026-03-01T09:00:00Z');
    later = [
      ...model.translate(unitOf(1, 'cs', 2), ['Orangutan má %d banán.\n', 'Orangutan má %d banány.\n', 'Orangutan má %d banánů!\n'], 'alice'),
      ...model.approve(unitOf(1, 'cs', 1), 'carol'),
      ...model.translate(unitOf(3, 'cs', 2), ['Spustit'], 'bob'),
      ...model.translate(unitOf(1, 'ar', 4), ['مفتوح'], 'jane@example.org'),
      ...model.markForEdit(unitOf(1, 'cs', 4), 'alice'),
    ];
    await redate(content, await crawlInto(server, content), new Date('2026-03-02T04:15:00Z'));
  } finally {
    await server.close();
  }
}, 300_000);

interface CreditsJson {
  period: { since: string | null; until: string | null };
  projects: { project: string; languages: { language: string; contributors: { name: string; changes: number }[] }[] }[];
}

const creditsOf = async (...args: string[]) => {
  const result = await tmsnap(['credits', '--format', 'json', '--content', content, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as CreditsJson;
};

/** `language → name → changes`, from the command's JSON. */
const counts = (json: CreditsJson) =>
  Object.fromEntries(
    json.projects.flatMap(({ project, languages }) =>
      languages.map(({ language, contributors }) => [`${project}/${language}`, Object.fromEntries(contributors.map(({ name, changes }) => [name, changes]))]),
    ),
  );

describe('tmsnap credits', () => {
  it('counts since a release exactly the change records the work since then made, by public name', async () => {
    const json = await creditsOf('--since', 'v1');
    const expected: Record<string, Record<string, number>> = {};
    for (const row of later) {
      if (!work.has(row.action)) continue;
      const translation = model.translations().find((each) => each.id === row.translationId)!;
      const component = model.components().find((each) => each.id === translation.componentId)!;
      // Component 3 is of the private project: not credited on a public page.
      if (model.projects().find((each) => each.id === component.projectId)!.slug !== 'hello') continue;
      const key = `hello/${translation.languageCode}`;
      const name = shown[row.author ?? row.user!]!;
      expected[key] = { ...expected[key], [name]: (expected[key]?.[name] ?? 0) + 1 };
    }
    expect(counts(json)).toEqual(expected);
    expect(json.period.since).toBe('2026-01-10T04:15:00.000Z');
  });

  it('counts all time as the stored change records of the public project, per person', async () => {
    const snapshot = await openSnapshot(content);
    const expected: Record<string, Record<string, number>> = {};
    for await (const change of snapshot.changes()) {
      const who = change.author ?? change.user;
      if (!work.has(change.action) || change.translation === null || who === null || !change.translation.startsWith('api/translations/hello/')) continue;
      const name = shown[decodeURIComponent(who.split('/')[2]!)]!;
      const key = `hello/${change.translation.split('/')[4]}`;
      expected[key] = { ...expected[key], [name]: (expected[key]?.[name] ?? 0) + 1 };
    }
    expect(counts(await creditsOf())).toEqual(expected);
  });

  it('writes Markdown for release notes, the last N months, and never an e-mail address or the private project', async () => {
    const markdown = await tmsnap(['credits', '--content', content]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^## Hello\n\n- \*\*Arabic\*\*: /);
    const months = await creditsOf('--months', '1');
    expect(months.period).toEqual({ since: '2026-02-02T04:15:00.000Z', until: '2026-03-02T04:15:00.000Z' });
    const older = await creditsOf('--snapshot', 'v1');
    expect(counts(older)['hello/cs']).toMatchObject({ '(e-mail address hidden)': 1 });
    for (const output of [markdown.stdout, JSON.stringify(months), JSON.stringify(older), JSON.stringify(await creditsOf())]) {
      expect(findEmails(output)).toEqual([]);
      expect(output).not.toContain('example.org');
      expect(output).not.toContain('secret');
    }
  }, 120_000);

  it('refuses a bad --since, --format or --months in one line', async () => {
    for (const [args, code, says] of [
      [['--since', 'v9'], 2, '--since "v9" is not a release tag'],
      [['--since', '2026-13-45'], 2, 'is not a release tag'],
      [['--format', 'csv'], 2, '--format "csv": expected md or json'],
      [['--months', '0'], 2, '--months expects a whole number'],
      [['--months', '3', '--since', 'v1'], 2, 'not both'],
      [['--snapshot', 'v9'], 1, 'no finished snapshot or tag "v9"'],
    ] as const) {
      const result = await tmsnap(['credits', ...args, '--content', content]);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr.split('\n')[0], args.join(' ')).toContain(says);
    }
  }, 120_000);

  it('says in one line that there was no work since a release tagged on the newest snapshot (issue 35)', async () => {
    const newest = (await openSnapshot(content)).id;
    expect((await tmsnap(['tag', 'v2', newest, '--content', content])).code).toBe(0);
    const result = await tmsnap(['credits', '--since', 'v2', '--content', content]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `tmsnap credits: no translation work since v2 in the change log of snapshot ${newest}: no one wrote, suggested or reviewed a string`,
    ]);
  });
});
