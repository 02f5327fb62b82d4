import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  crawlWasKeyed,
  decidePublication,
  emailPlaceholder,
  findEmails,
  jsonMayHoldEmail,
  parsePublishKinds,
  publishEverything,
  projectOfPath,
  redactEmails,
  redactTranslationFile,
  redactValue,
  repositoryFields,
} from '../../site-model/privacy.ts';
import { publishedView } from '../../site-model/published-snapshot.ts';
import { chunkUnits, openSnapshot } from '../../snapshot/index.ts';
import { hasCommand } from '../helpers/outside-command.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { base, finishOptions, newWriter } from '../snapshot/helpers.ts';

const run = promisify(execFile);
const gettext = hasCommand('msgfmt', 'apt-get install -y gettext');

/** A PO file as hosted Weblate and gettext tools write them: translators in the header comment, addresses in the header. */
const po = [
  '# Polish translation of django-filter.',
  "# Copyright (C) 2013 THE PACKAGE'S COPYRIGHT HOLDER",
  '# This file is distributed under the same license as the django-filter package.',
  '# FIRST AUTHOR <EMAIL@ADDRESS>, YEAR.',
  '# Translators:',
  '# Quadric <quadmachine@wp.pl>, 2023.',
  '# Jan Kowalski <jan.kowalski@example.org>, 2019, 2020.',
  '# Anna Nowak, 2011-2014',
  '#',
  'msgid ""',
  'msgstr ""',
  '"Project-Id-Version: django_filters 0.0.1\\n"',
  '"Report-Msgid-Bugs-To: bugs@django-filter.example.com\\n"',
  '"POT-Creation-Date: 2023-02-10 11:07+0000\\n"',
  '"PO-Revision-Date: 2023-04-10 20:47+0000\\n"',
  '"Last-Translator: Quadric <quadmachine@wp.pl>\\n"',
  '"Language-Team: Polish <https://hosted.weblate.org/projects/django-filter/"',
  '"django-filter/pl/>\\n"',
  '"Language: pl\\n"',
  '"MIME-Version: 1.0\\n"',
  '"Content-Type: text/plain; charset=UTF-8\\n"',
  '"Content-Transfer-Encoding: 8bit\\n"',
  '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"',
  '',
  '#. Translators: ask jane@example.net',
  '#: conf.py:16',
  'msgid "Write to help@example.com"',
  'msgstr "Napisz do help@example.com"',
  '',
  '#: conf.py:17',
  'msgid "year"',
  'msgstr "rok"',
  '',
].join('\n');

