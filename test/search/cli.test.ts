import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatTable } from '../../cli/search.ts';
import { writeSearchFixture } from './fixture.ts';
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
