import type { ChangeRow, UnitRow } from './model.ts';

/**
 * Query parameters of the list endpoints, parsed into predicates. Pure; a bad value gives
 * a `QueryError` naming the parameter, answered as 400 like Weblate's form errors.
 */
export class QueryError extends Error {
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
  }
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Microseconds since the epoch of an ISO 8601 time (no zone means UTC); null if not one. */
export function parseTimestamp(text: string): number | null {
  const match = TIMESTAMP.exec(text.trim());
  if (!match) return null;
  const [, date, time = '00:00', fraction = '', zone = 'Z'] = match;
  const millis = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${zone}`);
  if (Number.isNaN(millis)) return null;
  return millis * 1000 + Number(fraction.padEnd(6, '0'));
}

export type Comparison = '=' | '>' | '>=' | '<' | '<=';

function compare(value: number, operator: Comparison, bound: number): boolean {
  switch (operator) {
    case '=':
      return value === bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
  }
}

/** `/api/changes/` filters: `timestamp_after`, `timestamp_before` (both inclusive), `action` (repeatable), `user` (a username). */
export interface ChangeFilter {
  /** Microseconds since the epoch, or null when unbounded. */
  after: number | null;
  before: number | null;
  actions: ReadonlySet<number>;
  user: string | null;
  matches(change: ChangeRow): boolean;
}

/** `knownActions`: the codes `action` may name (a real server's choices); any number when left out. */
export function changeFilter(query: URLSearchParams, knownActions?: ReadonlySet<number>): ChangeFilter {
  const bound = (name: string): number | null => {
    const raw = query.get(name);
    if (raw === null || raw === '') return null;
    const value = parseTimestamp(raw);
    if (value === null) throw new QueryError(name, 'Enter a valid date/time.');
    return value;
  };
  const after = bound('timestamp_after');
  const before = bound('timestamp_before');
  const actions = new Set<number>();
  for (const raw of query.getAll('action')) {
    if (!/^\d+$/.test(raw) || (knownActions !== undefined && !knownActions.has(Number(raw)))) {
      throw new QueryError('action', `Select a valid choice. ${raw} is not one of the available choices.`);
    }
    actions.add(Number(raw));
  }
  const user = query.get('user') || null;
  return {
    after,
    before,
    actions,
    user,
    matches(change) {
      if (actions.size > 0 && !actions.has(change.action)) return false;
      if (user !== null && change.user !== user) return false;
      if (after === null && before === null) return true;
      const time = parseTimestamp(change.timestamp) ?? 0;
      return (after === null || time >= after) && (before === null || time <= before);
    },
  };
}

/** The scope terms of a unit search, used to pick translations before reading any unit. */
export interface UnitScope {
  project?: string;
  component?: string;
  language?: string;
}

export interface UnitSearch {
  scope: UnitScope;
  /** True when only scope terms were given, so every unit of the scoped translations matches. */
  scopeOnly: boolean;
  /**
   * The latest lower bound a `changed:` term (`>`, `>=` or `=`) puts on a matching unit's
   * timestamp, in microseconds: no unit last changed before it can match.
   */
  changedFrom?: number;
  matches(unit: UnitRow): boolean;
}

/** Weblate's `STATE_NAMES` (2026.10.1 `weblate/utils/state.py`; 11 and 12 since 5.15). */
const stateNames: Record<string, number> = {
  empty: 0,
  untranslated: 0,
  'needs-editing': 10,
  fuzzy: 10,
  'needs-rewriting': 11,
  'needs-checking': 12,
  translated: 20,
  approved: 30,
  'read-only': 100,
  readonly: 100,
};

/** `is:fuzzy` and `is:needs-editing` are Weblate's `FUZZY_STATES`, 10–12 (`weblate/utils/search.py`); `state:needs-editing` is 10 alone. */
const needsEditing = (unit: UnitRow) => unit.state >= 10 && unit.state < 20;

const isLookups: Record<string, (unit: UnitRow) => boolean> = {
  pending: (unit) => unit.pending,
  translated: (unit) => unit.state >= 20,
  untranslated: (unit) => unit.state < 20,
  approved: (unit) => unit.state === 30,
  fuzzy: needsEditing,
  'needs-editing': needsEditing,
  'read-only': (unit) => unit.state === 100,
  readonly: (unit) => unit.state === 100,
};

/** Splits a query into terms, keeping `"quoted values"` whole. */
function terms(q: string): string[] {
  return [...q.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((match) => match[0].replaceAll('"', ''));
}

function operatorOf(value: string): { operator: Comparison; operand: string } {
  const match = /^(>=|<=|>|<|=)?(.*)$/s.exec(value)!;
  return { operator: (match[1] as Comparison | undefined) ?? '=', operand: match[2] ?? '' };
}

/**
 * `/api/units/?q=`: Weblate's search language, the part a crawler uses: `project:`,
 * `component:`, `language:`, `state:` (a number or name, with `>=` etc.), `changed:` /
 * `last_changed:` with a time, `is:` (pending, translated, approved…), and free text matched in source, target and context. Terms are AND-ed.
 * `changed:` is matched on the unit's latest change time; Weblate matches units with a change of a
 * content action since (5.14.3 `ACTIONS_CONTENT`), so a unit whose latest change is a suggestion,
 * a comment or a repository update is listed here and not there (docs/weblate-api.md).
 */
export function unitSearch(q: string): UnitSearch {
  const scope: UnitScope = {};
  const tests: ((unit: UnitRow) => boolean)[] = [];
  let changedFrom: number | undefined;
  for (const term of terms(q)) {
    const colon = term.indexOf(':');
    if (colon < 0) {
      const needle = term.toLowerCase();
      tests.push((unit) => [...unit.source, ...unit.target, unit.context].some((text) => text.toLowerCase().includes(needle)));
      continue;
    }
    const field = term.slice(0, colon).toLowerCase();
    const value = term.slice(colon + 1);
    switch (field) {
      case 'project':
      case 'component':
      case 'language':
        scope[field] = value;
        break;
      case 'state': {
        const { operator, operand } = operatorOf(value);
        const state = /^\d+$/.test(operand) ? Number(operand) : stateNames[operand.toLowerCase()];
        if (state === undefined) throw new QueryError('q', `Unsupported state: ${operand}`);
        tests.push((unit) => compare(unit.state, operator, state));
        break;
      }
      case 'changed':
      case 'last_changed': {
        const { operator, operand } = operatorOf(value);
        const bound = parseTimestamp(operand);
        // Weblate 5.14.3's words for a time it cannot read (test/weblate/changed-since.test.ts).
        if (bound === null) throw new QueryError('q', 'Could not parse query string: Could not parse timestamp');
        if (operator !== '<' && operator !== '<=') changedFrom = Math.max(changedFrom ?? bound, bound);
        // `last_changed:` is the row's `last_updated`, which a commit moves too (memory-model.ts
        // `commitPending`); models whose unit times are in their log never commit.
        const time = field === 'changed' ? (unit: UnitRow) => unit.changed ?? unit.timestamp : (unit: UnitRow) => unit.last_updated ?? unit.timestamp;
        tests.push((unit) => compare(parseTimestamp(time(unit)) ?? 0, operator, bound));
        break;
      }
      case 'is': {
        // Weblate 5.14.3 `UnitTermExpr.is_field`; `is:pending` is what an incremental crawl asks after a commit.
        const test = isLookups[value.toLowerCase()];
        if (test === undefined) throw new QueryError('q', `Could not parse query string: Unsupported is lookup: ${value}`);
        tests.push(test);
        break;
      }
      default:
        throw new QueryError('q', `Unsupported search field: ${field}`);
    }
  }
  return {
    scope,
    scopeOnly: tests.length === 0,
    ...(changedFrom === undefined ? {} : { changedFrom }),
    matches: (unit) => tests.every((test) => test(unit)),
  };
}
