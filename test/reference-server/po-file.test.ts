import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { page, translation } from '../../api/index.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { fixtureModel, startTestServer, useReferenceServer } from '../helpers/reference-server.ts';
import { type Answer, get as anonymousGet } from './get.ts';
import { hasCommand } from '../helpers/outside-command.ts';

// A 5.4 server read with a token, so the private project's files are checked too.
const TOKEN = 'wlu_files';
const gettext = hasCommand('msgfmt', 'apt-get install -y gettext');
const server = useReferenceServer({ behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } });

function get(url: string, init: RequestInit = {}): Promise<Answer> {
  return anonymousGet(url, { ...init, headers: { Authorization: `Token ${TOKEN}`, ...init.headers } });
}

/** gettext's own verdict on a PO file: `msgfmt --check --statistics` (exit status, its report). */
function msgfmt(po: string): { status: number | null; report: string } {
  const run = spawnSync('msgfmt', ['--check', '--statistics', '-o', '/dev/null', '-'], { input: po, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, report: run.stderr };
}

describe('translation file/', () => {
  // Glossaries come as TBX on 5.4 (profile-5.4.test.ts); every other file is gettext's.
  it.runIf(gettext)(
    'serves every translation of a gettext component as a PO file gettext accepts, with the API counts (the source as a template)',
    async () => {
      const list = page(translation).parse((await get(`${server().url}translations/`)).json).results;
      expect(list).toHaveLength(7);
      const gettext = list.filter((entry) => !entry.component.is_glossary);
      expect(gettext).toHaveLength(5);
      for (const entry of gettext) {
        const answer = await get(entry.file_url);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe('text/x-gettext-catalog');
        const { status, report } = msgfmt(answer.text);
        expect(status, `${entry.url}\n${report}\n${answer.text}`).toBe(0);
        const count = (pattern: RegExp) => Number(pattern.exec(report)?.[1] ?? 0);
        // A template's msgstr are all empty, whatever the source language's statistics say.
        const want = entry.is_source ? [0, 0, entry.total] : [entry.translated, entry.fuzzy, entry.total - entry.translated - entry.fuzzy];
        expect([count(/(\d+) translated message/), count(/(\d+) fuzzy translation/), count(/(\d+) untranslated message/)], entry.url).toEqual(want);
      }
    },
  );

  it('writes the header, contexts, plurals, comments and fuzzy flags', async () => {
    const po = (await get(`${server().url}translations/hello/po/cs/file/`)).text;
    expect(po).toContain('"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"');
    expect(po).toContain('"Language: cs\\n"');
    expect(po).toContain(
      [
        '#. The number of bananas.',
        '#. Keep %d.',
        '#: src/hello.c:20',
        '#, fuzzy, c-format',
        'msgid "Orangutan has %d banana.\\n"',
        'msgid_plural "Orangutan has %d bananas.\\n"',
        'msgstr[0] "Orangutan má %d banán.\\n"',
        'msgstr[1] "Orangutan má %d banány.\\n"',
        'msgstr[2] "Orangutan má %d banánů.\\n"',
      ].join('\n'),
    );
    expect(po).toContain('msgctxt "verb"\nmsgid "Open"\nmsgstr "Otevřít"');
    expect(po).toContain('msgctxt "adjective"\nmsgid "Open"\nmsgstr ""');
    const arabic = (await get(`${server().url}translations/hello/po/ar/file/`)).text;
    expect(arabic).toContain('"Plural-Forms: nplurals=6; ');
    expect(arabic).toContain('msgstr[5] ""');
  });

  it('answers 304 to If-Modified-Since until the translation changes', async () => {
    const model = fixtureModel(() => new Date(Date.UTC(2025, 0, 1)));
    const own = await startTestServer({ data: model });
    try {
      const url = `${own.url}translations/hello/po/cs/file/`;
      const first = await get(url);
      const modified = first.headers.get('last-modified')!;
      expect(modified).toBe('Wed, 01 May 2024 12:30:00 GMT');
      const unchanged = await get(url, { headers: { 'If-Modified-Since': modified } });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
      expect((await get(url, { headers: { 'If-Modified-Since': 'Wed, 01 May 2024 12:29:59 GMT' } })).status).toBe(200);
      model.translate(10, ['Otevřený'], 'bob');
      const changed = await get(url, { headers: { 'If-Modified-Since': modified } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('last-modified')).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
      expect(changed.text).toContain('msgctxt "adjective"\nmsgid "Open"\nmsgstr "Otevřený"');
    } finally {
      await own.close();
    }
  });

  it('refuses a conversion it cannot make, naming the parameter', async () => {
    const answer = await get(`${server().url}translations/hello/po/cs/file/?format=xliff`);
    expect(answer.status).toBe(400);
    expect((answer.json as { detail: string }).detail).toMatch(/^format: /);
  });
});
