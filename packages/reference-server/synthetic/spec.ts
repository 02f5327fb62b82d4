import { z } from 'zod';
import { maxTargetLanguages } from './languages.ts';

/** The most translations an instance may have: `translations()` is returned whole. */
const maxTranslations = 100_000;

const limits = {
  projects: { min: 1, max: 1000, fallback: 3 },
  components: { min: 1, max: 1000, fallback: 4 },
  languages: { min: 1, max: maxTargetLanguages, fallback: 10 },
  units: { min: 1, max: 100_000_000, fallback: 20_000 },
  seed: { min: 0, max: 0xffff_ffff, fallback: 1 },
  edited: { min: 0, max: 1000, fallback: 0 },
} as const;

type Key = keyof typeof limits;
const keys = Object.keys(limits) as Key[];
/** The keys of the instance's shape, which the message for an unknown key lists; `edited` is of its state. */
const shapeKeys = keys.filter((key) => key !== 'edited');

const count = (key: Key) => {
  const { min, max, fallback } = limits[key];
  return z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max)).default(fallback);
};

/**
 * The shape of a synthetic instance, as written after `--data synthetic:`.
 *
 * - `projects` (default 3): number of projects.
 * - `components` (default 4): components in each project; when 2 or more, the last one
 *   of each project is its glossary.
 * - `languages` (default 10): target languages of every component, taken in order from a
 *   fixed table of real languages (`./languages.ts`); each component also has its
 *   English source translation.
 * - `units` (default 20000): the total number of unit records in the instance, every
 *   translation counted, source ones included; "a 1M-unit instance" is `units=1000000`.
 *   Each component's strings appear once per translation, so when `units` is not a
 *   multiple of `languages + 1`, the last few translations of the largest component lack
 *   its newest string (as right after a string is added upstream).
 * - `seed` (default 1): any other seed gives different content with the same counts.
 * - `edited` (default 0): per mille of the target units a translator edited after the rest of the
 *   history (read-only strings left out), each with a "Translation changed" (or "Translation
 *   added") change at the end of the log: the same instance a night later, for measuring an
 *   incremental crawl (bench:crawl `--edited`; issue 27). `edited=10` is 1% of the strings.
 */
export const syntheticSpec = z
  .strictObject({
    projects: count('projects'),
    components: count('components'),
    languages: count('languages'),
    units: count('units'),
    seed: count('seed'),
    // Of the state, not the shape: left out of the spec unless given.
    edited: count('edited')
      .optional()
      .transform((value) => (value === 0 ? undefined : value)),
  })
  .superRefine((spec, context) => {
    const translations = spec.projects * spec.components * (spec.languages + 1);
    if (translations > maxTranslations) {
      context.addIssue({
        code: 'custom',
        path: ['languages'],
        message: `projects × components × (languages + 1) = ${translations} translations, more than the ${maxTranslations} allowed; lower one of them`,
      });
    } else if (spec.units < translations) {
      context.addIssue({
        code: 'custom',
        path: ['units'],
        message: `"units" (${spec.units}) must be at least the number of translations, projects × components × (languages + 1) = ${translations}, so that none is empty`,
      });
    }
  });

export type SyntheticSpec = z.infer<typeof syntheticSpec>;

export class SyntheticSpecError extends Error {
  override name = 'SyntheticSpecError';
}

/**
 * Reads `projects=P,components=C,languages=L,units=U,seed=S` (with or without the leading
 * `synthetic:`); keys may come in any order and omitted ones take their defaults.
 * Throws a `SyntheticSpecError` naming the bad key and what it expects.
 *
 * @example parseSyntheticSpec('synthetic:units=1000000,seed=7')
 */
export function parseSyntheticSpec(text: string): SyntheticSpec {
  const body = text.replace(/^synthetic:?/, '');
  const raw: Record<string, string> = {};
  for (const pair of body.split(',').filter((part) => part.trim() !== '')) {
    const [key = '', ...rest] = pair.split('=');
    const name = key.trim();
    if (!(keys as string[]).includes(name)) {
      fail(`unknown key "${name}" in "${pair}"; the keys are ${shapeKeys.join(', ')}, as in synthetic:projects=3,units=20000`);
    }
    if (rest.length !== 1 || rest[0]?.trim() === '') fail(`"${name}" needs one value, as in ${name}=${limits[name as Key].fallback}, got "${pair}"`);
    if (name in raw) fail(`"${name}" is given twice`);
    raw[name] = (rest[0] ?? '').trim();
  }
  const result = syntheticSpec.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = String(issue?.path[0] ?? '');
  if (issue?.code === 'custom') fail(issue.message);
  const { min, max } = limits[key as Key];
  fail(`"${key}" must be a whole number from ${min} to ${max}, got "${raw[key]}"`);
}

function fail(message: string): never {
  throw new SyntheticSpecError(`synthetic: ${message}`);
}