async function msgfmtAccepts(text: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tmsnap-privacy-'));
  try {
    await writeFile(join(dir, 'pl.po'), text);
    await run('msgfmt', ['--check', '-o', join(dir, 'pl.mo'), join(dir, 'pl.po')]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('e-mail addresses', () => {
  it('finds addresses, not locale file names or placeholders', () => {
    expect(findEmails('Jane <jane.doe+l10n@mail.example.co.uk>, mailto:x@y.org')).toEqual(['jane.doe+l10n@mail.example.co.uk', 'mailto:x@y.org']);
    expect(findEmails('sr@latin.po ca@valencia.json be@latin.mo FIRST AUTHOR <EMAIL@ADDRESS> user@localhost %(user)s@%(host)s')).toEqual([]);
  });

  it('keeps the name before an address and hides a bare one', () => {
    expect(redactEmails('Last-Translator: Jane Doe <jane@example.org>\n')).toBe('Last-Translator: Jane Doe\n');
    expect(redactEmails('"Jane" (jane@example.org)')).toBe('"Jane"');
    expect(redactEmails('Report-Msgid-Bugs-To: bugs@example.org')).toBe(`Report-Msgid-Bugs-To: ${emailPlaceholder}`);
    expect(redactEmails('<jane@example.org>')).toBe(emailPlaceholder);
    expect(redactEmails('write to mailto:jane@example.org.')).toBe(`write to ${emailPlaceholder}.`);
    expect(redactEmails('http://weblate.test/api/users/jane%40example.org/')).toBe(`http://weblate.test/api/users/${emailPlaceholder}/`);
    expect(redactEmails('https://user:secret@git.example.com/repo.git')).not.toContain('@git.example.com');
    const plain = 'no address here';
    expect(redactEmails(plain)).toBe(plain);
  });

  it('redacts every string of a record, and returns the same object when nothing changed', () => {
    const clean = { a: ['x', { b: 1 }], c: null };
    expect(redactValue(clean)).toBe(clean);
    const record = { email: 'jane@example.org', nested: [{ note: 'by Jane <jane@example.org>' }], keep: 3 };
    const redacted = redactValue(record);
    expect(redacted).toEqual({ email: emailPlaceholder, nested: [{ note: 'by Jane' }], keep: 3 });
    expect(record.email).toBe('jane@example.org');
  });
});

/** Every address in a value's strings and keys (bigints as digits). */
function emailsIn(value: unknown): string[] {
  return findEmails(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));
}

describe('units the published view walks for addresses', () => {
  const contentDir = useContentFolders('tmsnap-privacy-');

  it('tells JSON that may hold an address by its bytes: @, %40, or a \\u escape that may spell one', () => {
    const held = [
      '{"note":"Ask jane@example.org"}',
      '{"web_url":"https://weblate.test/user/jane%40example.org/"}',
      '{"labels":[{"jane@example.org":1}]}',
      '{"note":"jane\\u0040example.org"}',
      '{"note":"jane%\\u00340example.org"}',
      '{"jane\\u0040example.org":1}',
    ];
    for (const text of held) {
      const value: unknown = JSON.parse(text);
      expect(redactValue(value), text).not.toBe(value);
      expect(jsonMayHoldEmail(Buffer.from(text)), text).toBe(true);
    }
    for (const text of ['{"note":"no address, 100 % sure","target":["Příliš žluťoučký kůň\\n\\"ok\\""]}', '[]'])
      expect(jsonMayHoldEmail(Buffer.from(text)), text).toBe(false);
  });

  it('publishes no address of a chunk that holds one, in a text, a URL (%40) or a key, and walks only those chunks', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 1, languages: 1, unitsPerTranslation: 200 });
    const { translationUrl, units } = instance.units[0]!;
    const chunks = chunkUnits(units);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    // One address a chunk, each where a walk of the parsed fields would meet it differently; the last chunks hold none.
    chunks[0]![3]!.note = 'Ask Jane Doe <jane.doe@example.net>';
    chunks[1]![0]!.web_url = `${base}user/joe%40example.com/`;
    chunks[2]!.at(-1)!.labels = [{ 'ann@example.org': 'reviewer' }];
    const writer = await newWriter(content);
    await writer.putRecord(`${base}api/`, instance.root);
    for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
    await writer.putUnits(translationUrl, units);
    await writer.finish(finishOptions);
    const snapshot = await openSnapshot(content);
    const path = snapshot.toPath(translationUrl);

    const stored = await snapshot.units(path);
    expect(emailsIn(stored)).toEqual(['jane.doe@example.net', 'joe%40example.com', 'ann@example.org']);
    const parts = await snapshot.screenedUnits(path, jsonMayHoldEmail);
    expect(parts.map((part) => part.units.length)).toEqual(chunks.map((chunk) => chunk.length));
    expect(parts.map((part) => part.flagged)).toEqual(chunks.map((_chunk, at) => at < 3));

    const published = await publishedView(snapshot, publishEverything()).units(path);
    expect(emailsIn(published)).toEqual([]);
    expect(published).toEqual(redactValue(stored));
    // With `--publish emails` the units are the stored ones.
    expect(emailsIn(await publishedView(snapshot, publishEverything(true)).units(path))).toHaveLength(3);
    // The view's own parts are published too, whatever the screen says.
    expect(emailsIn(await publishedView(snapshot, publishEverything()).screenedUnits(path, () => false))).toEqual([]);
    // Nor does the view hand out the stored chunks, which hold the addresses.
    expect(await snapshot.unitChunks(path)).toHaveLength(chunks.length);
    expect(await publishedView(snapshot, publishEverything()).unitChunks(path)).toBeUndefined();
    // One unit's chunk, as the changes pages read it: the stored one holds the address, the view's not.
    const at = chunks[0]!.length + 2;
    const stored1 = await snapshot.unitsAt(path, 3);
    expect(stored1?.first).toBe(0);
    expect(emailsIn(stored1)).toEqual(['jane.doe@example.net']);
    const view = publishedView(snapshot, publishEverything());
    expect(await view.unitsAt(path, 3)).toEqual({ first: 0, units: redactValue(stored.slice(0, chunks[0]!.length)) });
    expect(await view.unitsAt(path, at)).toEqual({
      first: chunks[0]!.length,
      units: redactValue(stored.slice(chunks[0]!.length, chunks[0]!.length + chunks[1]!.length)),
    });
    expect(emailsIn(await view.screenedUnitsAt(path, at, () => false))).toEqual([]);
    expect(await view.unitsAt(path, units.length)).toBeUndefined();
  });

  it('publishes no address of a change chunk that holds one, and walks only those chunks', async () => {
    const content = await contentDir();
    const instance = syntheticInstance(base, { projects: 1, languages: 1, unitsPerTranslation: 10 });
    const [component, translation] = [instance.components[0]!.url, instance.translations[0]!.url];
    const change = (id: number, overrides: Record<string, unknown>) => ({ ...instance.changes[0]!, id, url: `${base}api/changes/${id}/`, ...overrides });
    // Three chunks of changes (ids by 250s): an address in a text, one in a URL (%40), none.
    const changes = [
      ...instance.changes.map((each, at) => (at === 4 ? { ...each, target: 'Mail Jane <jane@example.org>' } : each)),
      change(300, { user: `${base}api/users/joe%40example.com/`, component, translation }),
      change(600, { component, translation }),
    ];
    const writer = await newWriter(content);
    await writer.putRecord(`${base}api/`, instance.root);
    for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await writer.putRecord(record.url, record);
    await writer.putChanges(changes);
    await writer.finish(finishOptions);
    const snapshot = await openSnapshot(content);
    const chunks = snapshot.index.changes;
    expect(chunks).toHaveLength(3);

    const stored = (await Promise.all(chunks.map((chunk) => snapshot.changesIn(chunk)))).flat();
    expect(emailsIn(stored)).toEqual(['jane@example.org', 'joe%40example.com']);
    expect(await Promise.all(chunks.map(async (chunk) => (await snapshot.screenedChangesIn(chunk, jsonMayHoldEmail)).flagged))).toEqual([true, true, false]);
    const view = publishedView(snapshot, publishEverything());
    const published = (await Promise.all(chunks.map((chunk) => view.changesIn(chunk)))).flat();
    expect(emailsIn(published)).toEqual([]);
    expect(published).toEqual(redactValue(stored));
    const all = [];
    for await (const each of view.changes()) all.push(each);
    expect(all).toEqual(published);
    expect(emailsIn((await view.screenedChangesIn(chunks[0]!, () => false)).changes)).toEqual([]);
    expect(emailsIn(await publishedView(snapshot, publishEverything(true)).changesIn(chunks[1]!))).toEqual(['joe%40example.com']);
  });
});

