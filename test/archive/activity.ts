import { seededRandom } from '../../packages/reference-server/data/random.ts';
import type { UnitChangeKind } from '../../archive/diff.ts';
import type { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import type { ChangeRow, UnitRow } from '../../packages/reference-server/model.ts';

/**
 * Random translator activity through the reference server's mutation hook, and what a diff of
 * before/after snapshots must show, derived from the change records each mutation returns.
 * Each unit is touched at most once, so every record maps to exactly one expected diff line.
 */

export interface ExpectedDiff {
  /** `<translation path>#<unit id>` → kind. */
  units: Map<string, UnitChangeKind>;
  /** `<translation path>#<unit id>` → the target the mutation wrote. */
  targets: Map<string, string[]>;
  addedTranslations: Set<string>;
  removedTranslations: Set<string>;
  /** Every change record the mutations returned. */
  records: ChangeRow[];
}

export function translationPath(model: MemoryModel, translationId: number): string {
  const translation = model.translations().find((row) => row.id === translationId)!;
  const component = model.components().find((row) => row.id === translation.componentId)!;
  const project = model.projects().find((row) => row.id === component.projectId)!;
  return `api/translations/${encodeURIComponent(project.slug)}/${encodeURIComponent(component.slug)}/${encodeURIComponent(translation.languageCode)}/`;
}

function allUnits(model: MemoryModel): UnitRow[] {
  return model.translations().flatMap((translation) => model.units(translation.id, 0, model.unitCount(translation.id)));
}

export interface ActivityOptions {
  /** How many unit mutations (translate, mark for edit, approve) to try. */
  unitMutations: number;
  /** Whether structural changes (new/removed strings, a new language, a removed component) may happen. */
  structural: boolean;
}

export function randomActivity(model: MemoryModel, seed: number, options: ActivityOptions): ExpectedDiff {
  const next = seededRandom(seed).next;
  const user = model.users()[0]?.username ?? 'admin';
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(next() * list.length)];
  const expected: ExpectedDiff = { units: new Map(), targets: new Map(), addedTranslations: new Set(), removedTranslations: new Set(), records: [] };
  const touched = new Set<number>();
  const frozenTranslations = new Set<number>();
  const unitKey = (unit: UnitRow) => `${translationPath(model, unit.translationId)}#${unit.id}`;

  if (options.structural && next() < 0.4 && model.components().length > 1) {
    const component = pick(model.components())!;
    const translations = model.translations().filter((row) => row.componentId === component.id);
    const paths = translations.map((row) => translationPath(model, row.id));
    const records = model.removeComponent(component.id, user);
    expected.records.push(...records);
    if (records.some((record) => record.action === 38)) for (const path of paths) expected.removedTranslations.add(path);
  }
  if (options.structural && next() < 0.5) {
    const languages = model.languages().map((language) => language.code);
    const candidates = model.components().flatMap((component) =>
      languages
        .filter((code) => !model.translations().some((row) => row.componentId === component.id && row.languageCode === code))
        .filter((code) => !component.language_regex || new RegExp(component.language_regex).test(code))
        .map((code) => ({ component, code })),
    );
    const choice = pick(candidates);
    if (choice) {
      const records = model.addLanguage(choice.component.id, choice.code, user);
      expected.records.push(...records);
      for (const record of records.filter((row) => row.action === 48)) {
        expected.addedTranslations.add(translationPath(model, record.translationId!));
        frozenTranslations.add(record.translationId!);
      }
    }
  }
  if (options.structural) {
    for (let n = Math.floor(next() * 3); n > 0; n--) {
      const component = pick(model.components())!;
      const records = model.addString(component.id, { source: [`New string ${seed}-${n}`], context: `ctx-${n}` }, user);
      expected.records.push(...records);
      for (const record of records.filter((row) => row.action === 13)) {
        if (frozenTranslations.has(record.translationId!)) continue;
        touched.add(record.unitId!);
        expected.units.set(`${translationPath(model, record.translationId!)}#${record.unitId}`, 'added');
      }
    }
    for (let n = Math.floor(next() * 2); n > 0; n--) {
      const sources = allUnits(model).filter((unit) => unit.sourceUnitId === unit.id && !touched.has(unit.id));
      const source = pick(sources);
      if (!source) break;
      const siblings = allUnits(model).filter((unit) => unit.sourceUnitId === source.id);
      if (siblings.some((unit) => touched.has(unit.id))) continue;
      const byTranslation = new Map(siblings.map((unit) => [unit.translationId, unit]));
      const records = model.removeString(source.id, user);
      expected.records.push(...records);
      for (const record of records.filter((row) => row.action === 63)) {
        const unit = byTranslation.get(record.translationId!)!;
        touched.add(unit.id);
        if (frozenTranslations.has(unit.translationId)) continue;
        expected.units.set(`${translationPath(model, unit.translationId)}#${unit.id}`, 'removed');
      }
    }
  }

  for (let n = 0; n < options.unitMutations; n++) {
    const unit = pick(
      allUnits(model).filter((row) => !touched.has(row.id) && !frozenTranslations.has(row.translationId) && row.sourceUnitId !== row.id && row.state !== 100),
    );
    if (!unit) break;
    const before = unit.state;
    const roll = next();
    let records: ChangeRow[] = [];
    const key = unitKey(unit);
    if (roll < 0.5 || before === 0) {
      const target = unit.target.map((_, form) => `T${seed}.${n}.${form} <b>&amp;</b>`);
      records = model.translate(unit.id, target, user);
      expected.targets.set(key, target);
    } else if (roll < 0.75) {
      records = model.markForEdit(unit.id, user);
    } else {
      try {
        records = model.approve(unit.id, user);
      } catch {
        continue; // review off in that project, or not in the translated state: nothing happened
      }
    }
    touched.add(unit.id);
    expected.records.push(...records);
    for (const record of records) {
      const kind = kindOfRecord(record, before);
      if (kind) expected.units.set(`${translationPath(model, record.translationId!)}#${record.unitId}`, kind);
    }
  }
  return expected;
}

/** What the diff must call a unit mutation, from its change record and the unit's state before it. */
function kindOfRecord(record: ChangeRow, stateBefore: number): UnitChangeKind | undefined {
  switch (record.action) {
    case 5:
      return 'translated';
    case 2:
      return stateBefore >= 10 && stateBefore < 20 ? 'translated' : 'changed';
    case 37:
      // Marking a unit that already needed editing changes nothing a snapshot can see.
      return stateBefore >= 10 && stateBefore < 20 ? undefined : 'marked_for_edit';
    case 36:
      return 'approved';
    default:
      return undefined;
  }
}
