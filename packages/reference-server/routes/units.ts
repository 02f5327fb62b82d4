import {
  type ApiRequest,
  type Route,
  ApiError,
  DETAIL_EDIT,
  READ_ONLY,
  notFound,
  ok,
  paginate,
  paginateArray,
  paginateStream,
  visibleTranslations,
} from '../api.ts';
import type { TranslationRow, UnitRow } from '../model.ts';
import { unitSizes } from '../pagination.ts';
import { QueryError, type UnitSearch, unitSearch } from '../query.ts';
import { unitRecord } from '../render.ts';
import { firstChangeFrom } from './changes.ts';

export function renderUnit(request: ApiRequest, unit: UnitRow): Record<string, unknown> {
  const { instance } = request;
  const translation = instance.translations.get(unit.translationId)!;
  const component = instance.componentOf(translation);
  return unitRecord(request.links, unit, { project: instance.projectOf(component), component, languageCode: translation.languageCode });
}

/** A `q` search, or a 400 naming what in it is wrong. */
export function parseSearch(q: string): UnitSearch {
  try {
    return unitSearch(q);
  } catch (error) {
    if (error instanceof QueryError) throw new ApiError(400, 'invalid', error.message, error.parameter);
    throw error;
  }
}

/** Translations a search can touch, picked by its scope terms before any unit is read. */
function scopedTranslations(request: ApiRequest, search: UnitSearch): TranslationRow[] {
  const { instance } = request;
  const { project, component, language } = search.scope;
  return visibleTranslations(request).filter((translation) => {
    const row = instance.componentOf(translation);
    return (
      (project === undefined || instance.projectOf(row).slug === project) &&
      (component === undefined || row.slug === component) &&
      (language === undefined || translation.languageCode === language)
    );
  });
}

/** Units of several translations in order, `limit` of them from `offset`, reading only the windows needed. */
function unitsWindow(request: ApiRequest, translations: readonly TranslationRow[], offset: number, limit: number): UnitRow[] {
  const { model } = request.instance;
  const units: UnitRow[] = [];
  let skip = offset;
  for (const translation of translations) {
    if (units.length >= limit) break;
    const count = model.unitCount(translation.id);
    if (skip >= count) {
      skip -= count;
      continue;
    }
    units.push(...model.units(translation.id, skip, limit - units.length));
    skip = 0;
  }
  return units;
}

const LOG_WINDOW = 5000;

/**
 * The ids of the units of `translations` that `search` matches, in the list's order
 * (translation, then id), found from the change log: every unit changed since `changedFrom`
 * has a change there, so only the log's tail is read and its units checked (reading every unit
 * took 1,411 s on a 10M-unit instance for the newest 1%). Only for models whose unit times are
 * in the log; undefined when the tail is longer than half the units, where the scan is cheaper.
 */
function changedUnitIds(request: ApiRequest, translations: readonly TranslationRow[], search: UnitSearch, changedFrom: number): number[] | undefined {
  const { instance } = request;
  const { model } = instance;
  const total = model.changeCount();
  const first = firstChangeFrom(instance, changedFrom);
  const units = translations.reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
  if (total - first > units / 2) return undefined;
  const place = new Map(translations.map((translation, index) => [translation.id, index]));
  const seen = new Set<number>();
  // Sorted by one number: a translation's place above the unit id (ids under 2^27, as the spec limits allow).
  const keys: number[] = [];
  for (let offset = first; offset < total; offset += LOG_WINDOW) {
    for (const change of model.changes(offset, LOG_WINDOW)) {
      if (change.unitId === null || change.translationId === null || !place.has(change.translationId) || seen.has(change.unitId)) continue;
      seen.add(change.unitId);
      const unit = model.unit(change.unitId);
      const at = unit === undefined ? undefined : place.get(unit.translationId);
      if (unit !== undefined && at !== undefined && search.matches(unit)) keys.push(at * 2 ** 27 + unit.id);
    }
  }
  return keys.sort((a, b) => a - b).map((key) => key % 2 ** 27);
}

export const routes: Route[] = [
  {
    // Ordered by translation, then id: stable, so pages never shift while nothing changes.
    pattern: ['units'],
    allow: READ_ONLY,
    handle(request) {
      const search = parseSearch(request.url.searchParams.get('q') ?? '');
      const translations = scopedTranslations(request, search);
      const render = (unit: UnitRow) => renderUnit(request, unit);
      if (search.scopeOnly) {
        const count = translations.reduce((sum, translation) => sum + request.instance.model.unitCount(translation.id), 0);
        return paginate(request, count, (offset, limit) => unitsWindow(request, translations, offset, limit).map(render), unitSizes);
      }
      const changed =
        search.changedFrom !== undefined && request.instance.model.unitTimesInLog
          ? changedUnitIds(request, translations, search, search.changedFrom)
          : undefined;
      if (changed !== undefined) return paginateArray(request, changed, (id) => render(request.instance.model.unit(id)!), unitSizes);
      const units = function* () {
        for (const translation of translations) for (const unit of request.instance.unitsOf(translation.id)) if (search.matches(unit)) yield unit;
      };
      return paginateStream(request, units, render, unitSizes);
    },
  },
  {
    pattern: ['units', ':id'],
    allow: DETAIL_EDIT,
    handle: (request, params) => ok(renderUnit(request, findUnit(request, params.id))),
  },
  {
    // The target-language units of a string: a plain array, like project languages/.
    pattern: ['units', ':id', 'translations'],
    allow: READ_ONLY,
    handle(request, params) {
      const unit = findUnit(request, params.id);
      const { instance } = request;
      const component = instance.componentOf(instance.translations.get(unit.translationId)!);
      const targets: UnitRow[] = [];
      for (const translation of instance.translationsOf(component.id)) {
        if (translation.languageCode === component.sourceLanguage) continue;
        for (const row of instance.unitsOf(translation.id)) {
          if (row.sourceUnitId === unit.sourceUnitId) {
            targets.push(row);
            break;
          }
        }
      }
      return ok(targets.map((row) => renderUnit(request, row)));
    },
  },
];

function findUnit(request: ApiRequest, id: string | undefined): UnitRow {
  if (!/^\d+$/.test(id ?? '')) throw notFound();
  const unit = request.instance.model.unit(Number(id));
  const translation = unit && request.instance.translations.get(unit.translationId);
  if (!unit || !translation || !request.canSee(request.instance.projectOf(request.instance.componentOf(translation)))) throw notFound();
  return unit;
}
