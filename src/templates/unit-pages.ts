/**
 * The unit pages (100 units each) and the string pages (one source string in every language) of
 * the site, framed (src/layouts/frame.ts), as files for the bulk writers (site/bulk-pages.ts) to
 * write: their bodies are string templates (./unit-html.ts), not Astro pages, because they grow
 * with the instance (docs/site.md, "Pages written outside Astro").
 */
import type { StoredUnit } from '../../snapshot/index.ts';
import { relativeHref, sitePaths, stringChecksum, unitsPerPage, type SitePath } from '../../site-model/paths.ts';
import { liveUrl } from '../data/server-links.ts';
import type { ComponentEntry, SiteTree, TranslationEntry } from '../data/tree.ts';
import { unitSuggestions } from '../data/news.ts';
import { translationHistory } from '../data/unit-history.ts';
import type { ComponentString } from '../data/units.ts';
import { ui } from '../i18n/page.ts';
import { framedPage, type FrameContext } from '../layouts/frame.ts';
import { componentTrail } from '../layouts/trail.ts';
import { excerpt } from '../utils/format.ts';
import { languageTag } from '../utils/language-tag.ts';
import { pluralLabels } from '../utils/plural-labels.ts';
import { locationLinks } from '../utils/repoweb.ts';
import { stringPageBody, stringSource, textLanguage, unitPageBody, type StringRow, type UnitContext } from './unit-html.ts';

/** The unit pages of one translation (100 units each, site-model/paths.ts), framed, as files to write. */
export async function* unitPages(
  tree: SiteTree,
  frame: FrameContext,
  translation: TranslationEntry,
  list: readonly StoredUnit[],
  hasPage: (checksum: string) => boolean,
  stringPageSource: (unit: StoredUnit) => StoredUnit | undefined,
): AsyncGenerator<[SitePath, string]> {
  const { component, language } = translation;
  const histories = await translationHistory(translation);
  // Joined by unit id: only the suggestions of this published translation's units show.
  const suggestions = await unitSuggestions();
  const sourceLanguage = tree.languageByCode.get(component.sourceLanguage);
  const pageUi = ui();
  const pages = translation.unitPages;
  for (let page = 1; page <= pages; page += 1) {
    const path = sitePaths.units(translation.key, page);
    const link = (to: SitePath) => relativeHref(path, to);
    const context: UnitContext = {
      source: textLanguage(languageTag(component.sourceLanguage), sourceLanguage?.direction ?? 'ltr', pageUi.dir),
      target: textLanguage(languageTag(language.code), language.direction, pageUi.dir),
      sourceLabels: (forms) => pluralLabels(sourceLanguage?.record?.plural, forms, pageUi),
      targetLabels: (forms) => pluralLabels(language.record?.plural, forms, pageUi),
      locations: (unit) => locationLinks(unit.location, component.record.repoweb, component.record.branch),
      stringPageSource,
      allLanguages: (unit) => {
        const checksum = stringChecksum(unit.id_hash);
        return hasPage(checksum) ? link(sitePaths.sourceString(translation.key.project, translation.key.component, checksum)) : undefined;
      },
      live: (unit) => liveUrl(unit.web_url, tree.snapshot),
      history: (unit) => histories.get(unit.id),
      suggestions: (unit) => suggestions.get(unit.id),
      ui: pageUi,
    };
    // Units beyond what `total` promised stay on the last page (site-model/paths.ts, `unitPageOf`).
    const onPage = list.slice((page - 1) * unitsPerPage, page === pages ? undefined : page * unitsPerPage);
    const title = pageUi.t('units.title', {
      name: `${component.record.name} — ${language.name}`,
      from: String(onPage[0]?.position ?? ''),
      to: String(onPage.at(-1)?.position ?? ''),
    });
    const pager = {
      page,
      pages,
      previous: page > 1 ? link(sitePaths.units(translation.key, page - 1)) : undefined,
      next: page < pages ? link(sitePaths.units(translation.key, page + 1)) : undefined,
    };
    const breadcrumbs = [...componentTrail(component), { label: language.name, path: sitePaths.translation(translation.key) }];
    yield [path, framedPage({ path, title, breadcrumbs, lean: true }, frame, unitPageBody(onPage, pager, context))];
  }
}

/** The page of one source string of a component, in every language it is translated to. */
export function stringPage(tree: SiteTree, frame: FrameContext, component: ComponentEntry, checksum: string, found: ComponentString): [SitePath, string] {
  const path = sitePaths.sourceString(component.project.slug, component.slug, checksum);
  const sourceLanguage = tree.languageByCode.get(component.sourceLanguage);
  const pageUi = ui();
  const rows: StringRow[] = found.translations.map((entry) => ({
    name: entry.translation.language.name,
    href: relativeHref(path, sitePaths.units(entry.translation.key, entry.page), `unit-${entry.id}`),
    state: entry.state,
    has_failing_check: entry.has_failing_check,
    has_suggestion: entry.has_suggestion,
    target: entry.target,
    language: textLanguage(languageTag(entry.translation.language.code), entry.translation.language.direction, pageUi.dir),
    labels: (forms: number) => pluralLabels(entry.translation.language.record?.plural, forms, pageUi),
    live: liveUrl(entry.webUrl, tree.snapshot),
    source: entry.translation.language.code === component.sourceLanguage,
  }));
  const { source } = found;
  // The title is repeated in <title>, Open Graph and <h1>, and serves as the description: one
  // page per string, so every byte here is paid once per string (docs/site.md, "One page per string").
  const title = pageUi.t('string.title', { text: excerpt(source.source.join(' | '), 40) });
  const sourceHtml = stringSource(
    source,
    textLanguage(languageTag(component.sourceLanguage), sourceLanguage?.direction ?? 'ltr', pageUi.dir),
    pluralLabels(sourceLanguage?.record?.plural, source.source.length, pageUi),
    locationLinks(source.location, component.record.repoweb, component.record.branch),
    pageUi,
  );
  return [
    path,
    framedPage({ path, title, description: title, breadcrumbs: componentTrail(component), lean: true }, frame, stringPageBody(sourceHtml, rows, pageUi)),
  ];
}
