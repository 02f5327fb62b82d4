/**
 * The markup of the pages that grow with the units, as strings (see html.ts for why): the unit
 * pages' tables and the string pages' rows. Pages compute the context; these only render, with
 * the interface language's words (src/i18n/, docs/site.md "Interface languages").
 */
import type { StoredUnit } from '../../snapshot/index.ts';
import { pageUi, type PageUi } from '../i18n/page.ts';
import { excerpt, labelText } from '../utils/format.ts';
import { html, type Html } from '../utils/html.ts';
import type { SourceLocation } from '../utils/repoweb.ts';
import { cssString } from '../utils/stacked.ts';

export interface TextLanguage {
  tag: string;
  /** Only where it differs from the page's (the interface language's): a million units would repeat `dir="ltr"`. */
  dir?: 'ltr' | 'rtl' | undefined;
}

/** `{tag, dir}` for a text on a page in the interface direction `pageDir`: `dir` only when it differs. */
export function textLanguage(tag: string, dir: 'ltr' | 'rtl', pageDir: 'ltr' | 'rtl'): TextLanguage {
  return dir === pageDir ? { tag } : { tag, dir };
}

/**
 * ` lang dir` of a text, each only where it differs from the page's (`ui`, the interface
 * language): an English source on an English page inherits both (issue 14: 10 B a unit).
 * Unquoted where HTML allows (a tag of letters, digits and `-_@.`), as the state classes: 2 B a
 * cell, the same document (docs/site.md, "One page per string").
 */
function langAttributes(language: TextLanguage, ui: PageUi): Html {
  const tag = bare(language.tag);
  const lang = language.tag === ui.lang ? html`` : html` lang=${tag}`;
  return language.dir ? html`${lang} dir=${language.dir}` : lang;
}