describe('translation files', () => {
  it.runIf(gettext)('leaves no address in a PO file, which msgfmt still accepts', async () => {
    const out = Buffer.from(redactTranslationFile(Buffer.from(po), 'pl.po', 'text/x-gettext-catalog', { emails: false, hideAuthors: false })).toString();
    expect(findEmails(out)).toEqual([]);
    expect(out).toContain('# Quadric, 2023.');
    expect(out).toContain('"Last-Translator: Quadric\\n"');
    expect(out).toContain(`"Report-Msgid-Bugs-To: ${emailPlaceholder}\\n"`);
    expect(out).toContain('# FIRST AUTHOR <EMAIL@ADDRESS>, YEAR.');
    await msgfmtAccepts(po);
    await msgfmtAccepts(out);
  });

  it.runIf(gettext)('with --hide-authors, no translator name either', async () => {
    const out = Buffer.from(redactTranslationFile(Buffer.from(po), 'pl.po', '', { emails: false, hideAuthors: true })).toString();
    for (const name of ['Quadric', 'Kowalski', 'Nowak']) expect(out).not.toContain(name);
    expect(out).toContain('"Last-Translator: \\n"');
    expect(out).toContain('# Copyright (C) 2013');
    expect(out).toContain('msgstr "rok"');
    expect(findEmails(out)).toEqual([]);
    await msgfmtAccepts(out);
  });

  it.runIf(gettext)('with --hide-authors, a Last-Translator value wrapped over lines goes whole', async () => {
    const wrapped = po.replace(
      '"Last-Translator: Quadric <quadmachine@wp.pl>\\n"',
      '"Last-Translator: Quadric Someone With A Long Name "\n"<quadmachine@wp.pl>\\n"',
    );
    await msgfmtAccepts(wrapped);
    const out = Buffer.from(redactTranslationFile(Buffer.from(wrapped), 'pl.po', '', { emails: false, hideAuthors: true })).toString();
    expect(out).not.toContain('Quadric');
    expect(out).not.toContain('quadmachine');
    await msgfmtAccepts(out);
  });

  it('keeps a file with no address byte for byte, and a binary file its length', () => {
    const clean = Buffer.from('msgid ""\nmsgstr ""\n"Language: pl\\n"\n');
    expect(redactTranslationFile(clean, 'pl.po', '', { emails: false, hideAuthors: false })).toBe(clean);
    const mo = Buffer.concat([Buffer.from([0xde, 0x12, 0x04, 0x95, 0]), Buffer.from('Last-Translator: J <j@example.org>\n')]);
    const out = Buffer.from(redactTranslationFile(mo, 'pl.mo', 'application/octet-stream', { emails: false, hideAuthors: false }));
    expect(out.length).toBe(mo.length);
    expect(findEmails(out.toString('latin1'))).toEqual([]);
  });

  it('keeps the addresses when they are opted in', () => {
    const bytes = Buffer.from(po);
    expect(redactTranslationFile(bytes, 'pl.po', '', { emails: true, hideAuthors: false })).toBe(bytes);
  });
});

