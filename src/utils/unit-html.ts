/**
 * The markup of unit lists, as strings (see html.ts for why): the translation page's table
 * rows and the unit pages' articles. Pages compute the context; these only render, with the
 * interface language's words (src/i18n/, docs/site.md "Interface languages").
 */
import type { StoredUnit } from '../../snapshot/schemas.ts';
import { pageUi, type PageUi } from '../i18n/page.ts';
import { excerpt, labelText } from './format.ts';
import { html, type Html } from './html.ts';
import { stateGroup } from './names.ts';
import type { SourceLocation } from './repoweb.ts';

export interface TextLanguage {
  tag: string;
  dir: 'ltr' | 'rtl';
}

const english = pageUi('en');

export function unitRows(units: readonly StoredUnit[], target: TextLanguage, href: (unit: StoredUnit, index: number) => string, ui: PageUi = english): Html {
  return html`${units.map(
    (unit, index) =>
      html`<tr data-state-group="${stateGroup(unit.state)}"><td class="num"><a href="${href(unit, index)}">${unit.position}</a></td><td><span class="state">${ui.stateName(unit.state)}</span></td><td class="text">${excerpt(unit.source.join(' | '))}</td><td class="text" lang="${target.tag}" dir="${target.dir}">${excerpt(unit.target.join(' | '))}</td></tr>`,
  )}`;
}

export interface UnitContext {
  source: TextLanguage;
  target: TextLanguage;
  sourceLabels: (forms: number) => string[];
  targetLabels: (forms: number) => string[];
  locations: (unit: StoredUnit) => SourceLocation[];
  /** The same string in the other languages: language name and relative link. */
  others: (unit: StoredUnit) => Array<{ name: string; href: string }>;
  live: (unit: StoredUnit) => string | undefined;
  /** The string's rows across archived snapshots, oldest first; undefined when it never changed. */
  history?: (unit: StoredUnit) => readonly UnitHistoryRow[] | undefined;
  /** The interface language (English when absent). */
  ui?: PageUi;
}

export interface UnitHistoryRow {
  date: string;
  state: number;
  target: readonly string[];
  author: string | undefined;
}

function historyTable(rows: readonly UnitHistoryRow[], context: UnitContext, ui: PageUi): Html {
  const { t } = ui;
  return html`<table class="history"><thead><tr><th scope="col">${t('col.snapshot')}</th><th scope="col">${t('col.state')}</th><th scope="col">${t('col.text')}</th><th scope="col">${t('col.by')}</th></tr></thead><tbody>${rows.map(
    (row) =>
      html`<tr><td>${ui.timeHtml(row.date)}</td><td><span class="state">${ui.stateName(row.state)}</span></td><td>${row.target.every((text) => text === '') ? html`<span class="muted">${t('unit.notTranslated')}</span>` : forms(row.target, context.targetLabels(row.target.length), context.target)}</td><td>${row.author ?? '—'}</td></tr>`,
  )}</tbody></table>`;
}

function forms(texts: readonly string[], labels: string[], language: TextLanguage): Html {
  return html`${texts.map((text, form) => html`<div>${labels[form] ? html`<div class="muted">${labels[form]}</div>` : ''}<div class="text" lang="${language.tag}" dir="${language.dir}">${text}</div></div>`)}`;
}

function field(name: string, value: Html | string, className?: string): Html {
  return html`<dt>${name}</dt><dd${className ? html` class="${className}"` : ''}>${value}</dd>`;
}

export function unitArticle(unit: StoredUnit, context: UnitContext): Html {
  const id = `unit-${unit.id}`;
  const locations = context.locations(unit);
  const flags = [unit.flags, unit.extra_flags].filter((flag) => flag !== '').join(', ');
  const others = context.others(unit);
  const live = context.live(unit);
  const untranslated = unit.target.every((text) => text === '');
  const history = context.history?.(unit);
  const ui = context.ui ?? english;
  const { t } = ui;
  return html`<article class="unit" id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${t('unit.title', { position: String(unit.position) })} <span class="state">${ui.stateName(unit.state)}</span></h2><dl class="meta">${[
    field(t('unit.source'), forms(unit.source, context.sourceLabels(unit.source.length), context.source)),
    field(
      t('unit.translation'),
      untranslated ? html`<span class="muted">${t('unit.notTranslated')}</span>` : forms(unit.target, context.targetLabels(unit.target.length), context.target),
    ),
    unit.previous_source !== '' && field(t('unit.previousSource'), unit.previous_source, 'text'),
    unit.context !== '' && field(t('unit.context'), unit.context, 'text'),
    unit.note !== '' && field(t('unit.note'), unit.note, 'text'),
    unit.explanation !== '' && field(t('unit.explanation'), unit.explanation, 'text'),
    locations.length > 0 &&
      field(
        t('unit.location'),
        html`${locations.map((location, index) => html`${index > 0 ? ', ' : ''}${location.href ? html`<a href="${location.href}" rel="nofollow noopener noreferrer">${location.text}</a>` : html`<code>${location.text}</code>`}`)}`,
      ),
    flags !== '' && field(t('unit.flags'), html`<code>${flags}</code>`),
    unit.labels.length > 0 && field(t('unit.labels'), unit.labels.map(labelText).join(', ')),
    field(t('unit.lastChanged'), ui.timeHtml(unit.timestamp)),
    others.length > 0 &&
      field(t('unit.otherLanguages'), html`${others.map((other, index) => html`${index > 0 ? ', ' : ''}<a href="${other.href}">${other.name}</a>`)}`),
    live !== undefined && field(t('common.onServer'), html`<a href="${live}">${t('unit.openEditor')}</a>`),
    history !== undefined && history.length > 1 && field(t('unit.history'), historyTable(history, context, ui)),
  ]}</dl></article>`;
}
