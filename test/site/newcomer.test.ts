/**
 * What a newcomer sees on the site (issue 28): a title that names the site once, a matrix whose
 * codes have names and whose first column stays, changes that name their strings and show what
 * an approval approved, feeds that say what happened, breadcrumbs that name their section, one
 * word for untranslated, and no "never" where nothing changed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { documentTitle } from '../../src/layouts/frame.ts';
import { serverHost } from '../../src/data/settings.ts';
import { builders, languageFacts, unitCounts } from '../helpers/records.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { buildWithCli, hasChromium, launchChromium, scratch, serveStatic } from './browser.ts';

const chromium = hasChromium();

/** A demo-like server: a loopback address with a random port. */
const base = 'http://127.0.0.1:41763/';
const build = builders(base, { time: '2026-11-20T10:00:00.000000Z', author: 'Jane Translator' });
const codes = ['zh_Hans', 'ar', 'cs', 'de', 'es', 'fr', 'he', 'ja', 'pl', 'pt_BR', 'ru'] as const;
const approvedText = 'Gespeichert und freigegeben';
const longSource = `Save the file before you close the window, or every change made since the last save is lost`;

async function writeSnapshot(content: string): Promise<void> {
  const writer = await openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: 'test', resume: false });
  const language = (code: keyof typeof languageFacts) => build.language(code, languageFacts[code].name, languageFacts[code]);
  const project = build.project('app', 1, { name: 'App' });
  const component = build.component(project, 'ui', 10, language('en'), { name: 'UI' });
  await writer.putRecord(project.url, project);
  await writer.putRecord(component.url, component);
  for (const code of ['en', ...codes] as const) await writer.putRecord(build.api(`languages/${code}/`), language(code));
  let id = 100;
  for (const code of codes) {
    id += 1;
    const units =
      code === 'de'
        ? [
            { id: 2001, position: 1, state: 30, source: [longSource], target: [approvedText] },
            { id: 2002, position: 2, state: 0, source: ['Open'], target: [''] },
          ]
        : [{ id: id * 10, position: 1, state: 0, source: ['Open'], target: [''] }];
    // Polish: nothing ever changed in it.
    const record = {
      ...build.translation(component, language(code), id, unitCounts(units)),
      ...(code === 'pl' ? { last_change: null, last_author: null } : {}),
    };
    await writer.putRecord(record.url, record);
    await writer.putUnits(
      record.url,
      units.map((u) => build.unit(record.url, u.id, u.position, BigInt(u.id), { ...u, sourceUnit: u.id + 1 })),
    );
  }
  const de = build.api('translations/app/ui/de/');
  await writer.putChanges([
    build.change(1, 2, component.url, de, { unit: build.api('units/2001/'), user: build.api('users/jane/'), target: 'Gespeichert' }),
    build.change(2, 36, component.url, de, { unit: build.api('units/2001/'), user: build.api('users/jane/'), target: '' }),
  ]);
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
}

let dist: string;
const tempFolder = useTempFolders('tmsnap-newcomer-', 'all', scratch);
const page = (path: string) => readFile(join(dist, path), 'utf8');

beforeAll(async () => {
  const work = await tempFolder();
  await writeSnapshot(join(work, 'content'));
  dist = join(work, 'dist');
  await buildWithCli(['--content', join(work, 'content'), '--out', dist]);
}, 600_000);

describe('the site name', () => {
  it('leaves a loopback port out and names the site once in the home title', async () => {
    expect(serverHost('http://127.0.0.1:41763/')).toBe('127.0.0.1');
    expect(serverHost('https://hosted.weblate.org:8443/')).toBe('hosted.weblate.org:8443');
    expect(documentTitle('Translation status', 'weblate.example translation status')).toBe('weblate.example translation status');
    expect(documentTitle('Changes', 'weblate.example translation status')).toBe('Changes · weblate.example translation status');
    expect(await page('index.html')).toContain('<title>127.0.0.1 translation status</title>');
    expect(await page('changes/index.html')).toContain('<title>Changes · 127.0.0.1 translation status</title>');
  });
});

