import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { crawlComplete } from '../helpers/crawl.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { useContentFolders } from '../helpers/temp.ts';

const repo = resolve(import.meta.dirname, '../..');
const contentFolder = useContentFolders('tmsnap-search-bundled-', 'all');
let content: string;

interface Hit {
  language: string;
  project: string;
  component: string;
  state: number;
  source: string[];
  target: string[];
}

async function search(...args: string[]): Promise<{ total: number; results: Hit[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repo, 'bin/tmsnap.js'), 'search', ...args, '--content', content, '--json', '--limit', '0'],
    {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout);
}

// The real catalogs, crawled over HTTP as a user would: what `tmsnap search` promises on them.
beforeAll(async () => {
  content = await contentFolder();
  // A token at raised limits: the django project takes more than the 100 requests a day an
  // anonymous client of a 5.4 server has.
  const server = await startTestServer({ data: 'bundled', behaviours: { tokens: ['wlu_search'], rateLimit: raisedRateLimit } });
  try {
    await crawlComplete(server, content, { projects: ['django'], token: 'wlu_search' });
  } finally {
    await server.close();
  }
}, 600_000);

describe('tmsnap search on a crawl of the bundled Django catalogs', () => {
  test('finds a source string in every language it is translated to, and only there', async () => {
    const { results } = await search('Save as new', '--in', 'source');
    const languages = results.filter((hit) => hit.source[0] === 'Save as new').map((hit) => hit.language);
    expect(languages).toEqual(expect.arrayContaining(['ar', 'cs', 'de', 'ja', 'pl', 'ru']));
    expect(results.every((hit) => hit.project === 'django')).toBe(true);
  });

  test('Czech target found without its diacritics', async () => {
    const { results } = await search('Ulozit jako novou', '--lang', 'cs');
    expect(results[0]?.target[0]).toBe('Uložit jako novou položku');
    expect(results[0]?.source[0]).toBe('Save as new');
  });

  test('Arabic, Cyrillic and Japanese targets', async () => {
    expect((await search('احفظ كجديد', '--lang', 'ar')).results[0]?.source[0]).toBe('Save as new');
    expect((await search('Сохранить', '--lang', 'ru')).results.map((hit) => hit.source[0])).toContain('Save');
    expect((await search('新規保存', '--lang', 'ja')).results[0]?.source[0]).toBe('Save as new');
  });

  test('filters narrow: language and state', async () => {
    const all = await search('save');
    const polish = await search('save', '--lang', 'pl');
    expect(polish.total).toBeGreaterThan(0);
    expect(polish.total).toBeLessThan(all.total);
    expect(polish.results.every((hit) => hit.language === 'pl')).toBe(true);
    const approved = await search('save', '--state', 'approved');
    expect(approved.total).toBeGreaterThan(0);
    expect(approved.total).toBeLessThan(all.total);
    expect(approved.results.every((hit) => hit.state === 30)).toBe(true);
  });
});