describe('what a keyed crawl may publish', () => {
  const projects = [
    { path: 'api/projects/open/', record: { slug: 'open' } },
    { path: 'api/projects/secret/', record: { slug: 'secret' } },
    { path: 'api/projects/flagged/', record: { slug: 'flagged', access_control: 1 } },
  ];

  it('parses --publish', () => {
    expect(parsePublishKinds('private-projects, repository,private-projects')).toEqual(['private-projects', 'repository']);
    expect(parsePublishKinds('')).toEqual([]);
    expect(parsePublishKinds('users')).toMatch(/unknown "users".*private-projects/);
  });

  it('tells keyed crawls from anonymous ones, older snapshots by what the server refused them', () => {
    expect(crawlWasKeyed({ keyed: false })).toBe(false);
    expect(crawlWasKeyed({ keyed: true, access: [{ status: 403 }] })).toBe(true);
    expect(crawlWasKeyed({ access: [{ status: 403 }], heldMemory: true })).toBe(false);
    expect(crawlWasKeyed({ heldMemory: true })).toBe(true);
    expect(crawlWasKeyed({})).toBe(false);
  });

  it('publishes all of an anonymous crawl', () => {
    const publication = decidePublication({ keyed: false }, projects, []);
    expect(publication.hiddenProjects.size).toBe(0);
    expect(publication.hiddenComponentFields).toEqual([]);
  });

  it('publishes of a keyed crawl the projects an anonymous client is listed, or whose record says public', () => {
    expect([...decidePublication({ keyed: true, public_projects: ['api/projects/open/'] }, projects, []).hiddenProjects]).toEqual([
      'api/projects/secret/',
      'api/projects/flagged/',
    ]);
    expect([...decidePublication({ keyed: true }, projects, []).hiddenProjects]).toEqual(['api/projects/open/', 'api/projects/secret/']);
    const all = decidePublication({ keyed: true }, projects, ['private-projects', 'repository', 'all-languages']);
    expect(all.hiddenProjects.size).toBe(0);
    expect(all.hiddenComponentFields).toEqual([]);
    expect(all.onlyUsedLanguages).toBe(false);
    expect(decidePublication({ keyed: true }, projects, []).hiddenComponentFields).toEqual(repositoryFields);
  });

  it('finds the project of a snapshot path', () => {
    expect(projectOfPath('api/translations/secret/core/de/file/')).toBe('api/projects/secret/');
    expect(projectOfPath('api/components/secret/core/')).toBe('api/projects/secret/');
    expect(projectOfPath('api/projects/secret/statistics/')).toBe('api/projects/secret/');
    expect(projectOfPath('api/languages/de/')).toBeUndefined();
  });
});
