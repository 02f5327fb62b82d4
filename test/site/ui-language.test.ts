/**
 * `--ui-lang` in a real browser (docs/site.md, "Interface languages"): the fixture built in
 * German and in Arabic shows the chrome in that language, Arabic right to left, while the
 * server's strings keep their own `lang` and `dir`. Screenshots go to test/artifacts/.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser.ts';
import { useFixtureSites } from './fixture-sites.ts';

const sites = useFixtureSites('tmsnap-ui-lang-', ['de', 'ar']);
const { urls } = sites;

describe.runIf(sites.chromium)('the interface language', () => {
  it('shows the German chrome, German numbers and the German words of the search script', async () => {
    const page = await sites.browser.newPage();
    await page.goto(`${urls.de}projects/demo/core/de/index.html`);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    expect(await page.locator('header.site nav').innerText()).toMatch(/Projekte\s+Sprachen\s+Änderungen/);
    expect(await page.locator('#strings').innerText()).toBe('Texte, in Dateireihenfolge');
    expect(await page.locator('[data-figure=translated]').innerText()).toMatch(/^\d+ von \d+ Texten \(\d+(,\d)?\u00a0%\)/);
    expect(await page.locator('footer.site').innerText()).toContain('Mit tmsnap allein aus den archivierten Daten erstellt.');
    expect(await page.locator('#unit-pages tfoot th').innerText()).toBe('Alle Seiten');
    await screenshot(page, 'site-ui-de');
    await page.goto(`${urls.de}search/index.html?q=file`);
    await expect.poll(() => page.locator('#search-status').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    // Results are grouped by source string (docs/search.md, "The page"): strings, then translations.
    expect(await page.locator('#search-status').innerText()).toMatch(/^\d+ Zeichenketten?, \d+ Übersetzungen?$/);
    expect(await page.locator('select[name=lang] option').first().innerText()).toBe('Alle Sprachen');
    await page.close();
  });

  it('mirrors the Arabic chrome right to left and keeps the server’s strings in their own direction', async () => {
    const page = await sites.browser.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.goto(`${urls.ar}projects/demo/core/ar/units/1/index.html`);
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('header.site nav').innerText()).toMatch(/المشاريع\s+اللغات\s+التغييرات/);
    expect(await page.locator('table.units thead').innerText()).toMatch(/المصدر\s+الترجمة\s+(آخر تغيير|أُضيف)/);
    // The source (English) stays left to right inside the right-to-left page.
    expect(await page.locator('tr[id^="unit-"] td[lang=en]').first().getAttribute('dir')).toBe('ltr');
    // The header's first item (the site's name) sits at the right edge, as RTL mirrors it.
    const brand = await page.locator('header.site .brand').boundingBox();
    expect(brand!.x + brand!.width).toBeGreaterThan(1100 / 2);
    await page.goto(`${urls.ar}index.html`);
    expect(await page.locator('h1').innerText()).toBe('حالة الترجمة');
    await screenshot(page, 'site-ui-ar');
    await page.close();
  });
});
