/**
 * The rows of unit, string and list pages leave out end tags and attribute quotes HTML lets go
 * (docs/site.md): Chromium must build the same table from them. Apart from
 * output-unit-table.test.ts, which is of the unit tier (no browser there).
 */
import { describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './browser.ts';
import { html } from '../../src/utils/html.ts';
import { needTable, stringPageBody, textLanguage, unitPageBody } from '../../src/templates/unit-html.ts';
import { context, pager, stored } from './unit-rows.ts';

describe('rows without the end tags HTML lets go: the browser builds the same table', () => {
  it.runIf(hasChromium())('reads every cell of a unit page, a string page and a list where it was', async () => {
    const units = [
      stored(401, 1, { source: ['Save <b>1</b>'], target: ['Speichern & <i>'], state: 20, note: 'Keep it short' }),
      { ...stored(402, 2, { source: ['One', 'Many'], target: ['', ''], state: 0 }), has_suggestion: true },
    ];
    const unitPage = unitPageBody(units, pager, context({ sourceLabels: (forms) => (forms > 1 ? ['one', 'other'] : []) }));
    const strings = stringPageBody(html`<dl class="meta"></dl>`, [
      { name: 'ar', href: 'ar.html#unit-1', state: 10, has_failing_check: true, target: ['نص'], language: { tag: 'ar', dir: 'rtl' }, labels: () => [] },
      { name: 'de', href: 'de.html#unit-2', state: 0, target: [''], language: { tag: 'de' }, labels: () => [] },
    ]);
    const list = needTable(units, (u) => `units.html#unit-${u.id}`, context(), true).value;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent(`<!DOCTYPE html><html lang="en"><body><main>${unitPage}${strings}${list}</main></body></html>`);
      const tables = await page.evaluate(() =>
        [...document.querySelectorAll('main > .table-wrap > table, main > table')].map((table) =>
          [...table.querySelectorAll(':scope > tbody > tr')].map((row) => [row.id, ...[...row.children].map((cell) => `${cell.tagName} ${cell.textContent}`)]),
        ),
      );
      expect(tables).toEqual([
        [
          ['unit-401', 'TH 1', 'TD translated', 'TD Save <b>1</b>', 'TD Speichern & <i>', 'TD 2025-11-28 05:07', 'TD All languagesNoteKeep it short'],
          ['unit-402', 'TH 2', 'TD untranslatedhas a suggestion', 'TD oneOneotherMany', 'TD ', 'TD 2025-11-28 05:07', 'TD All languages'],
        ],
        [
          ['', 'TH ar', 'TD needs editingfailing check', 'TD نص'],
          ['', 'TH de', 'TD untranslated', 'TD '],
        ],
        [
          ['', 'TH 1', 'TD translated', 'TD Save <b>1</b>', 'TD Speichern & <i>'],
          ['', 'TH 2', 'TD untranslatedhas a suggestion', 'TD One | Many', 'TD '],
        ],
      ]);
      expect(await page.locator('dl > dt').allTextContents()).toEqual(['Note']);
      expect(await page.evaluate(() => [...document.querySelectorAll('tbody a')].map((a) => a.getAttribute('href')))).toEqual([
        '../../../strings/00/0000000000000401/index.html',
        '../../../strings/00/0000000000000402/index.html',
        'ar.html#unit-1',
        'de.html#unit-2',
        'units.html#unit-401',
        'units.html#unit-402',
      ]);
      // Unquoted lang, dir and state classes are read as quoted ones.
      const attributes = await page.evaluate(() =>
        [...document.querySelectorAll('td[lang], td[class]')].map(
          (cell) => `${cell.className}|${cell.getAttribute('lang') ?? ''}|${cell.getAttribute('dir') ?? ''}`,
        ),
      );
      expect(attributes).toEqual(['s20||', '|de|', 's0||', 's10||', '|ar|rtl', 's0||', 's20||', '|de|', 's0||']);
    } finally {
      await browser.close();
    }
  });
});
