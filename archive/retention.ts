/**
 * Which snapshots a `--keep-daily/--keep-weekly/--keep-monthly` policy keeps: pure, so the
 * rules can be tested on made-up dates and `prune --dry-run` shows exactly what a real run does.
 *
 * Each rule counts on its own (as restic's `forget` does, not borg's cascade): `--keep-daily 7`
 * keeps the newest snapshot of each of the 7 most recent UTC days that have one, whatever the
 * weekly and monthly rules keep. A snapshot is kept when any rule wants it. The newest complete
 * snapshot is always kept, so a prune can never leave the site without data to build from, and
 * so is every snapshot a release tag pins (archive/tags.ts): a release outlives any policy.
 */

export interface RetentionPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

/** The fields of a snapshot summary the policy looks at. */
export interface DatedSnapshot {
  id: string;
  /** When the crawl started (the snapshot's date). */
  date: Date;
  complete: boolean;
}

export interface RetentionDecision<S extends DatedSnapshot> {
  snapshot: S;
  /** Why it stays, e.g. `daily 2026-11-22`, `newest complete`; empty when it goes. */
  reasons: string[];
}

export interface RetentionPlan<S extends DatedSnapshot> {
  keep: RetentionDecision<S>[];
  remove: S[];
}

type Period = (date: Date) => string;

const periods: Record<keyof RetentionPolicy, Period> = {
  daily: (date) => date.toISOString().slice(0, 10),
  weekly: isoWeek,
  monthly: (date) => date.toISOString().slice(0, 7),
};

/** Newest first in, newest first out. `pinned`: the tag names of each tagged snapshot's id. */
export function planRetention<S extends DatedSnapshot>(
  snapshots: readonly S[],
  policy: RetentionPolicy,
  pinned: ReadonlyMap<string, readonly string[]> = new Map(),
): RetentionPlan<S> {
  for (const [rule, count] of Object.entries(policy)) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`keep-${rule} must be a whole number from 0 up, got ${count}`);
  }
  const newestFirst = [...snapshots].sort((a, b) => b.date.getTime() - a.date.getTime() || (a.id < b.id ? 1 : -1));
  const reasons = new Map<string, string[]>(newestFirst.map((snapshot) => [snapshot.id, []]));
  const newestComplete = newestFirst.find((snapshot) => snapshot.complete);
  if (newestComplete) reasons.get(newestComplete.id)?.push('newest complete');
  for (const [id, names] of pinned) reasons.get(id)?.push(...names.map((name) => `tag ${name}`));

  for (const rule of Object.keys(periods) as (keyof RetentionPolicy)[]) {
    const seen = new Set<string>();
    for (const snapshot of newestFirst) {
      const period = periods[rule](snapshot.date);
      if (seen.has(period)) continue;
      if (seen.size === policy[rule]) break;
      seen.add(period);
      reasons.get(snapshot.id)?.push(`${rule} ${period}`);
    }
  }

  const keep: RetentionDecision<S>[] = [];
  const remove: S[] = [];
  for (const snapshot of newestFirst) {
    const why = reasons.get(snapshot.id) ?? [];
    if (why.length > 0) keep.push({ snapshot, reasons: why });
    else remove.push(snapshot);
  }
  return { keep, remove };
}

/** ISO 8601 week of a UTC date, e.g. `2026-W47` (weeks start on Monday; week 1 holds a Thursday). */
export function isoWeek(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
