import type { z } from 'zod';
import { type AnyResource, type DriftChange, namesDrift } from '../api/fields.ts';
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

/** What a set of field names decides, as count keys; the kept fields held, with their key if retyped. */
interface Shape {
  names: string[];
  fixed: string[];
  present: [field: string, fits: (value: unknown) => boolean, key: string][];
}

/**
 * Whether a value is of a kept field's measured JSON type: the plain checks for what kept fields
 * are (string, number, boolean, array, unknown, nullable or optional of those), zod for anything
 * else. `safeParse` seven times a unit cost a third of the unit's own validation.
 */
function fitsType(schema: z.ZodType): (value: unknown) => boolean {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  switch (def.type) {
    case 'string':
    case 'boolean':
      return (value) => typeof value === def.type;
    case 'number':
      return (value) => typeof value === 'number';
    case 'array':
      return Array.isArray;
    case 'unknown':
      return () => true;
    case 'nullable': {
      const inner = fitsType(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case 'optional': {
      const inner = fitsType(def.innerType!);
      return (value) => value === undefined || inner(value);
    }
    default:
      return (value) => schema.safeParse(value).success;
  }
}

const keyOf = (resource: string, field: string, change: DriftChange) => `${resource}\t${field}\t${change}`;

/** Shapes by resource and field names: a 2026.10.1 unit's names checked once, not 10M times (`driftKeysOf`). */
const shapes = new WeakMap<AnyResource, Map<string, Shape>>();
/** The shape each resource's last record had: the next one has the same names, in the same order, nearly always. */
const lastShapes = new WeakMap<AnyResource, Shape>();
/** Past this many sets of names for one resource, a server is not sending records of a few shapes: stop remembering. */
const maxShapes = 256;

/** Whether `object`'s own names are `names`, in order (no array made: `Object.keys` per unit was most of the cost). */
function hasNames(object: Record<string, unknown>, names: readonly string[]): boolean {
  let at = 0;
  for (const name in object) {
    if (!Object.hasOwn(object, name) || names[at] !== name) return false;
    at += 1;
  }
  return at === names.length;
}

function shapeOf(resource: AnyResource, object: Record<string, unknown>): Shape {
  const last = lastShapes.get(resource);
  if (last !== undefined && hasNames(object, last.names)) return last;
  const names = Object.keys(object);
  let known = shapes.get(resource);
  if (known === undefined) shapes.set(resource, (known = new Map()));
  const signature = names.join('\n');
  let shape = known.get(signature);
  if (shape === undefined) {
    const { fixed, present } = namesDrift(resource, names);
    shape = {
      names,
      fixed: fixed.map(({ field, change }) => keyOf(resource.name, field, change)),
      present: present.map((field) => [field, fitsType(resource.kept[field] as z.ZodType), keyOf(resource.name, field, 'retyped')]),
    };
    if (known.size < maxShapes) known.set(signature, shape);
  }
  lastShapes.set(resource, shape);
  return shape;
}

/** One record's drift, as count keys (`driftOf`'s, found faster). */
export function driftKeysOf(resource: AnyResource, record: unknown): string[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const object = record as Record<string, unknown>;
  const shape = shapeOf(resource, object);
  let keys = shape.fixed;
  for (const [field, fits, key] of shape.present) if (!fits(object[field])) keys = [...keys, key];
  return keys;
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
