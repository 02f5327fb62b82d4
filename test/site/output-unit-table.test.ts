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
import { needTable, stringPageBody, stringSource, textLanguage, unitPageBody, type StringRow } from '../../src/templates/unit-html.ts';
import { base, context, pager, stored, translationUrl, unit } from './unit-rows.ts';

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
    expect(dated).toContain('<td>2026-11-26 01:40<td>');
    expect(dated).not.toContain('2025-11-28 05:07');
  });

  it('gives each unit a row at its permalink, with its number, state, texts, time and link', () => {
    expect([...page.matchAll(/<tr id="(unit-\d+)">/g)].map((match) => match[1])).toEqual(['unit-101', 'unit-102', 'unit-103']);
    expect(page).toContain(
      '<tr id="unit-101"><th>1<td class=s20>translated<td>Save &lt;b&gt;1&lt;/b&gt;<td lang=de>Speichern &quot;1&quot; &amp; &lt;i&gt;<td>2025-11-28 05:07<td><a href=../../../strings/00/0000000000000101/index.html>All languages</a><tr id="unit-102">',
    );
    // An untranslated string's cell is empty: its state says so.
    expect(page).toContain('<td class=s0>untranslated<td>Save &lt;b&gt;2&lt;/b&gt;<td><td>');
    expect(page).not.toContain('not translated');
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
    expect(rtl).toContain('<td lang=en dir=ltr>Save &lt;b&gt;1&lt;/b&gt;<td>Speichern');
    expect(rtl).toContain(`<th scope="col">${arabic.t('col.source')}</th>`);
  });

  it('lists what few units have in the last cell, and the editor link where the string has no page', () => {
    const rare = stored(200, 1, { context: 'menu <x>', note: 'Keep it short', location: 'src/a.c:1' });
    const row = unitPageBody([rare], pager, context({ allLanguages: () => undefined, locations: () => [{ text: 'src/a.c:1' }] }));
    expect(row).toContain(
      `<td><a href="${rare.web_url}">open in the editor</a><dl><dt>Context<dd class="text">menu &lt;x&gt;<dt>Note<dd class="text">Keep it short<dt>Location<dd><code>src/a.c:1</code></dl></tbody>`,
    );
  });

  it('spends at most 80 B of markup on a unit beyond its texts, time and links (120 B with its end tags and quotes, about 350 B as an article)', () => {
    const one = stored(123456, 42, { source: ['Open the file'], target: ['Datei öffnen'], state: 20 });
    const single = unitPageBody([one], pager, context());
    const empty = unitPageBody([], pager, context());
    expect(empty).not.toContain('<table');
    const row = /<tr id="unit-123456">.*?(?=<\/tbody>)/.exec(single)?.[0] ?? '';
    expect(row).not.toBe('');
    const content = ['Open the file', 'Datei öffnen', '2025-11-28 05:07', '../../../strings/00/0000000000123456/index.html', 'unit-123456', '42', 'translated'];
    const markup = row.length - content.reduce((sum, text) => sum + text.length, 0);
    expect(markup).toBeLessThanOrEqual(80);
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
    expect(page).toContain('<td lang=de>de &lt;text&gt;</tbody>');
  });

  it('falls back to the first language with an editor link, and shows none without one', () => {
    expect(editor(stringPageBody(html``, [row('ar', undefined), row('de', `${base}translate/a/b/de/`), row('en', undefined, true)]))).toEqual([
      `${base}translate/a/b/de/`,
    ]);
    expect(editor(stringPageBody(html``, [row('ar', undefined), row('de', undefined)]))).toEqual([]);
  });
});

describe('what a string\'s page shows once, its units leave out (docs/site.md, "One page per string")', () => {
  const shared = { context: 'menu', note: 'Keep it short', explanation: 'A verb', location: 'src/a.c:1', flags: 'c-format', extra_flags: 'max-length:20' };
  const source: StoredUnit = { ...stored(300, 1, { source: ['Open'], target: ['Open'] }), ...shared };
  const same: StoredUnit = { ...stored(301, 1, { source: ['Open'], target: ['Öffnen'] }), ...shared };
  const own: StoredUnit = {
    ...stored(302, 2, { source: ['Close'], target: ['Schließen'] }),
    ...shared,
    note: 'Translators: not the verb',
    flags: 'c-format, read-only',
  };
  const links = context({ locations: (u) => [{ text: u.location }], stringPageSource: () => source });

  it('leaves out the context, note, explanation, location and flags equal to the source unit’s, and keeps those that differ', () => {
    const page = unitPageBody([same, own], pager, links);
    const row = (id: number) => new RegExp(`<tr id="unit-${id}">.*?(?=<tr|</tbody>)`, 's').exec(page)?.[0] ?? '';
    expect(row(301)).not.toContain('<dl>');
    expect(row(302)).toContain('<dl><dt>Note<dd class="text">Translators: not the verb<dt>Flags<dd><code>c-format, read-only, max-length:20</code></dl>');
    expect(row(302)).not.toMatch(/Keep it short|A verb|src\/a\.c|>menu</);
  });

  it('keeps them all where the string has no page, and its page shows the flags', () => {
    const alone = unitPageBody([same], pager, context({ locations: (u) => [{ text: u.location }], stringPageSource: () => undefined }));
    for (const text of ['<dt>Context', 'Keep it short', 'A verb', 'src/a.c:1', 'c-format, max-length:20']) expect(alone).toContain(text);
    const sourceHtml = stringSource(source, textLanguage('en', 'ltr', 'ltr'), [], [{ text: source.location }]).value;
    expect(sourceHtml).toContain('<dt>Flags<dd><code>c-format, max-length:20</code></dl>');
    for (const text of ['Keep it short', 'A verb', 'src/a.c:1', '>menu<']) expect(sourceHtml).toContain(text);
  });
});
