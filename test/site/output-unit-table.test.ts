/**
 * The markup of the pages that grow with the strings (issue 14, docs/site.md "One page per
 * string"): a unit page is one table whose head says the labels once, each unit a row at its
 * permalink `#unit-<id>`; a string page has one editor link, the source language's. Rendered by
 * src/templates/unit-html.ts directly; the built pages are held to the same in source-string-page.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { StoredUnit } from '../../snapshot/index.ts';
import { pageUi } from '../../src/i18n/page.ts';
import { html } from '../../src/utils/html.ts';
import { stringPageBody, textLanguage, unitPageBody, type StringRow, type UnitContext } from '../../src/templates/unit-html.ts';
import { builders } from '../helpers/records.ts';

const base = 'https://weblate.example.org/';
const { unit } = builders(base);
const translationUrl = `${base}api/translations/app/ui/de/`;
const pager = { page: 1, pages: 1, previous: undefined, next: undefined };

function stored(id: number, position: number, text: Parameters<typeof unit>[4] = {}): StoredUnit {
  return { ...unit(translationUrl, id, position, BigInt(id) * 1_000_003n, text), timestamp: '2025-11-28T05:07:50.324Z' } as StoredUnit;
}

function context(overrides: Partial<UnitContext> = {}): UnitContext {
  return {
    source: textLanguage('en', 'ltr', 'ltr'),
    target: textLanguage('de', 'ltr', 'ltr'),
    sourceLabels: () => [],
    targetLabels: () => [],
    locations: () => [],
    allLanguages: (u) => `../../../strings/00/${String(u.id).padStart(16, '0')}/index.html`,
    live: (u) => u.web_url,
    ...overrides,
  };
}

describe('a unit page: one table, the labels in its head (issue 14)', () => {
  const units = [1, 2, 3].map((n) =>
    stored(100 + n, n, { source: [`Save <b>${n}</b>`], target: [n === 2 ? '' : `Speichern "${n}" & <i>`], state: n === 2 ? 0 : 20 }),
  );
  const page = unitPageBody(units, pager, context());

  it('says Source, Translation and Added once, and UTC once, whatever the number of units', () => {
    for (const label of ['Source', 'Translation', 'Added']) expect(page.split(`>${label}<`)).toHaveLength(2);
    expect(page.split('Times are in UTC.')).toHaveLength(2);
    expect(page).not.toContain('<dt>');
    expect(page.match(/<thead>/g)).toHaveLength(1);
  });

  it('shows a unit’s last change where the server sends it (last_updated), and labels timestamp as when it was added', () => {
    expect(page).not.toContain('Last changed');
    const changed = units.map((u) => ({ ...u, last_updated: '2026-11-26T01:40:12.5Z' }));
    const dated = unitPageBody(changed, pager, context());
    expect(dated.split('>Last changed<')).toHaveLength(2);
    expect(dated).not.toContain('>Added<');
    expect(dated).toContain('<td>2026-11-26 01:40</td>');
    expect(dated).not.toContain('2025-11-28 05:07');
  });

  it('gives each unit a row at its permalink, with its number, state, texts, time and link', () => {
    expect([...page.matchAll(/<tr id="(unit-\d+)">/g)].map((match) => match[1])).toEqual(['unit-101', 'unit-102', 'unit-103']);
    expect(page).toContain(
      '<tr id="unit-101"><th>1</th><td class="s20">translated</td><td>Save &lt;b&gt;1&lt;/b&gt;</td><td lang="de">Speichern &quot;1&quot; &amp; &lt;i&gt;</td><td>2025-11-28 05:07</td><td><a href="../../../strings/00/0000000000000101/index.html">All languages</a></td></tr>',
    );
    expect(page).toContain('<td class="muted">not translated</td>');
    // The time is text to the minute: no <time datetime>, no seconds, no zone (the page says UTC).
    expect(page).not.toMatch(/<time|05:07:50| UTC</);
  });

  it('keeps lang and dir only where they differ from the page, on an Arabic page too', () => {
    const arabic = pageUi('ar');
    const rtl = unitPageBody(
      units.slice(0, 1),
      pager,
      context({ ui: arabic, source: textLanguage('en', 'ltr', 'rtl'), target: textLanguage('ar', 'rtl', 'rtl') }),
    );
    expect(rtl).toContain('<td lang="en" dir="ltr">Save &lt;b&gt;1&lt;/b&gt;</td><td>Speichern');
    expect(rtl).toContain(`<th scope="col">${arabic.t('col.source')}</th>`);
  });

  it('lists what few units have in the last cell, and the editor link where the string has no page', () => {
    const rare = stored(200, 1, { context: 'menu <x>', note: 'Keep it short', location: 'src/a.c:1' });
    const row = unitPageBody([rare], pager, context({ allLanguages: () => undefined, locations: () => [{ text: 'src/a.c:1' }] }));
    expect(row).toContain(
      `<td><a href="${rare.web_url}">open in the editor</a><dl><dt>Context</dt><dd class="text">menu &lt;x&gt;</dd><dt>Note</dt><dd class="text">Keep it short</dd><dt>Location</dt><dd><code>src/a.c:1</code></dd></dl></td></tr>`,
    );
  });

  it('spends at most 120 B of markup on a unit beyond its texts, time and links (was about 350 B as an article)', () => {
    const one = stored(123456, 42, { source: ['Open the file'], target: ['Datei öffnen'], state: 20 });
    const single = unitPageBody([one], pager, context());
    const empty = unitPageBody([], pager, context());
    expect(empty).not.toContain('<table');
    const row = /<tr id="unit-123456">.*?<\/tr>/.exec(single)?.[0] ?? '';
    expect(row).not.toBe('');
    const content = ['Open the file', 'Datei öffnen', '2025-11-28 05:07', '../../../strings/00/0000000000123456/index.html', 'unit-123456', '42', 'translated'];
    const markup = row.length - content.reduce((sum, text) => sum + text.length, 0);
    expect(markup).toBeLessThanOrEqual(120);
  });
});

describe('a string page: one editor link (issue 14)', () => {
  const row = (name: string, live: string | undefined, source = false): StringRow => ({
    name,
    href: `../../../${name}/units/1/index.html#unit-1`,
    state: 20,
    target: [`${name} <text>`],
    language: { tag: name },
    labels: () => [],
    live,
    source,
  });
  const editor = (page: string) => [...page.matchAll(/<a href="(https:[^"]*)">open in the editor<\/a>/g)].map((match) => match[1]);

  it("links the source language's editor once, wherever its row is", () => {
    const page = stringPageBody(html`<dl class="meta"></dl>`, [
      row('ar', `${base}translate/a/b/ar/`),
      row('en', `${base}translate/a/b/en/`, true),
      row('de', `${base}translate/a/b/de/`),
    ]);
    expect(editor(page)).toEqual([`${base}translate/a/b/en/`]);
    expect(page).not.toMatch(/Editor<\/th>|>edit</);
    expect(page.match(/<tr><th><a href/g)).toHaveLength(3);
    expect(page).toContain('<td lang="de">de &lt;text&gt;</td>');
  });

  it('falls back to the first language with an editor link, and shows none without one', () => {
    expect(editor(stringPageBody(html``, [row('ar', undefined), row('de', `${base}translate/a/b/de/`), row('en', undefined, true)]))).toEqual([
      `${base}translate/a/b/de/`,
    ]);
    expect(editor(stringPageBody(html``, [row('ar', undefined), row('de', undefined)]))).toEqual([]);
  });
});
