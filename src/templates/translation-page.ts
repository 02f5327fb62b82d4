/**
 * The translation pages, written outside Astro with the unit pages (site/bulk-pages.ts): each
 * translation's units are read once for its translation page and its unit pages. At 1M units
 * Astro spent about 42 s per thousand files on these pages and the badges (docs/site.md, "Pages
 * written outside Astro"); as strings they cost a few milliseconds each. The markup is what
 * `src/pages/projects/[project]/[component]/[language]/index.astro` made, byte for byte (the
 * spaces of Astro's compressed output, attributes escaped as Astro escapes them: `attr`).
 */
import type { History } from '../../archive/history.ts';
import type { StoredUnit } from '../../snapshot/index.ts';
import { authorLabel } from '../data/authors.ts';
import { liveUrl } from '../data/server-links.ts';
import type { Need } from '../data/help-needed.ts';
import { stringsByPage, type StateGroup } from '../data/strings-by-page.ts';
import type { NeedLists } from './need-pages.ts';
import type { SiteTree, TranslationEntry } from '../data/tree.ts';
import type { PageUi } from '../i18n/page.ts';
import { attr, framedPage, type FrameContext } from '../layouts/frame.ts';
import { componentTrail } from '../layouts/trail.ts';
import { historyChartHtml } from './history-html.ts';
import { html, type Html } from '../utils/html.ts';
import { progressSegments, translatedPercent, type Progress } from '../utils/progress.ts';
import { publicUrl } from '../../site-model/web.ts';
import { relativeHref, sitePaths, type SitePath } from '../../site-model/paths.ts';

/** The archived raw file of a translation, when the crawl stored one. */
export interface RawFile {
  sitePath: SitePath;
  size: number;
}

/** A progress bar as `ProgressBar.astro` draws it (strings). */
export function progressBarHtml(progress: Progress, pageUi: PageUi): Html {
  const { t, percent: pct } = pageUi;
  const bar = progressSegments(progress, 'strings');
  const label =
    progress.total <= 0
      ? t('bar.noStrings')
      : t(
          'bar.strings',
          { translated: pct(bar.translatedPercent), total: progress.total, fuzzy: pct(bar.fuzzyPercent), untranslated: pct(bar.untranslatedPercent) },
          progress.total,
        );
  return html`<div class="bar" role="img"${attr('aria-label', label)}${attr('title', label)}> <span class="t"${attr('style', `width:${bar.translatedPercent}%`)}></span> <span class="f"${attr('style', `width:${bar.fuzzyPercent}%`)}></span> </div>`;
}

