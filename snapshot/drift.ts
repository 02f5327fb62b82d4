import { type AnyResource, type DriftChange, driftOf } from '../api/fields.ts';
import type { Drift } from './schemas.ts';

/**
 * Drift counted while a snapshot is written (docs/weblate-api.md, "Drift"): how many records of
 * each resource lack a field, hold it in another type or add one. Pure. Counts are keyed
 * `resource\tfield\tchange` so that they add up in the writer's journal.
 */
export type DriftCounts = Record<string, number>;

/** The drift of some records of one resource, added to `into`. */
export function countDrift(resource: AnyResource, records: Iterable<unknown>, into: DriftCounts = {}): DriftCounts {
  for (const record of records) for (const key of driftKeysOf(resource, record)) into[key] = (into[key] ?? 0) + 1;
  return into;
}

/** One record's drift, as count keys. */
export function driftKeysOf(resource: AnyResource, record: unknown): string[] {
  return driftOf(resource, record).map(({ resource: name, field, change }) => `${name}\t${field}\t${change}`);
}

export function addDrift(into: DriftCounts, from: DriftCounts | undefined): DriftCounts {
  if (from !== undefined) for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
  return into;
}

const changeOrder: Record<DriftChange, number> = { missing: 0, retyped: 1, new: 2 };

/** The manifest's `drift`: by resource (as the crawl meets them), then missing before retyped before new, then field. */
export function driftEntries(counts: DriftCounts, resourceOrder: readonly string[]): Drift {
  const rank = (name: string) => (resourceOrder.includes(name) ? resourceOrder.indexOf(name) : resourceOrder.length);
  return Object.entries(counts)
    .map(([key, records]) => {
      const [resource = '', field = '', change = 'new'] = key.split('\t');
      return { resource, field, change: change as DriftChange, records };
    })
    .sort(
      (a, b) =>
        rank(a.resource) - rank(b.resource) ||
        a.resource.localeCompare(b.resource) ||
        changeOrder[a.change] - changeOrder[b.change] ||
        a.field.localeCompare(b.field),
    );
}

/** Fields named in a group of the summary line before the rest are counted (`… and 12 more`). */
const namedFields = 6;

/**
 * Field names, shortest first: three or more sharing a prefix (2026's `inherit_*` and
 * `effective_*` pairs) as `inherit_* (13)`, and past `namedFields` only counted.
 */
function fieldList(fields: string[]): string {
  const byPrefix = new Map<string, string[]>();
  for (const field of fields) {
    const prefix = /^[a-z]+_/.exec(field)?.[0] ?? field;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), field]);
  }
  const names = [...byPrefix].flatMap(([prefix, members]) => (members.length >= 3 ? [`${prefix}* (${members.length})`] : members));
  return names.length <= namedFields ? names.join(', ') : `${names.slice(0, namedFields).join(', ')} and ${names.length - namedFields} more`;
}

/**
 * The crawl summary's one line: `drift: project: 2 fields missing in 3 (credits_url,
 * set_language_team); unit: automatically_translated new in 1,204`, fields of one resource
 * changed alike in as many records grouped; undefined when nothing drifted. The manifest lists
 * every field.
 */
export function driftLine(drift: Drift | undefined): string | undefined {
  if (drift === undefined || drift.length === 0) return undefined;
  const byResource = new Map<string, Map<string, string[]>>();
  for (const { resource, field, change, records } of drift) {
    const groups = byResource.get(resource) ?? new Map<string, string[]>();
    byResource.set(resource, groups);
    const group = `${change} in ${records.toLocaleString('en-US')}`;
    groups.set(group, [...(groups.get(group) ?? []), field]);
  }
  const said = ([group, fields]: [string, string[]]) =>
    fields.length === 1 ? `${fields[0]} ${group}` : `${fields.length} fields ${group} (${fieldList(fields)})`;
  const parts = [...byResource].map(([resource, groups]) => `${resource}: ${[...groups].map(said).join(', ')}`);
  return `drift: ${parts.join('; ')}`;
}
