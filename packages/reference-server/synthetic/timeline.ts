import { chance, topic } from './random.ts';

/**
 * When things happened, in three phases: setup events (projects, components and languages
 * created) fill a first week, source strings arrive over the next four weeks, and the
 * translations' latest changes spread over the year after that, so a string is always
 * added before it is translated. Within a phase, times rise with the change index, as
 * they rise with change ids on a real server. A fourth phase, a day after the last, holds the
 * edits of the spec's `edited` key (./edits.ts).
 */
const START_US = Date.UTC(2025, 0, 6) * 1000;
const WEEK_US = 7 * 24 * 3600 * 1_000_000;

const phases = {
  setup: { start: START_US, length: WEEK_US },
  sources: { start: START_US + WEEK_US, length: 4 * WEEK_US },
  targets: { start: START_US + 5 * WEEK_US, length: 52 * WEEK_US },
  // The spec's `edited` units: one night, a day after the last target change (still in the past).
  edits: { start: START_US + 57 * WEEK_US + WEEK_US / 7, length: WEEK_US / 7 },
} as const;

export type Phase = keyof typeof phases;
const phaseNumbers: Record<Phase, number> = { setup: 0, sources: 1, targets: 2, edits: 3 };

/** Time of event `index` of the `count` in a phase: one per equal slot, jittered inside it. */
export function eventTime(seed: number, phase: Phase, index: number, count: number): number {
  const { start, length } = phases[phase];
  return start + Math.floor(((index + chance(seed, topic.changeTime, phaseNumbers[phase], index)) * length) / count);
}

/** ISO 8601 UTC with microseconds and Z, as Weblate writes timestamps. */
export function isoMicroseconds(microseconds: number): string {
  const milliseconds = Math.floor(microseconds / 1000);
  const micros = String(microseconds % 1000).padStart(3, '0');
  return `${new Date(milliseconds).toISOString().slice(0, 23)}${micros}Z`;
}
