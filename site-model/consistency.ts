/**
 * Consistency of a language's translations (issue 26, docs/decisions/2026-11-27-consistency.md): the same
 * source text translated differently across components and projects (Weblate's own
 * `consistency` check looks within one project; Transvision's view across products), and
 * translations that differ from most languages in their placeholders or final punctuation.
 * Pure functions over translated strings; src/data/consistency.ts reads the units.
 */
import { safeSegment, type SitePath } from './paths.ts';

/** A language's consistency page, beside its page (src/pages/languages/[language]/consistency/). */
export function consistencyPath(code: string): SitePath {
  return `languages/${safeSegment(code)}/consistency/index.html`;
}

/** One translated string of a language, where the site shows it. */
export interface PlacedTranslation {
  /** `<project>/<component>` slugs. */
  component: string;
  source: readonly string[];
  target: readonly string[];
  /** The unit's page and anchor, from the site root (site-model/paths.ts, `unitHref`). */
  href: string;
}

/** A source text with its different translations in one language, each with where it is used. */
export interface DifferentTranslations {
  source: readonly string[];
  variants: { target: readonly string[]; places: Pick<PlacedTranslation, 'component' | 'href'>[] }[];
}

/** Whether a unit counts as translated: Weblate's states from 20 up (translated, approved, read-only). */
export function isTranslated(unit: { state: number; target: readonly string[] }): boolean {
  return unit.state >= 20 && unit.target.some((form) => form !== '');
}

const formsKey = (forms: readonly string[]) => forms.join('\u0000');

/**
 * The source texts of `translations` (one language) translated in more than one way where they
 * appear in more than one component: variants most used first, then by text; sources with the
 * most variants first, then by text. One component using two translations of a text (two
 * contexts) is left alone: that may be deliberate, and Weblate's check does not flag it either.
 */
export function differentTranslations(translations: Iterable<PlacedTranslation>): DifferentTranslations[] {
  const bySource = new Map<string, { source: readonly string[]; variants: Map<string, DifferentTranslations['variants'][number]> }>();
  for (const { component, source, target, href } of translations) {
    const key = formsKey(source);
    let entry = bySource.get(key);
    if (!entry) bySource.set(key, (entry = { source, variants: new Map() }));
    const targetKey = formsKey(target);
    let variant = entry.variants.get(targetKey);
    if (!variant) entry.variants.set(targetKey, (variant = { target, places: [] }));
    variant.places.push({ component, href });
  }
  const found: DifferentTranslations[] = [];
  for (const { source, variants } of bySource.values()) {
    if (variants.size < 2) continue;
    const components = new Set([...variants.values()].flatMap((variant) => variant.places.map((place) => place.component)));
    if (components.size < 2) continue;
    const ordered = [...variants.values()].sort((a, b) => b.places.length - a.places.length || compareForms(a.target, b.target));
    found.push({ source, variants: ordered });
  }
  return found.sort((a, b) => b.variants.length - a.variants.length || compareForms(a.source, b.source));
}

function compareForms(a: readonly string[], b: readonly string[]): number {
  const x = formsKey(a);
  const y = formsKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The placeholders of a text: printf (`%s`, `%1$d`, `%(name)s`) and brace (`{0}`, `{name}`)
 * formats, as Weblate's format checks know them; `%%` is a percent sign, not a placeholder.
 */
const placeholder =
  /%%|%\([\w.-]+\)[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|%(?:\d+\$)?[#0 +'-]*(?:\d+|\*)?(?:\.\d+)?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@]|\{\{?[\w.]*\}?\}/g;

/** The distinct placeholders of all forms of a text, sorted and joined by spaces ("" for none). */
export function placeholdersOf(forms: readonly string[]): string {
  const found = new Set<string>();
  for (const form of forms) for (const [match] of form.matchAll(placeholder)) if (match !== '%%') found.add(match);
  return [...found].sort().join(' ');
}

/** Final punctuation marks by kind: scripts write the same stop, question or colon differently. */
const punctuationKinds: [kind: string, marks: string][] = [
  ['…', '…⋯'],
  ['.', '.。．।۔።'],
  ['?', '?？؟'],
  ['!', '!！'],
  [':', ':：'],
  [',', ',，、،'],
  [';', '；؛'],
];

/**
 * The kind of punctuation a text ends with ("" for none), closing quotes and brackets and
 * trailing spaces aside. `...` is an ellipsis. `;` is a question mark only in Greek, which
 * writes its question mark as U+037E and NFC makes that `;`; elsewhere `;` is a semicolon.
 */
export function finalPunctuation(text: string, language: string): string {
  const trimmed = text.normalize('NFC').replace(/[\s"'”’»›)\]}」』]+$/u, '');
  if (trimmed.endsWith('...')) return '…';
  const last = trimmed.at(-1) ?? '';
  if (last === ';') return language === 'el' || language.startsWith('el_') ? '?' : ';';
  return punctuationKinds.find(([, marks]) => marks.includes(last))?.[0] ?? '';
}

/** One language's translation of a string of a component, as the outlier test reads it. */
export interface StringTranslationOf {
  language: string;
  target: readonly string[];
  href: string;
}

export interface Outlier {
  language: string;
  kind: 'placeholders' | 'punctuation';
  /** What this translation has, and what most languages have. */
  found: string;
  most: string;
  target: readonly string[];
  href: string;
}

/** Fewest translated languages for "most languages" to mean something. */
export const fewestForMost = 3;

/**
 * The translations of one string (every language's, translated ones only) that differ from most
 * languages in placeholders or final punctuation. "Most" is a value held by more than half the
 * languages, and at least `fewestForMost` of them; with no such value nothing is flagged.
 * Punctuation is compared on the last plural form (the one most languages' "other" is).
 */
export function outliers(translations: readonly StringTranslationOf[]): Outlier[] {
  if (translations.length < fewestForMost) return [];
  const found: Outlier[] = [];
  const measure = (kind: Outlier['kind'], of: (translation: StringTranslationOf) => string) => {
    const values = translations.map(of);
    const most = majority(values);
    if (most === undefined) return;
    translations.forEach((translation, at) => {
      if (values[at] !== most)
        found.push({ language: translation.language, kind, found: values[at]!, most, target: translation.target, href: translation.href });
    });
  };
  measure('placeholders', (translation) => placeholdersOf(translation.target));
  measure('punctuation', (translation) => finalPunctuation(translation.target.at(-1) ?? '', translation.language));
  return found;
}

function majority(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  for (const [value, count] of counts) if (count * 2 > values.length && count >= fewestForMost) return value;
  return undefined;
}

/** At most `limit` items of a list, and how many were left out: pages list inconsistencies, capped. */
export function capped<T>(items: readonly T[], limit: number): { shown: T[]; more: number } {
  return { shown: items.slice(0, limit), more: Math.max(0, items.length - limit) };
}
