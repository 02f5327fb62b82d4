/**
 * Messages of the site's interface in the chosen UI language (docs/site.md, "Interface
 * languages"). Plural forms are chosen by the language's gettext rule, parsed and walked by
 * `src/utils/plural.ts` like the server's own formulas, never evaluated as code. Browser-safe:
 * the search page's script bundles it with the subset of messages it needs.
 */
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { evaluatePlural, parsePluralFormula, type PluralExpression } from '../utils/plural.ts';
import type { Catalog, MessageKey } from './en.ts';

/** Each UI language's gettext plural rule and its number of forms. */
export const uiPlurals: Record<UiLanguage, { forms: number; formula: string }> = {
  en: { forms: 2, formula: 'n != 1' },
  de: { forms: 2, formula: 'n != 1' },
  ar: { forms: 6, formula: 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5' },
};

export const uiDirections: Record<UiLanguage, 'ltr' | 'rtl'> = { en: 'ltr', de: 'ltr', ar: 'rtl' };

export type Values = Readonly<Record<string, string | number>>;
export type Messages = Readonly<Partial<Record<MessageKey, string | readonly string[]>>>;

/** The `{name}` placeholders of a message. */
export function placeholders(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** A message split at its placeholders: text, then the value's name, alternately (odd indexes are names). */
export function splitMessage(message: string): string[] {
  return message.split(/\{(\w+)\}/);
}

export interface Translator {
  lang: UiLanguage;
  dir: 'ltr' | 'rtl';
  /** A message with its placeholders filled (numbers formatted for the language); `n` picks the plural form. */
  t(key: MessageKey, values?: Values, n?: number): string;
  /** The message for `key` (its plural form for `n`), unfilled; right to left, its ranges isolated (`isolateRanges`). */
  message(key: MessageKey, n?: number): string;
  /** A number as the language writes it (grouping, decimals). */
  number(value: number): string;
  /** A percentage figure (0–100, one decimal as `percent()` gives) as the language writes it. */
  percent(value: number): string;
  /** A unit state in words (api/unit.ts); one a newer server invented shows as its number. */
  stateName(state: number): string;
  /** A change action in words (api/change.ts); one a newer server invented shows as its number. */
  actionName(action: number): string;
}

/**
 * Unicode bidi isolates (UAX #9): in a right-to-left interface each value filled into a message
 * is a first-strong isolate, so a URL keeps its slashes in place, and a range `{from}–{to}` a
 * left-to-right one, so "1–100" keeps its order (issue 26). Characters, not markup: they work in
 * attributes, titles and feeds as well.
 */
export const bidi = { fsi: '\u2068', lri: '\u2066', pdi: '\u2069' } as const;

/** A message whose ranges (`{from}–{to}`) are left-to-right isolates, for a right-to-left interface. */
export function isolateRanges(message: string): string {
  return message.replace(/\{\w+\}\s?[–-]\s?\{\w+\}/g, (range) => `${bidi.lri}${range}${bidi.pdi}`);
}

export function pluralForm(tree: PluralExpression, forms: number, n: number): number {
  let form: number;
  try {
    form = evaluatePlural(tree, Math.abs(Math.trunc(n)));
  } catch {
    form = forms - 1;
  }
  return form >= 0 && form < forms ? form : forms - 1;
}

/**
 * Number formats, one per language and kind, made when first used and kept: creating one costs
 * far more than formatting with it (the first loads the engine's locale data: docs/search.md,
 * "Start-up"; profiled in docs/decisions/2026-11-23-search-figures-formats-1-4.md), and the
 * search page's first requests should not wait for it.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(lang: UiLanguage, kind: 'number' | 'percent'): Intl.NumberFormat {
  const key = `${lang} ${kind}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = kind === 'number' ? new Intl.NumberFormat(lang) : new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
    numberFormats.set(key, format);
  }
  return format;
}

export function translator(lang: UiLanguage, messages: Messages, fallback: Messages = messages): Translator {
  const rule = uiPlurals[lang];
  const tree = parsePluralFormula(rule.formula);
  const number = (value: number) => numberFormat(lang, 'number').format(value);
  const rtl = uiDirections[lang] === 'rtl';
  const chosen = (key: MessageKey, n?: number): string => {
    const entry = messages[key] ?? fallback[key];
    if (entry === undefined) throw new Error(`no message "${key}" for the interface language ${lang}`);
    if (typeof entry === 'string') return entry;
    if (n === undefined) throw new Error(`message "${key}" has plural forms: pass a count`);
    return entry[pluralForm(tree, entry.length, n)] ?? entry.at(-1) ?? '';
  };
  const message = (key: MessageKey, n?: number): string => (rtl ? isolateRanges(chosen(key, n)) : chosen(key, n));
  const t = (key: MessageKey, values: Values = {}, n?: number): string =>
    splitMessage(message(key, n))
      .map((part, index) => {
        if (index % 2 === 0) return part;
        const value = values[part];
        const text = value === undefined ? `{${part}}` : typeof value === 'number' ? number(value) : value;
        return rtl && value !== undefined ? `${bidi.fsi}${text}${bidi.pdi}` : text;
      })
      .join('');
  return {
    lang,
    dir: uiDirections[lang],
    message,
    number,
    percent: (value) => numberFormat(lang, 'percent').format(value / 100),
    t,
    stateName(state) {
      const key = `state.${state}` as MessageKey;
      return messages[key] !== undefined || fallback[key] !== undefined ? message(key) : t('state.other', { state: String(state) });
    },
    actionName(action) {
      const key = `action.${action}` as MessageKey;
      return messages[key] !== undefined || fallback[key] !== undefined ? message(key) : t('action.other', { action: String(action) });
    },
  };
}

/** Checks a catalog against the English one: every key, the plural forms of its language, the same placeholders. */
export function catalogProblems(source: Catalog, catalog: Readonly<Record<string, unknown>>, forms: number): string[] {
  const problems: string[] = [];
  const names = (texts: readonly string[]) => [...new Set(texts.flatMap(placeholders))].sort().join(', ');
  for (const key of Object.keys(source) as MessageKey[]) {
    const expected = source[key];
    const actual = catalog[key];
    if (actual === undefined) {
      problems.push(`${key}: missing`);
      continue;
    }
    if (typeof expected === 'string') {
      if (typeof actual !== 'string') problems.push(`${key}: expected a string`);
      else if (names([actual]) !== names([expected])) problems.push(`${key}: placeholders {${names([actual])}}, expected {${names([expected])}}`);
      continue;
    }
    if (!Array.isArray(actual) || actual.some((form) => typeof form !== 'string')) {
      problems.push(`${key}: expected ${forms} plural forms`);
      continue;
    }
    if (actual.length !== forms) problems.push(`${key}: ${actual.length} plural forms, expected ${forms}`);
    // A form may name its count in words (Arabic "تغييران", two changes), so the forms together,
    // not each one, must hold the English placeholders, and none may add another.
    const allowed = new Set(expected.flatMap(placeholders));
    const extra = (actual as string[]).flatMap(placeholders).filter((name) => !allowed.has(name));
    if (extra.length > 0) problems.push(`${key}: unknown placeholders {${[...new Set(extra)].join(', ')}}`);
    else if (names(actual as string[]) !== names(expected)) problems.push(`${key}: placeholders {${names(actual as string[])}}, expected {${names(expected)}}`);
  }
  for (const key of Object.keys(catalog)) if (!(key in source)) problems.push(`${key}: not an English key`);
  return problems;
}
