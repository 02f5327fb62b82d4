import { type ApiRequest, type ApiResult, type Route, ApiError, READ_ONLY, notFound, ok, paginateStream } from '../api.ts';
import type { Catalog } from '../catalog.ts';
import type { ChangeRow } from '../model.ts';
import { QueryError, changeFilter } from '../query.ts';
import { changeRecord } from '../render.ts';

const WINDOW = 5000;

/** Changes at the given offsets (or all), in id order or newest first. */
function* changeStream(catalog: Catalog, offsets: readonly number[] | null, newestFirst: boolean): Generator<ChangeRow> {
  const { model } = catalog;
  if (offsets === null) {
    const total = model.changeCount();
    if (!newestFirst) {
      yield* catalog.allChanges();
      return;
    }
    for (let end = total; end > 0; end -= WINDOW) {
      const start = Math.max(0, end - WINDOW);
      yield* model.changes(start, end - start).reverse();
    }
    return;
  }
  const ordered = newestFirst ? [...offsets].reverse() : offsets;
  for (const offset of ordered) {
    const change = model.changes(offset, 1)[0];
    if (change) yield change;
  }
}

export function renderChange(request: ApiRequest, change: ChangeRow): Record<string, unknown> {
  const { catalog } = request;
  const component = change.componentId === null ? undefined : catalog.components.get(change.componentId);
  const translation = change.translationId === null ? undefined : catalog.translations.get(change.translationId);
  return changeRecord(request.links, change, {
    // A unit removed since keeps its changes, but they no longer point at it.
    unit: change.unitId !== null && catalog.model.unit(change.unitId) !== undefined,
    component: component ? { project: catalog.projectOf(component), component } : null,
    translationCode: translation?.languageCode ?? null,
  });
}

function visible(request: ApiRequest, change: ChangeRow): boolean {
  if (change.componentId === null) return true;
  const component = request.catalog.components.get(change.componentId);
  return component !== undefined && request.canSee(request.catalog.projectOf(component));
}

/** A changes list (`/api/changes/` when `offsets` is null, else one object's), with its filters. */
export function changesList(request: ApiRequest, offsets: readonly number[] | null): ApiResult {
  let keep: (change: ChangeRow) => boolean;
  try {
    keep = changeFilter(request.url.searchParams);
  } catch (error) {
    if (error instanceof QueryError) throw new ApiError(400, 'invalid', `${error.parameter}: ${error.message}`);
    throw error;
  }
  function* selected() {
    for (const change of changeStream(request.catalog, offsets, request.changesNewestFirst)) {
      if (keep(change) && visible(request, change)) yield change;
    }
  }
  return paginateStream(request, selected, (change) => renderChange(request, change));
}

export const routes: Route[] = [
  { pattern: ['changes'], allow: READ_ONLY, handle: (request) => changesList(request, null) },
  {
    pattern: ['changes', ':id'],
    allow: READ_ONLY,
    handle(request, params) {
      const id = Number(params.id);
      if (!/^\d+$/.test(params.id ?? '')) throw notFound();
      const change = findChange(request.catalog, id);
      if (!change || !visible(request, change)) throw notFound();
      return ok(renderChange(request, change));
    },
  },
];

/** Changes are in ascending id order, so an id is found by bisection. */
function findChange(catalog: Catalog, id: number): ChangeRow | undefined {
  let low = 0;
  let high = catalog.model.changeCount() - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const change = catalog.model.changes(middle, 1)[0];
    if (!change) return undefined;
    if (change.id === id) return change;
    if (change.id < id) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
