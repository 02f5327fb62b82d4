/**
 * Reads the committed bundled dataset (`bundled/`, made by `make-bundled.ts`) into model rows.
 * Hashes are stored as exact JSON integers and come back as `bigint`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '../../../api/json.ts';
import type { AnnouncementRow, ChangeRow, ComponentRow, LanguageRow, NotificationRow, ProjectRow, TranslationRow, UnitRow, UserRow } from '../model.ts';
import type { ModelRows } from '../memory-model.ts';
import { ANNOUNCEMENTS } from './spec.ts';

export const BUNDLED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'bundled');

/** Every row of the bundled instance; units in ascending id. */
export type BundledRows = ModelRows;

const SECTIONS = ['languages', 'users', 'projects', 'components', 'translations', 'notifications', 'changes'] as const;

export class BundledDataError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}. Regenerate it with: node reference-server/data/make-bundled.ts`);
    this.name = 'BundledDataError';
  }
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BundledDataError(file, `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return parseJson(text);
  } catch (error) {
    throw new BundledDataError(file, `not valid JSON (${(error as Error).message})`);
  }
}

function toHash(value: unknown, file: string, field: string, id: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new BundledDataError(file, `unit ${String(id)} has no integer ${field}`);
}

/** Loads the dataset from `dir` (default: the committed one beside this module). */
export function loadBundledRows(dir: string = BUNDLED_DIR): BundledRows {
  const instanceFile = join(dir, 'instance.json');
  const instance = readJson(instanceFile);
  if (typeof instance !== 'object' || instance === null) throw new BundledDataError(instanceFile, 'expected an object');
  const record = instance as Record<string, unknown>;
  for (const section of SECTIONS) {
    if (!Array.isArray(record[section])) throw new BundledDataError(instanceFile, `"${section}" is not an array`);
  }

  const unitsDir = join(dir, 'units');
  const units: UnitRow[] = [];
  const files = readdirSync(unitsDir)
    .filter((name) => /^\d+\.json$/.test(name))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  for (const name of files) {
    const file = join(unitsDir, name);
    const rows = readJson(file);
    if (!Array.isArray(rows)) throw new BundledDataError(file, 'expected an array of units');
    for (const row of rows as Record<string, unknown>[]) {
      units.push({
        ...(row as unknown as UnitRow),
        idHash: toHash(row.idHash, file, 'idHash', row.id),
        contentHash: toHash(row.contentHash, file, 'contentHash', row.id),
      });
    }
  }
  units.sort((a, b) => a.id - b.id);

  const projects = record.projects as ProjectRow[];
  const components = record.components as ComponentRow[];
  return {
    languages: record.languages as LanguageRow[],
    users: record.users as UserRow[],
    projects,
    components,
    translations: record.translations as TranslationRow[],
    notifications: record.notifications as NotificationRow[],
    changes: record.changes as ChangeRow[],
    units,
    announcements: announcementRows(projects, components),
  };
}

/** The spec's announcements (spec.ts `ANNOUNCEMENTS`) as rows of this data, ids from 1. */
function announcementRows(projects: readonly ProjectRow[], components: readonly ComponentRow[]): AnnouncementRow[] {
  return ANNOUNCEMENTS.map((spec, index) => {
    const project = projects.find((row) => row.slug === spec.project);
    const component = spec.component === undefined ? undefined : components.find((row) => row.projectId === project?.id && row.slug === spec.component);
    if (project === undefined || (spec.component !== undefined && component === undefined))
      throw new Error(`announcement ${index + 1} is on ${spec.project}/${spec.component ?? ''}, which the bundled data lacks`);
    return {
      id: index + 1,
      projectId: project.id,
      componentId: component?.id ?? null,
      message: spec.message,
      severity: spec.severity,
      expiry: spec.expiry,
      notify: false,
    };
  });
}
