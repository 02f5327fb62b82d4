import { z } from 'zod';

/**
 * A resource's fields in two parts (docs/weblate-api.md, "Drift"): `needed`, the fields some
 * stage of tmsnap reads, validated; `kept`, the fields kept only as data, stored as the server
 * sent them whatever their type. `kept` holds the shape the last measured server sent, used only
 * to report drift; in the schema each is `unknown`, so the compiler stops code that reads one.
 */
export interface Resource<Needed extends z.ZodRawShape, Kept extends z.ZodRawShape> {
  readonly name: string;
  readonly schema: z.ZodObject<Needed & { [Key in keyof Kept]: z.ZodOptional<z.ZodUnknown> }, z.core.$loose>;
  readonly needed: Needed;
  readonly kept: Kept;
  /**
   * A field whose absence marks a record the server sends in part on purpose (users without
   * `url`, as anonymous clients get them): its absent kept fields are no drift.
   */
  readonly partialWithout?: string | undefined;
}

export function resource<Needed extends z.ZodRawShape, Kept extends z.ZodRawShape>(
  name: string,
  needed: Needed,
  kept: Kept,
  options: { partialWithout?: string } = {},
): Resource<Needed, Kept> {
  // Optional as well as unknown: zod 4 requires the key of a plain `unknown()` to be present.
  const unknowns = Object.fromEntries(Object.keys(kept).map((key) => [key, z.unknown().optional()])) as { [Key in keyof Kept]: z.ZodOptional<z.ZodUnknown> };
  return { name, schema: z.looseObject({ ...needed, ...unknowns }), needed, kept, partialWithout: options.partialWithout };
}

/** Any resource, for code that walks fields without knowing which. */
export type AnyResource = Resource<z.ZodRawShape, z.ZodRawShape>;

/** How a field of a record differs from what the last measured server sent. */
export type DriftChange = 'missing' | 'retyped' | 'new';

/** One drifted field of one resource: `project: set_language_team missing`. */
export interface DriftKey {
  resource: string;
  field: string;
  change: DriftChange;
}

/**
 * What a record's field names alone say (pure): its `missing` and `new` fields, and the kept
 * fields it holds, whose types `driftOf` checks. Records of one server share a few sets of
 * names, so counting drift can reuse this per set (snapshot/drift.ts).
 */
export function namesDrift(resource: AnyResource, names: readonly string[]): { fixed: DriftKey[]; present: string[] } {
  const held = new Set(names);
  const partial = resource.partialWithout !== undefined && !held.has(resource.partialWithout);
  const fixed: DriftKey[] = [];
  const present: string[] = [];
  for (const [field, schema] of Object.entries(resource.kept)) {
    if (held.has(field)) present.push(field);
    // A field measured as optional may be absent, and so may any of a record sent in part.
    else if (!partial && !(schema instanceof z.ZodOptional)) fixed.push({ resource: resource.name, field, change: 'missing' });
  }
  for (const field of names) {
    if (!Object.hasOwn(resource.needed, field) && !Object.hasOwn(resource.kept, field)) fixed.push({ resource: resource.name, field, change: 'new' });
  }
  return { fixed, present };
}

/**
 * The drifted fields of one record (pure). Needed fields are not looked at: one that is
 * missing or of another type keeps the record raw, a problem (the writer's check). A `kept`
 * field is `missing` when absent (unless measured as optional, or the record is sent in part),
 * `retyped` when present but not of the measured type; a field the resource does not name is
 * `new`.
 */
export function driftOf(resource: AnyResource, record: unknown): DriftKey[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const object = record as Record<string, unknown>;
  const { fixed, present } = namesDrift(resource, Object.keys(object));
  const retyped = present
    .filter((field) => !(resource.kept[field] as z.ZodType).safeParse(object[field]).success)
    .map((field): DriftKey => ({ resource: resource.name, field, change: 'retyped' }));
  return [...fixed.filter((key) => key.change === 'missing'), ...retyped, ...fixed.filter((key) => key.change === 'new')];
}
