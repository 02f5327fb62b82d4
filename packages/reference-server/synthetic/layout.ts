import { type SyntheticLanguage, sourceLanguage, targetLanguages } from './languages.ts';
import { chance, topic } from './random.ts';
import type { SyntheticSpec } from './spec.ts';

export interface ComponentPlan {
  /** 0-based over the whole instance; the component's id is `index + 1`. */
  index: number;
  projectIndex: number;
  /** 0-based position inside its project. */
  slot: number;
  isGlossary: boolean;
  /** Source strings, i.e. units of its source translation. */
  strings: number;
  /** Source units of the components before this one (its first source unit's ordinal among all source units). */
  sourceBase: number;
  /** The same among target-language units. */
  targetBase: number;
}

export interface TranslationPlan {
  id: number;
  component: ComponentPlan;
  language: SyntheticLanguage;
  /** Position of the language among the targets; -1 for the source translation. */
  targetIndex: number;
  unitCount: number;
  /** Units of a translation have consecutive ids from here. */
  firstUnitId: number;
  /** The same for the component's source translation, whose units are the `source_unit`s. */
  sourceFirstUnitId: number;
}

/** How many of everything, and where each unit id lives: arithmetic over the spec only. */
export interface Layout {
  spec: SyntheticSpec;
  targets: readonly SyntheticLanguage[];
  components: readonly ComponentPlan[];
  translations: readonly TranslationPlan[];
  unitTotal: number;
  /** Units of source translations; the other `unitTotal - sourceTotal` are target units. */
  sourceTotal: number;
}

export function planLayout(spec: SyntheticSpec): Layout {
  const targets = targetLanguages(spec.languages);
  const perComponent = spec.languages + 1;
  const componentTotal = spec.projects * spec.components;
  const strings = Math.ceil(spec.units / perComponent);
  const missing = strings * perComponent - spec.units;

  const components: ComponentPlan[] = [];
  for (let projectIndex = 0; projectIndex < spec.projects; projectIndex++) {
    for (let slot = 0; slot < spec.components; slot++) {
      const isGlossary = spec.components >= 2 && slot === spec.components - 1;
      components.push({ index: components.length, projectIndex, slot, isGlossary, strings: 1, sourceBase: 0, targetBase: 0 });
    }
  }
  const sizes = splitStrings(strings, components, spec.seed);
  components.forEach((component, index) => (component.strings = sizes[index] ?? 1));

  // The largest component carries the shortfall, so no translation ends up empty.
  const short = components.reduce((best, component) => (component.strings > best.strings ? component : best));
  const translations: TranslationPlan[] = [];
  let nextUnitId = 1;
  let sourceTotal = 0;
  for (const component of components) {
    const sourceFirstUnitId = nextUnitId;
    component.sourceBase = sourceTotal;
    component.targetBase = nextUnitId - 1 - sourceTotal;
    sourceTotal += component.strings;
    for (let targetIndex = -1; targetIndex < targets.length; targetIndex++) {
      const lacksNewest = component === short && targetIndex >= targets.length - missing;
      const unitCount = component.strings - (lacksNewest ? 1 : 0);
      const language = targetIndex < 0 ? sourceLanguage : (targets[targetIndex] as SyntheticLanguage);
      translations.push({ id: translations.length + 1, component, language, targetIndex, unitCount, firstUnitId: nextUnitId, sourceFirstUnitId });
      nextUnitId += unitCount;
    }
  }
  if (components.length !== componentTotal || nextUnitId - 1 !== spec.units) {
    throw new Error(`synthetic layout lost count: ${nextUnitId - 1} units for ${spec.units}`);
  }
  return { spec, targets, components, translations, unitTotal: spec.units, sourceTotal };
}

/** Uneven but seeded component sizes, at least one string each, summing to `total`. */
function splitStrings(total: number, components: readonly ComponentPlan[], seed: number): number[] {
  const weights = components.map((component) => {
    const draw = chance(seed, topic.componentSize, component.index);
    return component.isGlossary ? 0.1 + 0.1 * draw : 0.4 + 1.2 * draw;
  });
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const spare = total - components.length;
  const sizes = weights.map((weight) => 1 + Math.floor((spare * weight) / weightSum));
  let leftover = total - sizes.reduce((sum, size) => sum + size, 0);
  for (let index = 0; leftover > 0; index = (index + 1) % sizes.length, leftover--) sizes[index] = (sizes[index] ?? 0) + 1;
  return sizes;
}

/** The translation holding unit `id` and the unit's index in it, or undefined. */
export function locateUnit(layout: Layout, id: number): { translation: TranslationPlan; index: number } | undefined {
  if (!Number.isInteger(id) || id < 1 || id > layout.unitTotal) return undefined;
  const { translations } = layout;
  let low = 0;
  let high = translations.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((translations[middle] as TranslationPlan).firstUnitId <= id) low = middle;
    else high = middle - 1;
  }
  const translation = translations[low] as TranslationPlan;
  return { translation, index: id - translation.firstUnitId };
}

/**
 * Unit ids counted among source units only, or among target units only: the change log
 * orders each kind on its own (`./timeline.ts`).
 */
export function kindOrdinal(translation: TranslationPlan, index: number): number {
  const { component } = translation;
  if (translation.targetIndex < 0) return component.sourceBase + index;
  return translation.firstUnitId + index - 1 - component.sourceBase - component.strings;
}

/** The unit id of a source (`source` true) or target unit ordinal; inverse of `kindOrdinal`. */
export function unitIdOfOrdinal(layout: Layout, source: boolean, ordinal: number): number {
  const { components } = layout;
  let low = 0;
  let high = components.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    const candidate = components[middle] as ComponentPlan;
    if ((source ? candidate.sourceBase : candidate.targetBase) <= ordinal) low = middle;
    else high = middle - 1;
  }
  const component = components[low] as ComponentPlan;
  const sourceFirstUnitId = component.targetBase + component.sourceBase + 1;
  const offset = ordinal - (source ? component.sourceBase : component.targetBase);
  return source ? sourceFirstUnitId + offset : sourceFirstUnitId + component.strings + offset;
}
