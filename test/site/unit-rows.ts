/** A German unit page's units and context for the unit-table tests (output-unit-table*.test.ts). */
import type { StoredUnit } from '../../snapshot/index.ts';
import { textLanguage, type UnitContext } from '../../src/templates/unit-html.ts';
import { builders } from '../helpers/records.ts';

export const base = 'https://weblate.example.org/';
export const { unit } = builders(base);
export const translationUrl = `${base}api/translations/app/ui/de/`;
export const pager = { page: 1, pages: 1, previous: undefined, next: undefined };

export function stored(id: number, position: number, text: Parameters<typeof unit>[4] = {}): StoredUnit {
  return { ...unit(translationUrl, id, position, BigInt(id) * 1_000_003n, text), timestamp: '2025-11-28T05:07:50.324Z' } as StoredUnit;
}

export function context(overrides: Partial<UnitContext> = {}): UnitContext {
  return {
    source: textLanguage('en', 'ltr', 'ltr'),
    target: textLanguage('de', 'ltr', 'ltr'),
    sourceLabels: () => [],
    targetLabels: () => [],
    locations: () => [],
    allLanguages: (u) => `../../../strings/00/${String(u.id).padStart(16, '0')}/index.html`,
    live: (u) => u.web_url,
    ...overrides,
  };
}
