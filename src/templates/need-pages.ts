/**
 * The lists behind "where help is needed" (issue 26): for each translation, a static page per
 * thing its strings need (untranslated, needs editing, failing checks, with suggestions,
 * waiting for review), 500 strings to a page, each string's number linking to it on its unit
 * page. Static files, so the counts on the language and translation pages link to them from
 * `file://` and under any base path; written by the bulk writer (site/bulk-pages.ts) from the
 * units it has read for the unit pages, so they cost no second read.
 */
import type { StoredStatistics, StoredUnit } from '../../snapshot/index.ts';
import { relativeHref, sitePaths, stringsPerNeedPage, unitPageOf, type SitePath } from '../../site-model/paths.ts';
import { needs, translationNeedCounts, unitsByNeed, reviewsTranslations, type Need, type NeedCounts } from '../data/help-needed.ts';
import type { SiteTree, TranslationEntry } from '../data/tree.ts';
import { framedPage, type FrameContext } from '../layouts/frame.ts';
import { componentTrail } from '../layouts/trail.ts';
import { languageTag } from '../utils/language-tag.ts';
import { html } from '../utils/html.ts';
import { needTable, textLanguage, type TextContext } from './unit-html.ts';

/**
 * The needs of a translation that get a list: those some unit has, and those the server counts
 * (a list then says none are left), so a count on a page never links to a missing file.
 */
export function listedNeeds(translation: TranslationEntry, units: readonly StoredUnit[], statistics: StoredStatistics | undefined): NeedLists {
  const found = unitsByNeed(units, reviewsTranslations(translation));
  const counts = translationNeedCounts(translation, statistics);
  const lists = new Map(
    needs.flatMap((need): Array<[Need, StoredUnit[]]> => (found.has(need) || (counts[need] ?? 0) > 0 ? [[need, found.get(need) ?? []]] : [])),
  );
  return { counts, lists };
}

/** A translation's counts as the server gives them (`needCounts`), and the lists written for it. */
export interface NeedLists {
  counts: NeedCounts;
  lists: ReadonlyMap<Need, readonly StoredUnit[]>;
}

/** The list pages of one translation, framed, as files to write; `list` is its units in position order. */
export function needPages(
  tree: SiteTree,
  frame: FrameContext,
  translation: TranslationEntry,
  list: readonly StoredUnit[],
  { lists }: NeedLists,
): Array<[SitePath, string]> {
  const { component, language, key } = translation;
  const pageUi = frame.ui;
  const { t } = pageUi;
  const sourceLanguage = tree.languageByCode.get(component.sourceLanguage);
  const context: TextContext = {
    source: textLanguage(languageTag(component.sourceLanguage), sourceLanguage?.direction ?? 'ltr', pageUi.dir),
    target: textLanguage(languageTag(language.code), language.direction, pageUi.dir),
    ui: pageUi,
  };
  // A unit's page is by its index in position order (site-model/paths.ts, `unitPageOf`).
  const indexOf = new Map(list.map((unit, index) => [unit.id, index]));
  const breadcrumbs = [...componentTrail(component), { label: language.name, path: sitePaths.translation(key) }];
  const files: Array<[SitePath, string]> = [];
  for (const [need, units] of lists) {
    const pages = Math.max(1, Math.ceil(units.length / stringsPerNeedPage));
    for (let page = 1; page <= pages; page += 1) {
      const path = sitePaths.needs(key, need, page);
      const link = (to: SitePath, fragment?: string) => relativeHref(path, to, fragment);
      const href = (unit: StoredUnit) => link(sitePaths.units(key, unitPageOf(indexOf.get(unit.id) ?? 0, translation.unitPages)), `unit-${unit.id}`);
      const onPage = units.slice((page - 1) * stringsPerNeedPage, page * stringsPerNeedPage);
      const nav =
        pages > 1 &&
        html`<nav class="pager" aria-label="${t('pager.strings')}"> ${page > 1 && html`<a href="${link(sitePaths.needs(key, need, page - 1))}" rel="prev">${t('pager.previous')}</a>`} <span>${t('pager.pageOf', { page, pages })}</span> ${page < pages && html`<a href="${link(sitePaths.needs(key, need, page + 1))}" rel="next">${t('pager.next')}</a>`} </nav>`;
      const body =
        units.length === 0
          ? html`<p>${t('needs.none')}</p>`
          : html`<p>${t('needs.intro', { count: units.length }, units.length)}</p>${nav}${needTable(onPage, href, context, need !== 'untranslated')}`;
      const title = t('needs.title', { need: t(`need.${need}`), name: `${component.record.name} — ${language.name}` });
      files.push([path, framedPage({ path, title, breadcrumbs, lean: true }, frame, body.value)]);
    }
  }
  return files;
}
