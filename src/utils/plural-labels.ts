import { pageUi, type PageUi } from '../i18n/page.ts';
import { PluralFormulaError, pluralExamples } from './plural.ts';

const english = pageUi('en');

const cache = new Map<string, number[][] | PluralFormulaError>();

function examplesFor(formula: string, forms: number): number[][] | PluralFormulaError {
  const key = `${forms}\u0000${formula}`;
  let examples = cache.get(key);
  if (!examples) {
    try {
      examples = pluralExamples(formula, forms, 5);
    } catch (error) {
      if (!(error instanceof PluralFormulaError)) throw error;
      examples = error;
    }
    cache.set(key, examples);
  }
  return examples;
}

/**
 * A label per plural form of a string, e.g. `Form 2 (n = 2, 3, 4, 22, 23…)`. A string with
 * one form gets no label; a formula the parser refuses leaves plain form numbers.
 */
export function pluralLabels(plural: { formula: string; number: number } | undefined, forms: number, ui: PageUi = english): string[] {
  if (forms <= 1) return forms === 1 ? [''] : [];
  const examples = plural ? examplesFor(plural.formula, Math.max(plural.number, forms)) : undefined;
  return Array.from({ length: forms }, (_, form) => {
    const counts = Array.isArray(examples) ? examples[form] : undefined;
    if (!counts || counts.length === 0) return ui.t('plural.form', { form: form + 1 });
    return ui.t('plural.formCounts', { form: form + 1, counts: `${counts.map(ui.number).join(', ')}${counts.length >= 5 ? '…' : ''}` });
  });
}

/** The reason a language's formula could not be used, for the language page. */
export function pluralProblem(plural: { formula: string; number: number }): string | undefined {
  const examples = examplesFor(plural.formula, plural.number);
  return examples instanceof PluralFormulaError ? examples.message : undefined;
}

export function pluralExamplesOf(plural: { formula: string; number: number }): number[][] {
  const examples = examplesFor(plural.formula, plural.number);
  return examples instanceof PluralFormulaError ? [] : examples;
}
