import { type ApiRequest, type Route, ApiError, DETAIL_EDIT, READ_ONLY, notFound, ok, paginate, paginateStream, visibleTranslations } from '../api.ts';
import type { TranslationRow, UnitRow } from '../model.ts';
import { unitSizes } from '../pagination.ts';
import { QueryError, type UnitSearch, unitSearch } from '../query.ts';
import { unitRecord } from '../render.ts';

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
