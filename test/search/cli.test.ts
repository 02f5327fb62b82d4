import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatTable } from '../../cli/search.ts';
import { writeSearchFixture } from './fixture.ts';
import { openSnapshot, type StoredUnit } from '../../snapshot/index.ts';
import { useContentFolders } from '../helpers/temp.ts';

const bin = fileURLToPath(new URL('../../bin/tmsnap.js', import.meta.url));
const contentFolder = useContentFolders('tmsnap-search-cli-', 'all');
let content: string;

beforeAll(async () => {
  content = await contentFolder();
  await writeSearchFixture(content);
});

function tmsnap(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'search', '--content', content, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

async function json(...args: string[]) {
  const result = await tmsnap(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    total: number;
    results: { language: string; component: string; project: string; state_name: string; source: string[]; target: string[]; web_url: string }[];
  };
}

describe('tmsnap search', () => {
  test('finds a Polish translation by its English source, exact text first, with the live link', async () => {
    const { total, results } = await json('save as', '--lang', 'pl');
    expect(results.slice(0, 2).map((result) => `${result.project}/${result.component}: ${result.target[0]}`)).toEqual([
      'office/editor: Zapisz jako…',
      'web/site: Zapisz jako…',
    ]);
    expect(results[2]!.target).toEqual(['Zapisz wszystkie pliki jako nowy szablon']);
    expect(total).toBe(3);
    expect(results[0]!.web_url).toMatch(/^http:\/\/weblate\.test\/translate\/x\/\?checksum=[0-9a-f]{16}$/);
  });

  test('folds accents in both directions and searches every script', async () => {
    expect((await json('otworz', '--in', 'target')).results.map((result) => result.target[0])).toEqual(['Otwórz plik']);
    expect((await json('Café', '--lang', 'ru')).results.map((result) => result.target[0])).toEqual(['Меню кафе']);
    expect((await json('файлов')).results.map((result) => result.target)).toEqual([['%d файл', '%d файла', '%d файлов']]);
    expect((await json('ملف', '--in', 'target')).results.map((result) => result.target[0]).sort()).toEqual(['فتح ملف', 'لا ملفات'].sort());
    expect((await json('保存', '--lang', 'ja')).results.map((result) => result.target[0])).toEqual([
      '保存',
      '名前を付けて保存…',
      '名前を付けて保存…',
      'すべてのファイルを新しいテンプレートとして保存',
    ]);
  });

  test('filters by project, component and state', async () => {
    expect((await json('save', '--lang', 'de', '--project', 'web')).results.map((result) => result.target[0])).toEqual(['Speichern unter…']);
    expect((await json('save', '--lang', 'de', '--component', 'office/dialogs')).results.map((result) => result.target[0])).toEqual(['Speichern']);
    expect((await json('menu', '--state', 'needs-editing')).results.map((result) => `${result.language} ${result.state_name}`)).toEqual(['pl needs editing']);
    expect((await json('sure', '--state', '0')).results.map((result) => result.language)).toEqual(['pl']);
  });

  test('without a text, lists the strings of a state, a flag or a component, as many as the snapshot holds', async () => {
    // The oracle: the snapshot's own units, the source language's translations left out as search leaves them out.
    const snapshot = await openSnapshot(content);
    const units: { language: string; component: string; unit: StoredUnit }[] = [];
    for (const { path, record } of await snapshot.translations())
      if (!record.is_source)
        for (const unit of await snapshot.units(path)) units.push({ language: record.language_code, component: path.split('/').slice(-3, -2)[0]!, unit });
    const count = (test: (entry: (typeof units)[number]) => boolean) => units.filter(test).length;

    const needsEditing = await json('--lang', 'pl', '--state', 'needs-editing');
    expect(needsEditing.total).toBe(count(({ language, unit }) => language === 'pl' && unit.state === 10));
    expect(needsEditing.total).toBeGreaterThan(0);
    expect(new Set(needsEditing.results.map((result) => `${result.language} ${result.state_name}`))).toEqual(new Set(['pl needs editing']));
    const suggestions = await json('--has', 'suggestion');
    expect(suggestions.total).toBe(count(({ unit }) => unit.has_suggestion === true));
    expect(suggestions.total).toBeGreaterThan(1);
    const checks = await json('--has', 'check', '--lang', 'de');
    expect(checks.total).toBe(count(({ language, unit }) => language === 'de' && unit.has_failing_check === true));
    expect(checks.total).toBeGreaterThan(0);
    const component = await json('--component', 'office/dialogs', '--lang', 'ja', '--limit', '0');
    expect(component.total).toBe(count(({ language, component }) => language === 'ja' && component === 'dialogs'));
    expect(component.total).toBeGreaterThan(0);
    expect(new Set(component.results.map((result) => result.component))).toEqual(new Set(['dialogs']));
    // A text narrows a listing.
    expect((await json('save', '--has', 'suggestion')).total).toBeLessThan(suggestions.total);
  });

  test('takes a state in the site’s words or Weblate’s and shows it in the site’s (issue 35)', async () => {
    // The site says "untranslated" where Weblate's search says `empty`: both name state 0.
    const untranslated = await json('--state', 'untranslated', '--limit', '0');
    expect(untranslated.total).toBeGreaterThan(0);
    expect(untranslated).toEqual(await json('--state', 'empty', '--limit', '0'));
    expect(untranslated).toEqual(await json('--state', '0', '--limit', '0'));
    expect(new Set(untranslated.results.map((result) => result.state_name))).toEqual(new Set(['untranslated']));
    expect(await json('--state', 'needs editing', '--lang', 'pl')).toEqual(await json('--state', 'needs-editing', '--lang', 'pl'));
    const table = await tmsnap('--state', 'Untranslated', '--lang', 'pl');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[1]).toMatch(/^pl +\S+ +untranslated +/);
    const typo = await tmsnap('--state', 'untranslatd');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'no state "untranslatd" in this snapshot (known: empty, untranslated, needs-editing, needs-rewriting, needs-checking, translated, approved, read-only)',
    );
  });

  test('prints a table with a count, and says when --limit cut it', async () => {
    const { code, stdout } = await tmsnap('window', '--limit', '2');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^LANG +COMPONENT +STATE +SOURCE +TARGET$/);
    expect(lines).toHaveLength(4);
    // Five languages of "Close window" (English is its source), and the German hostile target naming `window`.
    expect(lines[3]).toBe('2 of 6 results (--limit 0 shows all)');
  });

  test('bad input exits 2 and says what to do', async () => {
    const unknown = await tmsnap('save', '--lang', 'xx');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no language "xx" in this snapshot (known: ar, de, en, ja, pl, ru)');
    const empty = await tmsnap('…');
    expect(empty.code).toBe(0);
    expect(empty.stdout.trim()).toBe('0 results');
    const missing = await tmsnap();
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('give the text to search for');
    // A language alone lists nothing: it says what to give.
    const languageOnly = await tmsnap('--lang', 'pl');
    expect(languageOnly.code).toBe(2);
    expect(languageOnly.stderr).toContain('--lang pl --state needs-editing');
    const flag = await tmsnap('--has', 'typo');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('no flag "typo" in this snapshot (known: check, suggestion)');
    const scope = await tmsnap('save', '--in', 'notes');
    expect(scope.stderr).toContain('--in "notes" is not one of both, source, target');
  });

  test('a table never passes terminal control sequences through', () => {
    const table = formatTable(
      [{ language: 'de', project: 'p', component: 'c', state: 20, state_name: 'translated', source: ['a\u001b[2Jb'], target: ['x\ny'], web_url: '' }],
      1,
    );
    expect(table).not.toContain('\u001b');
    expect(table).toContain('a\\u{1b}[2Jb');
    expect(table).toContain('x↵y');
  });
});