describe('the components × languages matrix', () => {
  it('orders its columns by the code it shows and names each code', async () => {
    const html = await page('projects/app/index.html');
    const matrix = html.slice(html.indexOf('<table class="matrix"'));
    const shown = [...matrix.matchAll(/<abbr title="([^"]+)">([^<]+)<\/abbr>/g)].map(([, name, code]) => [code, name]);
    expect(shown.map(([code]) => code)).toEqual([...codes].sort((a, b) => a.localeCompare(b, 'en')));
    expect(shown).toContainEqual(['zh_Hans', 'Chinese (Simplified)']);
    expect(html).toContain('id="matrix-scrolls"');
  });

  it.runIf(chromium)(
    'keeps the component column in view when the languages scroll, on a phone',
    async () => {
      const server = await serveStatic(dist);
      let browser: Browser | undefined;
      try {
        browser = await launchChromium();
        const tab = await browser.newPage({ viewport: { width: 360, height: 740 } });
        await tab.goto(`${server.url}projects/app/index.html`);
        const wrap = tab.locator('.matrix-wrap');
        const { scrollWidth, clientWidth } = await wrap.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
        expect(scrollWidth).toBeGreaterThan(clientWidth);
        const before = await tab.locator('.matrix tbody th').first().boundingBox();
        await wrap.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
        const after = await tab.locator('.matrix tbody th').first().boundingBox();
        expect(after?.x).toBe(before?.x);
      } finally {
        await browser?.close();
        await server.close();
      }
    },
    120_000,
  );
});

describe('the changes', () => {
  it('shows the approved text, and names the string by its source text', async () => {
    const html = await page('changes/index.html');
    const approval = html.slice(html.indexOf('data-change="2"'), html.indexOf('data-change="1"'));
    expect(approval).toContain(approvedText);
    const link = /<a class="unit-link"[^>]*>([^<]*)<\/a>/.exec(approval)?.[1];
    expect(link).toBe(`${longSource.slice(0, 60)}…`);
  });

  it('gives every Atom entry a summary of what happened', async () => {
    const feed = await page('changes/feed.xml');
    const summaries = [...feed.matchAll(/<summary type="text">([^<]*)<\/summary>/g)].map(([, text]) => text);
    expect(summaries).toHaveLength(2);
    for (const summary of summaries) expect(summary).toMatch(/ by jane in UI — German\. String: Save the file/);
    expect(summaries[0]).toContain(`Text: ${approvedText}`);
  });

  it('serves /changes/1/ as the first page, where the links point', async () => {
    const html = await page('changes/1/index.html');
    expect(html).toMatch(/<meta http-equiv="refresh" content="0; url=..\/index.html"/);
  });

  it('gives Languages, Changes and What changed breadcrumbs that name their section', async () => {
    const crumbs = async (path: string) => {
      const nav = /<nav class="breadcrumbs"[^>]*>(.*?)<\/nav>/s.exec(await page(path))?.[1] ?? '';
      return [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map(([, label]) => label);
    };
    expect(await crumbs('languages/index.html')).toEqual(['Languages']);
    expect(await crumbs('changes/index.html')).toEqual(['Changes']);
    expect(await crumbs('changes-between/index.html')).toEqual(['Changes', 'Snapshot diffs']);
  });
});

describe('words', () => {
  it('says untranslated in tables as in legends, and no "never" where nothing changed', async () => {
    const de = await page('projects/app/ui/de/index.html');
    expect(de).not.toMatch(/>empty</);
    expect(de).toContain('untranslated');
    const pl = await page('projects/app/ui/pl/index.html');
    expect(pl).not.toMatch(/\bnever\b/);
    expect(await page('languages/pl/index.html')).not.toMatch(/\bnever\b/);
  });

  it('gives a language page its overall figure', async () => {
    const html = await page('languages/de/index.html');
    expect(html).toMatch(/<dt>Strings<\/dt><dd>1 of 2 translated/);
  });
});