/** A badge image with its JSON and, with a site URL, the snippets to embed it, as `Badge.astro` draws them. */
export function badgeHtml(path: SitePath, badge: SitePath, label: string, siteUrl: string | undefined, pageUi: PageUi): Html {
  const { t } = pageUi;
  const json = badge.replace(/\.svg$/, '.json');
  // The embed snippet needs the published address, known only with `--site-url`.
  const snippets =
    siteUrl === undefined
      ? html` `
      : html`<p class="muted">${t('badge.embed')} <code>${`[![${label}](${publicUrl(siteUrl, badge)})](${publicUrl(siteUrl, path)})`}</code></p> <p class="muted">${t('badge.shields')} <code>${`[![${label}](https://img.shields.io/endpoint?url=${encodeURIComponent(publicUrl(siteUrl, json))})](${publicUrl(siteUrl, path)})`}</code></p>`;
  return html`<div class="badges"> <img${attr('src', relativeHref(path, badge))}${attr('alt', label)} height="20"> <a class="muted"${attr('href', relativeHref(path, json))}>${t('badge.json')}</a> ${snippets} </div>`;
}

/** The table of a translation's unit pages: a row per page with its strings counted by state group (docs/site.md, "Translation pages"). */
function unitPagesTable(path: SitePath, translation: TranslationEntry, list: readonly StoredUnit[], pageUi: PageUi): Html {
  const { t, number } = pageUi;
  if (list.length === 0) return html`<p>${t('translation.noStrings')}</p>`;
  const byPage = stringsByPage(list, translation.unitPages);
  const groupLabel = (group: StateGroup, state: number) => (group === 'other' ? t('translation.otherStates') : pageUi.stateName(state));
  const heads = byPage.groups.map(
    ({ group, state }) =>
      html`<th scope="col"${attr('class', group === 'other' ? 'num' : `num s${state}`)} data-sort-type="number"${attr('data-state-group', group)}>${groupLabel(group, state)}</th>`,
  );
  const rows = byPage.pages.map(
    (unitPage) =>
      html`<tr> <th scope="row"><a${attr('href', relativeHref(path, sitePaths.units(translation.key, unitPage.page)))}>${t('pager.stringsPage', { page: unitPage.page })}</a></th> <td class="num"${attr('data-sort', String(unitPage.first))}>${number(unitPage.first)}–${number(unitPage.last)}</td> ${byPage.groups.map(
        ({ group }) => {
          const count = unitPage.counts.get(group) ?? 0;
          return html`<td class="num"${attr('data-sort', String(count))}>${number(count)}</td>`;
        },
      )} </tr>`,
  );
  const totals = byPage.groups.map(({ count }) => html`<td class="num">${number(count)}</td>`);
  return html` <p>${t('translation.byPage')}</p> <div class="table-wrap"> <table data-sortable id="unit-pages" aria-describedby="strings"> <thead> <tr> <th scope="col">${t('pager.strings')}</th> <th scope="col" class="num" data-sort-type="number">${t('col.number')}</th> ${heads} </tr> </thead> <tbody> ${rows} </tbody> <tfoot> <tr> <th scope="row">${t('translation.allPages')}</th> <td class="num">${number(list.length)}</td> ${totals} </tr> </tfoot> </table> </div> `;
}

/** A translation's page: its figures, file, badge, unit pages and history, in the frame. */
export function translationPage(
  tree: SiteTree,
  frame: FrameContext,
  translation: TranslationEntry,
  list: readonly StoredUnit[],
  file: RawFile | undefined,
  history: History,
  needLists?: NeedLists,
): [SitePath, string] {
  const { record: tr, component, language } = translation;
  const pageUi = frame.ui;
  const { t } = pageUi;
  const path = sitePaths.translation(translation.key);
  const link = (to: SitePath) => relativeHref(path, to);
  const live = liveUrl(tr.web_url, tree.snapshot);
  const title = `${component.record.name} — ${language.name}`;
  const count = (key: 'fig.stringCount', n: number) => t(key, { count: n }, n);
  // "Needs editing 3" opens the list of those 3 (src/templates/need-pages.ts; issue 26).
  const needFigure = (need: Need, n: number) => {
    const text = count('fig.stringCount', n);
    return n > 0 && needLists?.lists.has(need) ? html`<a${attr('href', link(sitePaths.needs(translation.key, need)))}>${text}</a>` : text;
  };
  const counts = needLists?.counts ?? {};
  const needRow = (need: Need) => {
    const n = counts[need];
    return n !== undefined && n > 0 && html` <dt>${t(`need.${need}`)}</dt><dd${attr('data-figure', need)}>${needFigure(need, n)}</dd>`;
  };
  const lastChange = tr.last_change
    ? pageUi.parts('translation.lastChangeBy', { time: pageUi.timeHtml(tr.last_change), author: authorLabel(tr.last_author, tree.hideAuthors, false) })
    : pageUi.timeHtml(tr.last_change);
  const fileHtml = file
    ? html` · <a${attr('href', link(file.sitePath))} download>${t('translation.archivedCopy')}</a> <span class="muted">(${t('translation.bytes', { count: file.size }, file.size)})</span>`
    : html`<span class="muted"> ${t('translation.notArchived')}</span>`;
  const liveHtml = live && html`<dt>${t('common.onServer')}</dt><dd><a${attr('href', live)}>${live}</a></dd>`;
  const figures = html`<dl class="meta" id="statistics"> <dt>${t('translation.translated')}</dt><dd data-figure="translated">${t('fig.stringsOf', { translated: tr.translated, total: tr.total, percent: pageUi.percent(translatedPercent(tr)) }, tr.total)}, ${t('fig.wordsOf', { translated: tr.translated_words, total: tr.total_words }, tr.total_words)}</dd> ${needRow('untranslated')} <dt>${t('translation.fuzzy')}</dt><dd data-figure="fuzzy">${needFigure('needs-editing', tr.fuzzy)}</dd> <dt>${t('translation.failing')}</dt><dd>${needFigure('failing-checks', tr.failing_checks)}</dd> <dt>${t('translation.suggestions')}</dt><dd>${needFigure('suggestions', tr.have_suggestion)}</dd>${needRow('waiting-for-review')} <dt>${t('translation.lastChange')}</dt><dd>${lastChange}</dd> <dt>${t('translation.language')}</dt><dd><a${attr('href', link(sitePaths.language(language.code)))}>${language.name}</a> <span class="muted">(${language.code}, ${t(language.direction === 'rtl' ? 'dir.rtl' : 'dir.ltr')})</span></dd> <dt>${t('translation.file')}</dt><dd><code>${tr.filename}</code>${fileHtml}</dd> <dt>${t('translation.revision')}</dt><dd><code>${tr.revision || '—'}</code></dd> ${liveHtml} </dl>`;
  const badge = badgeHtml(
    path,
    sitePaths.translationBadge(translation.key),
    t('badge.title', { name: `${component.record.name} ${language.code}` }),
    tree.siteUrl,
    pageUi,
  );
  // An empty translation's share is the record's own: Weblate 5.14 counts it 100% even where
  // review is on (test/weblate/figures.test.ts), unlike a component or project.
  const body = html` ${progressBarHtml(tr, pageUi)} ${figures} ${badge} <h2 id="strings">${t('translation.strings')}</h2> ${unitPagesTable(path, translation, list, pageUi)}${historyChartHtml(history, path, 'translation', translation.path, tr.total !== 0 || translatedPercent(tr) === 100, pageUi)}  `;
  return [path, framedPage({ path, title, breadcrumbs: componentTrail(component) }, frame, body.value)];
}