/** An attribute value unquoted where HTML allows it and it is plain (a site path, a tag), else quoted. */
function bare(value: string): Html {
  return /^[A-Za-z0-9_@.\/#%+-]+$/.test(value) ? html`${value}` : html`"${value}"`;
}

const english = pageUi('en');

export interface UnitContext {
  source: TextLanguage;
  target: TextLanguage;
  sourceLabels: (forms: number) => string[];
  targetLabels: (forms: number) => string[];
  locations: (unit: StoredUnit) => SourceLocation[];
  /**
   * The source unit the string's page shows, when the string has one: a unit's row leaves out
   * each of context, note, explanation, location and flags that equals the source's, shown there
   * once for every language (docs/site.md, "One page per string").
   */
  stringPageSource?: (unit: StoredUnit) => StoredUnit | undefined;
  /** The page of the string in every language (docs/site.md, "One page per string"): one relative link, or none. */
  allLanguages: (unit: StoredUnit) => string | undefined;
  /** The unit in the server's editor: shown only where the string has no page (which carries each language's). */
  live: (unit: StoredUnit) => string | undefined;
  /** The string's rows across archived snapshots, oldest first; undefined when it never changed. */
  history?: (unit: StoredUnit) => readonly UnitHistoryRow[] | undefined;
  /** The string's pending suggestions (Weblate 2026), oldest first; undefined when it has none. */
  suggestions?: (unit: StoredUnit) => readonly UnitSuggestionRow[] | undefined;
  /** The interface language (English when absent). */
  ui?: PageUi;
}

export interface UnitHistoryRow {
  date: string;
  state: number;
  target: readonly string[];
  author: string | undefined;
}

/** A pending suggestion as a string's row shows it: its author named as history names people (src/data/news.ts). */
export interface UnitSuggestionRow {
  timestamp: string;
  votes: number;
  target: readonly string[];
  author: string;
}

function historyTable(rows: readonly UnitHistoryRow[], context: UnitContext, ui: PageUi): Html {
  const { t } = ui;
  return html`<table class="history"><thead><tr><th scope="col">${t('col.snapshot')}</th><th scope="col">${t('col.state')}</th><th scope="col">${t('col.text')}</th><th scope="col">${t('col.by')}</th></tr></thead><tbody>${rows.map(
    (row) =>
      html`<tr><td>${ui.timeHtml(row.date)}</td>${stateCell(row, ui)}<td>${row.target.every((text) => text === '') ? html`<span class="muted">${t('unit.notTranslated')}</span>` : forms(row.target, context.targetLabels(row.target.length), context.target, ui)}</td><td>${row.author ?? '—'}</td></tr>`,
  )}</tbody></table>`;
}

function forms(texts: readonly string[], labels: string[], language: TextLanguage, ui: PageUi): Html {
  return html`${texts.map((text, form) => html`<div>${labels[form] ? html`<div class="muted">${labels[form]}</div>` : ''}<div class="text"${langAttributes(language, ui)}>${text}</div></div>`)}`;
}

/** What a state cell shows: the state, and the flags the units API sends for what else the string needs. */
export interface StateOf {
  state: number;
  has_failing_check?: boolean | undefined;
  has_suggestion?: boolean | undefined;
}

/**
 * A string's state as a cell, everywhere strings are listed: the word, and a colour by its class
 * `s<state>` (site.css draws a swatch before the word, so the word is never coloured text and
 * no state is told by colour alone; issue 26). Failing checks and suggestions follow on lines of
 * their own: the units API says only that a check fails, not which (docs/guide.md, "Checks").
 * A cell or row follows it wherever it is used, so its end tag is left out (`end`), and its
 * class needs no quotes: 7 B a cell, the same document.
 */
export function stateCell(unit: StateOf, ui: PageUi): Html {
  const { t } = ui;
  return html`<td class=s${unit.state}>${ui.stateName(unit.state)}${unit.has_failing_check === true && html`<span class="flag">${t('unit.failingCheck')}</span>`}${unit.has_suggestion === true && html`<span class="flag">${t('unit.suggestion')}</span>`}`;
}

/**
 * A string's text as a cell (`dd`, `td`): one form is the cell itself with its language and
 * direction; plural forms are one labelled block each. Every unit of a million renders this, so
 * the common case carries no wrapper, and a table's cell no class either: the unit and string
 * tables style their text columns by position (site.css; issue 14: bytes per string). With
 * `blank`, a translation with no text is an empty cell: the state beside it says "untranslated"
 * (26 B a row that said "not translated" too, 12 MB at 1M).
 */
function textCell(tag: 'dd' | 'td', texts: readonly string[], labels: string[], language: TextLanguage, ui: PageUi, blank = false): Html {
  if (blank && texts.every((text) => text === '')) return html`<${tag}>${end(tag)}`;
  const attributes = tag === 'dd' ? html` class="text"${langAttributes(language, ui)}` : langAttributes(language, ui);
  if (texts.length === 1 && !labels[0]) return html`<${tag}${attributes}>${texts[0]}${end(tag)}`;
  return html`<${tag}>${forms(texts, labels, language, ui)}${end(tag)}`;
}

/**
 * The end tag of a cell, none for `td`: HTML lets a table cell's, row's, `dt`'s and `dd`'s end
 * tag be left out where another cell, row or the table's end follows, and browsers build the same
 * document without them. Rows of the pages that grow with the strings leave them out: 35 B a unit
 * on its unit page, 20 B on its string page (docs/site.md, "One page per string").
 */
function end(tag: 'dd' | 'td'): Html {
  return tag === 'td' ? html`` : html`</dd>`;
}

function locationList(locations: readonly SourceLocation[]): Html {
  return html`${locations.map((location, index) => html`${index > 0 ? ', ' : ''}${location.href ? html`<a href="${location.href}" rel="nofollow noreferrer">${location.text}</a>` : html`<code>${location.text}</code>`}`)}`;
}

/** A unit's flags as a row or a string's page shows them: its own and the extra ones. */
function unitFlags(unit: Pick<StoredUnit, 'flags' | 'extra_flags'>): string {
  return [unit.flags, unit.extra_flags].filter((flag) => flag !== '').join(', ');
}

function field(name: string, value: Html | string, className?: string): Html {
  return html`<dt>${name}<dd${className ? html` class="${className}"` : ''}>${value}`;
}

/**
 * The unit table's head, once per unit page: the labels every unit repeated as an article
 * (Source, Translation, Last changed: 56 B a unit at 1M; issue 14, docs/site.md "One page per string").
 */
function unitTableHead(ui: PageUi, dated: UnitDate): Html {
  const { t } = ui;
  return html`<thead><tr><th scope="col">${t('col.number')}</th><th scope="col">${t('col.state')}</th><th scope="col">${t('col.source')}</th><th scope="col">${t('col.translation')}</th><th scope="col">${t(dated === 'last_updated' ? 'unit.lastChanged' : 'unit.added')}</th><th scope="col">${t('col.details')}</th></tr></thead>`;
}

/**
 * Which date the unit table shows: a unit's `timestamp` is when it was added, its last change is
 * `last_updated`, which servers before 5.6 do not send (checked on 5.14.3, test/weblate).
 */
type UnitDate = 'last_updated' | 'timestamp';

function unitDate(units: readonly StoredUnit[]): UnitDate {
  return units.some((unit) => unit.last_updated !== undefined) ? 'last_updated' : 'timestamp';
}

/**
 * One unit on its unit page: a row of the page's table, its permalink `#unit-<id>`. The same
 * string in the other languages is one link to its page (`allLanguages`), not a link per
 * language: at 50 languages those links were two thirds of every unit (docs/site.md, "One page
 * per string"). The source's location is on that page too, and so is the editor link: a unit
 * repeats them only where its own location differs or its string has no page. What few units
 * have (previous source, context, note, flags, history…) is a labelled list in the last cell.
 * The time is to the minute in UTC, which the page says once (`unitPageBody`).
 */
export function unitRow(unit: StoredUnit, context: UnitContext): Html {
  const allLanguages = context.allLanguages(unit);
  // The string's page shows the source's location, context, note, explanation and flags once; a
  // unit repeats each only where its own differs (location 115 B a unit at 1M, the others 58 B;
  // docs/site.md, "One page per string").
  const shown = context.stringPageSource?.(unit);
  const own = (field: 'context' | 'note' | 'explanation' | 'location') => shown === undefined || unit[field] !== shown[field];
  const locations = own('location') ? context.locations(unit) : [];
  const flags = unitFlags(unit);
  const ownFlags = shown === undefined || flags !== unitFlags(shown);
  const live = allLanguages === undefined ? context.live(unit) : undefined;
  const ui = context.ui ?? english;
  const { t } = ui;
  const link =
    allLanguages !== undefined
      ? html`<a href=${bare(allLanguages)}>${t('unit.allLanguages')}</a>`
      : live !== undefined && html`<a href="${live}">${t('unit.openEditor')}</a>`;
  const fields = [
    unit.previous_source !== '' && field(t('unit.previousSource'), unit.previous_source, 'text'),
    unit.context !== '' && own('context') && field(t('unit.context'), unit.context, 'text'),
    unit.note !== '' && own('note') && field(t('unit.note'), unit.note, 'text'),
    unit.explanation !== '' && own('explanation') && field(t('unit.explanation'), unit.explanation, 'text'),
    locations.length > 0 && field(t('unit.location'), locationList(locations)),
    flags !== '' && ownFlags && field(t('unit.flags'), html`<code>${flags}</code>`),
    unit.labels.length > 0 && field(t('unit.labels'), unit.labels.map(labelText).join(', ')),
  ].filter((item) => item !== false);
  return html`<tr id="unit-${unit.id}"><th>${unit.position}${stateCell(unit, ui)}${textCell('td', unit.source, context.sourceLabels(unit.source.length), context.source, ui)}${textCell('td', unit.target, context.targetLabels(unit.target.length), context.target, ui, true)}<td>${ui.utcMinute(unit.last_updated ?? unit.timestamp)}<td>${link}${fields.length > 0 && html`<dl>${fields}</dl>`}`;
}

/**
 * A unit's history, when it changed, as a row of its own under the unit's and across the
 * table: beside the string, in the details cell, it was squeezed into a narrow column (issue 26).
 */
function historyRow(unit: StoredUnit, context: UnitContext, ui: PageUi): Html | false {
  const history = context.history?.(unit);
  return (
    history !== undefined &&
    history.length > 1 &&
    html`<tr class="history-of"><td colspan="6"><div class="muted">${ui.t('unit.history')}</div>${historyTable(history, context, ui)}</td></tr>`
  );
}

/**
 * A unit's pending suggestions, as a row of its own under the unit's (and its history's), laid
 * out as a history is (when, votes, text, by), so that a phone stacks it the same way (site.css).
 */
function suggestionsRow(unit: StoredUnit, context: UnitContext, ui: PageUi): Html | false {
  const suggestions = context.suggestions?.(unit);
  if (suggestions === undefined || suggestions.length === 0) return false;
  const { t } = ui;
  return html`<tr class="history-of"><td colspan="6"><div class="muted">${t('unit.suggestions')}</div><table class="history suggestions"><thead><tr><th scope="col">${t('col.when')}</th><th scope="col">${t('col.votes')}</th><th scope="col">${t('col.text')}</th><th scope="col">${t('col.by')}</th></tr></thead><tbody>${suggestions.map(
    (row) =>
      html`<tr><td>${ui.timeHtml(row.timestamp)}</td><td class="num">${ui.number(row.votes)}</td><td>${forms(row.target, context.targetLabels(row.target.length), context.target, ui)}</td><td>${row.author}</td></tr>`,
  )}</tbody></table></td></tr>`;
}

/** On a phone the rows of a unit table stack and its head is hidden: the text cells say what they are from these (site.css). */
function textLabels(ui: PageUi): string {
  return `--source:${cssString(ui.t('col.source'))};--translation:${cssString(ui.t('col.translation'))}`;
}

/** One translation of a string on the string's page. */
export interface StringRow extends StateOf {
  /** The language's name, and the relative link to the unit on its unit page. */
  name: string;
  href: string;
  target: readonly string[];
  language: TextLanguage;
  labels: (forms: number) => string[];
  /** The unit in the server's editor, when the snapshot knows it. */
  live?: string | undefined;
  /** The source language's row: its editor link is the one the page shows. */
  source?: boolean;
}

/** The rows of a string's page: each language's state and translation, and the link to its unit. */
export function stringRows(rows: readonly StringRow[], ui: PageUi = english): Html {
  return html`${rows.map(
    (row) =>
      html`<tr><th><a href=${bare(row.href)}>${row.name}</a>${stateCell(row, ui)}${textCell('td', row.target, row.labels(row.target.length), row.language, ui, true)}`,
  )}`;
}

/** The source of a string on its page: text with plural labels, context, note, explanation, location, flags. */
export function stringSource(unit: StoredUnit, source: TextLanguage, labels: string[], locations: SourceLocation[], ui: PageUi = english): Html {
  const { t } = ui;
  return html`<dl class="meta"><dt>${t('unit.source')}</dt>${textCell('dd', unit.source, labels, source, ui)}${[
    unit.context !== '' && field(t('unit.context'), unit.context, 'text'),
    unit.note !== '' && field(t('unit.note'), unit.note, 'text'),
    unit.explanation !== '' && field(t('unit.explanation'), unit.explanation, 'text'),
    locations.length > 0 && field(t('unit.location'), locationList(locations)),
    unitFlags(unit) !== '' && field(t('unit.flags'), html`<code>${unitFlags(unit)}</code>`),
  ]}</dl>`;
}

/** The pager of a translation's unit pages: relative links to the pages before and after, when there are. */
export interface UnitPager {
  page: number;
  pages: number;
  previous: string | undefined;
  next: string | undefined;
}

/**
 * A unit page's content inside the frame (src/layouts/frame.ts): the pager when the
 * translation has more than one page, then the page's units as one table. Written outside Astro
 * by site/bulk-pages.ts (docs/site.md, "Pages written outside Astro").
 */
export function unitPageBody(units: readonly StoredUnit[], pager: UnitPager, context: UnitContext): string {
  const ui = context.ui ?? english;
  const { t } = ui;
  const nav =
    pager.pages > 1 &&
    html`<nav class="pager" aria-label="${t('pager.strings')}"> ${pager.previous !== undefined && html`<a href="${pager.previous}" rel="prev">${t('pager.previous')}</a>`} <span>${t('pager.pageOf', { page: pager.page, pages: pager.pages })}</span> ${pager.next !== undefined && html`<a href="${pager.next}" rel="next">${t('pager.next')}</a>`} </nav>`;
  const table = html`<p class="muted">${t('units.utc')}</p><div class="table-wrap" style="${textLabels(ui)}"><table class="units">${unitTableHead(ui, unitDate(units))}<tbody>${units.map((unit) => html`${unitRow(unit, context)}${historyRow(unit, context, ui)}${suggestionsRow(unit, context, ui)}`)}</tbody></table></div>`;
  return html`${nav}${units.length === 0 ? html`<p>${t('units.none')}</p>` : table} `.value;
}

/**
 * A string's page content inside the frame: the source, one link to the server's editor, then
 * a row per language (`stringRows`). One editor link per string, the source language's where
 * the snapshot has it: Weblate's editor lists the string's other languages, and a link per
 * language cost 118 B a unit at 1M (issue 14, docs/site.md "One page per string").
 */
export function stringPageBody(source: Html, rows: readonly StringRow[], ui: PageUi = english): string {
  const { t } = ui;
  const editor = (rows.find((row) => row.source && row.live !== undefined) ?? rows.find((row) => row.live !== undefined))?.live;
  return html` ${source} ${editor !== undefined && html`<p><a href="${editor}">${t('unit.openEditor')}</a></p>`} <table class="strings"> <thead><tr><th scope="col">${t('col.language')}</th><th scope="col">${t('col.state')}</th><th scope="col">${t('col.translation')}</th></tr></thead> <tbody>${stringRows(rows, ui)}</tbody></table> `
    .value;
}

/** What a list of strings needs to render their texts: their languages and the interface language. */
export type TextContext = Pick<UnitContext, 'source' | 'target' | 'ui'>;

/** Characters of a text a list shows; the string's page of strings has it whole. */
const listExcerpt = 100;

/**
 * A list of the strings of a translation that need something (src/templates/need-pages.ts): a
 * row per string, its number linking to the string on its unit page, its state, the start of its
 * source, and of its translation unless none has one (`withTarget`, false for the untranslated).
 * Texts are cut to `listExcerpt` characters, plural forms joined by " | ": a list says which
 * strings to open, and whole texts doubled the bytes of real catalogs' lists
 * (docs/decisions/2026-11-27-help-needed.md). The columns are the unit table's first four, so
 * site.css styles the texts by position as there.
 */
export function needTable(units: readonly StoredUnit[], href: (unit: StoredUnit) => string, context: TextContext, withTarget: boolean): Html {
  const ui = context.ui ?? english;
  const { t } = ui;
  const text = (texts: readonly string[], language: TextLanguage) => html`<td${langAttributes(language, ui)}>${excerpt(texts.join(' | '), listExcerpt)}`;
  const target = (unit: StoredUnit) => (unit.target.every((form) => form === '') ? html`<td>` : text(unit.target, context.target));
  // Rows without the end tags HTML lets go (`end`): 15 B a listed string.
  const rows = units.map(
    (unit) =>
      html`<tr><th><a href=${bare(href(unit))}>${unit.position}</a>${stateCell(unit, ui)}${text(unit.source, context.source)}${withTarget && target(unit)}`,
  );
  return html`<div class="table-wrap" style="${textLabels(ui)}"><table class="units"><thead><tr><th scope="col">${t('col.number')}</th><th scope="col">${t('col.state')}</th><th scope="col">${t('col.source')}</th>${withTarget && html`<th scope="col">${t('col.translation')}</th>`}</tr></thead><tbody>${rows}</tbody></table></div>`;
}
