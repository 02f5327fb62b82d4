import { type ApiRequest, type ApiResult, type Route, ApiError, READ_ONLY, notFound, ok, paginate, paginateStream } from '../api.ts';
import { actionCodes } from '../../../api/change.ts';
import type { Instance } from '../instance.ts';
import type { ChangeRow } from '../model.ts';
import { type ChangeFilter, QueryError, changeFilter, parseTimestamp } from '../query.ts';
import { changeRecord } from '../render.ts';

const WINDOW = 5000;

/** The first offset in [low, high) whose change is not `before(change)`; the log ascends in time. */
function bisect(instance: Instance, low: number, high: number, before: (change: ChangeRow) => boolean): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    const change = instance.model.changes(middle, 1)[0]!;
    if (before(change)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The offset of the first change at or after `time` (microseconds since the epoch). */
export function firstChangeFrom(instance: Instance, time: number): number {
  return bisect(instance, 0, instance.model.changeCount(), (change) => (parseTimestamp(change.timestamp) ?? 0) < time);
}

/** Offsets [start, end) of the changes inside the filter's time bounds, found by bisection. */
function timeRange(instance: Instance, filter: ChangeFilter): [number, number] {
  const time = (change: ChangeRow) => parseTimestamp(change.timestamp) ?? 0;
  const total = instance.model.changeCount();
  const start = filter.after === null ? 0 : bisect(instance, 0, total, (change) => time(change) < filter.after!);
  const end = filter.before === null ? total : bisect(instance, start, total, (change) => time(change) <= filter.before!);
  return [start, end];
}

/** Changes at offsets [start, end) in id order or newest first, read in windows. */
function* rangeStream(instance: Instance, start: number, end: number, newestFirst: boolean): Generator<ChangeRow> {
  if (!newestFirst) {
    for (let offset = start; offset < end; offset += WINDOW) yield* instance.model.changes(offset, Math.min(WINDOW, end - offset));
    return;
  }
  for (let stop = end; stop > start; stop -= WINDOW) {
    const from = Math.max(start, stop - WINDOW);
    yield* instance.model.changes(from, stop - from).reverse();
  }
}

function* offsetStream(instance: Instance, offsets: readonly number[], newestFirst: boolean): Generator<ChangeRow> {
  for (let i = 0; i < offsets.length; i++) {
    const change = instance.model.changes(offsets[newestFirst ? offsets.length - 1 - i : i]!, 1)[0];
    if (change) yield change;
  }
}

export function renderChange(request: ApiRequest, change: ChangeRow): Record<string, unknown> {
  const { instance } = request;
  const component = change.componentId === null ? undefined : instance.components.get(change.componentId);
  const translation = change.translationId === null ? undefined : instance.translations.get(change.translationId);
  return changeRecord(request.links, change, {
    // A unit removed since keeps its changes, but they no longer point at it.
    unit: change.unitId !== null && instance.model.unit(change.unitId) !== undefined,
    component: component ? { project: instance.projectOf(component), component } : null,
    translationCode: translation?.languageCode ?? null,
    alertDetails: request.authenticated,
  });
}

function visible(request: ApiRequest, change: ChangeRow): boolean {
  if (change.componentId === null) {
    // A change about a project alone is as visible as that project.
    const project = change.projectId == null ? undefined : request.instance.projects.get(change.projectId);
    return project === undefined || request.canSee(project);
  }
  const component = request.instance.components.get(change.componentId);
  return component !== undefined && request.canSee(request.instance.projectOf(component));
}

/** Weblate's filter is one `timestamp` range, so a real server reports both of its bounds under that name. */
function filterField(request: ApiRequest, parameter: string): string {
  return request.behaviours.fieldErrors && parameter.startsWith('timestamp_') ? 'timestamp' : parameter;
}

function parseFilter(request: ApiRequest): ChangeFilter {
  try {
    // The codes the server's ACTION_CHOICES hold: 5.4's, or 2026's up to 104.
    const known = actionCodes[request.behaviours.recentActions ? '2026' : '5.4'];
    return changeFilter(request.url.searchParams, request.behaviours.fieldErrors ? known : undefined);
  } catch (error) {
    if (error instanceof QueryError) {
      // Django's codes: a choice outside the list is `invalid_choice` (measured on 5.14.3), a bad date `invalid`.
      const code = error.parameter === 'action' ? 'invalid_choice' : 'invalid';
      throw new ApiError(400, code, error.message, filterField(request, error.parameter));
    }
    throw error;
  }
}

/** The object a changes list is about. */
export interface ChangeScope {
  kind: 'project' | 'component' | 'translation';
  id: number;
}

function inScope(instance: Instance, scope: ChangeScope, change: ChangeRow): boolean {
  if (scope.kind === 'translation') return change.translationId === scope.id;
  if (scope.kind === 'component') return change.componentId === scope.id;
  const component = change.componentId === null ? undefined : instance.components.get(change.componentId);
  return (component?.projectId ?? change.projectId) === scope.id;
}

function scopeOffsets(instance: Instance, scope: ChangeScope): readonly number[] {
  const index = instance.changeIndex();
  const byKind = { project: index.byProject, component: index.byComponent, translation: index.byTranslation }[scope.kind];
  return byKind.get(scope.id) ?? [];
}

/**
 * A changes list: `/api/changes/` when `scope` is null, else one object's. Lists read only
 * what they answer where they can: the global list its page (unless an action filter or
 * hidden projects make it scan), a time-bounded list its time range (bisected), so an
 * incremental crawl never waits for the whole log to be indexed.
 */
export function changesList(request: ApiRequest, scope: ChangeScope | null): ApiResult {
  const filter = parseFilter(request);
  const { instance, changesNewestFirst } = request;
  const render = (change: ChangeRow) => renderChange(request, change);
  const keep = (change: ChangeRow) => filter.matches(change) && visible(request, change) && (scope === null || inScope(instance, scope, change));
  const bounded = filter.after !== null || filter.before !== null;
  if (scope !== null && (instance.hasChangeIndex() || !bounded)) {
    const offsets = scopeOffsets(instance, scope);
    const selected = function* () {
      for (const change of offsetStream(instance, offsets, changesNewestFirst)) if (keep(change)) yield change;
    };
    return paginateStream(request, selected, render);
  }
  const [start, end] = timeRange(instance, filter);
  const allVisible = [...instance.projects.values()].every((project) => request.canSee(project));
  if (scope === null && filter.actions.size === 0 && filter.user === null && allVisible) {
    return paginate(request, end - start, (offset, limit) => {
      const from = changesNewestFirst ? end - offset - limit : start + offset;
      const rows = instance.model.changes(from, limit);
      return (changesNewestFirst ? rows.reverse() : rows).map(render);
    });
  }
  const selected = function* () {
    for (const change of rangeStream(instance, start, end, changesNewestFirst)) if (keep(change)) yield change;
  };
  return paginateStream(request, selected, render);
}

export const routes: Route[] = [
  { pattern: ['changes'], allow: READ_ONLY, handle: (request) => changesList(request, null) },
  {
    pattern: ['changes', ':id'],
    allow: READ_ONLY,
    handle(request, params) {
      if (!/^\d+$/.test(params.id ?? '')) throw notFound();
      const id = Number(params.id);
      const total = request.instance.model.changeCount();
      const offset = bisect(request.instance, 0, total, (change) => change.id < id);
      const change = offset < total ? request.instance.model.changes(offset, 1)[0] : undefined;
      if (!change || change.id !== id || !visible(request, change)) throw notFound();
      return ok(renderChange(request, change));
    },
  },
];
