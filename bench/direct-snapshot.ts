/**
 * A scenario's snapshot written straight through the snapshot writer, without HTTP: the
 * synthetic instance's records rendered as the reference server renders them (5.4's shapes)
 * and stored one translation at a time, so memory holds one translation's units and one batch
 * of changes, whatever the instance's size. For build and search figures at sizes a crawl
 * takes too long to reach on a small machine (issue 14; the crawl row has its own bench).
 *
 * Resumable: the writer continues the unfinished snapshot of the same base URL; records and
 * unit lists already journalled are skipped, and changes restart at the last chunk written.
 *
 *   node bench/direct-snapshot.ts --scenario 1m|10m [--content DIR]
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDataset } from '../packages/reference-server/datasets.ts';
import { instanceOf } from '../packages/reference-server/instance.ts';
import type { ChangeRow, UnitRow } from '../packages/reference-server/model.ts';
import {
  changeRecord,
  componentPath,
  componentRecord,
  languageRecord,
  linksFor,
  projectRecord,
  translationPath,
  translationRecord,
  unitRecord,
  userRecord,
} from '../packages/reference-server/render.ts';
import { changesPerChunk, openSnapshotWriter, type Snapshot } from '../snapshot/index.ts';
import { figureOf, loadText, startBench } from './harness.ts';
import { scenarioNamed, scenarioResults } from './scenarios.ts';

/** The origin every record names: never contacted, only stored. */
export const directOrigin = 'http://synthetic.invalid';
const CHANGE_BATCH = 10_000;
/** A record's path in the journal: its URL below the API root. */
const apiPath = (url: string) => url.slice(`${directOrigin}/api/`.length);

export interface DirectProgress {
  stage: 'structure' | 'units' | 'changes' | 'finishing';
  done: number;
  total: number;
}

export interface DirectResult {
  id: string;
  units: number;
  changes: number;
  /** Whether an unfinished write was continued. */
  resumed: boolean;
}

/** The first change id still to write: the start of the last chunk file an earlier run left (rewritten whole). */
async function changesResumePoint(partialDir: string): Promise<number> {
  const names = await readdir(join(partialDir, 'changes')).catch(() => [] as string[]);
  const chunks = names.map((name) => /^(\d+)\.json$/.exec(name)?.[1]).filter((n) => n !== undefined);
  if (chunks.length === 0) return 1;
  return Math.max(1, Math.max(...chunks.map(Number)) * changesPerChunk);
}

/**
 * A later night on top of `previous` (bench/dataset.ts `--scenario`): the units of `edits` (unit id →
 * its newest edit) carry that edit, translations none of `touched` names keep their unit lists by
 * reference, every change chunk of `previous` is carried and `changes` are added after them.
 */
export interface DirectNight {
  previous: Snapshot;
  edits: ReadonlyMap<number, UnitEdit>;
  touched: ReadonlySet<number>;
  changes: readonly ChangeRow[];
}

/** A unit's edit: its target reworded on a night, its state kept (so statistics stay true). */
export interface UnitEdit {
  night: number;
  timestamp: string;
}

export async function writeDirectSnapshot(
  contentDir: string,
  data: string,
  onProgress: (progress: DirectProgress) => void = () => {},
  night?: DirectNight,
): Promise<DirectResult> {
  const model = await loadDataset(data);
  const instance = instanceOf(model);
  // 5.4's shapes: no `format` in links, its extra fields (as a crawl of the default profile stores).
  const links = linksFor(directOrigin, '', null, true);
  const writer = await openSnapshotWriter(contentDir, {
    baseUrl: `${directOrigin}/api/`,
    scope: {},
    tmsnapVersion: 'bench-direct',
    resume: night === undefined,
    ...(night ? { previous: night.previous } : {}),
  });
  const resumed = writer.journal.size > 0;
  const put = async (url: string, record: () => unknown) => {
    if (!writer.has(url)) await writer.putRecord(url, record());
  };

  onProgress({ stage: 'structure', done: 0, total: 1 });
  for (const language of instance.languages.values())
    await put(links.api(`languages/${encodeURIComponent(language.code)}/`), () => languageRecord(links, language));
  for (const user of instance.users.values()) await put(links.api(`users/${encodeURIComponent(user.username)}/`), () => userRecord(links, user, 'full'));
  for (const project of instance.projects.values()) await put(links.api(`projects/${encodeURIComponent(project.slug)}/`), () => projectRecord(links, project));
  for (const component of instance.components.values()) {
    const project = instance.projectOf(component);
    await put(links.api(`components/${componentPath(project, component)}`), () =>
      componentRecord(links, component, project, instance.language(component.sourceLanguage)),
    );
  }

  const translations = [...instance.translations.values()];
  const unitTotal = translations.reduce((sum, translation) => sum + model.unitCount(translation.id), 0);
  let units = 0;
  for (const [done, translation] of translations.entries()) {
    const component = instance.componentOf(translation);
    const project = instance.projectOf(component);
    const url = links.api(`translations/${translationPath(project, component, translation.languageCode)}`);
    const count = model.unitCount(translation.id);
    await put(url, () =>
      translationRecord(
        links,
        {
          translation,
          component,
          project,
          language: instance.language(translation.languageCode),
          sourceLanguage: instance.language(component.sourceLanguage),
          counts: instance.counts(translation.id),
          last: instance.lastChange([translation.id]),
        },
        true,
      ),
    );
    const carried = night !== undefined && !night.touched.has(translation.id) && (await writer.carry(night.previous, apiPath(`${url}units/`)));
    if (!carried && !writer.has(`${url}units/`)) {
      const place = { project, component, languageCode: translation.languageCode };
      const edited = (unit: UnitRow): UnitRow => {
        const edit = night?.edits.get(unit.id);
        if (edit === undefined) return unit;
        return { ...unit, target: unit.target.map((form) => `${form} (night ${edit.night})`), last_updated: edit.timestamp, changed: edit.timestamp };
      };
      await writer.putUnits(
        url,
        model.units(translation.id, 0, count).map((unit) => unitRecord(links, edited(unit), place)),
      );
    }
    units += count;
    if (done % 50 === 0 || done === translations.length - 1) onProgress({ stage: 'units', done: units, total: unitTotal });
  }

  const total = model.changeCount();
  const renderChange = (change: ChangeRow) => {
    const component = change.componentId === null ? undefined : instance.components.get(change.componentId);
    const translation = change.translationId === null ? undefined : instance.translations.get(change.translationId);
    return changeRecord(links, change, {
      unit: change.unitId !== null,
      component: component ? { project: instance.projectOf(component), component } : null,
      translationCode: translation?.languageCode ?? null,
    });
  };
  if (night) {
    if (!(await writer.carryChanges(night.previous, night.previous.index.changes))) throw new Error('cannot carry the previous snapshot’s change chunks');
    for (let offset = 0; offset < night.changes.length; offset += CHANGE_BATCH)
      await writer.putChanges(night.changes.slice(offset, offset + CHANGE_BATCH).map(renderChange));
  } else {
    // Synthetic change ids run 1…total in log order: id n is at offset n - 1.
    for (let offset = (await changesResumePoint(writer.dir)) - 1; offset < total; offset += CHANGE_BATCH) {
      await writer.putChanges(model.changes(offset, CHANGE_BATCH).map(renderChange));
      onProgress({ stage: 'changes', done: Math.min(total, offset + CHANGE_BATCH), total });
    }
  }

  onProgress({ stage: 'finishing', done: 0, total: 1 });
  const finished = await writer.finish({ requests: { made: 0, minimum: 0 }, problems: [], complete: true });
  return { id: finished.id, units, changes: total + (night?.changes.length ?? 0), resumed };
}

/** Bytes of every file under `dir`. */
export async function diskBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { scenario: { type: 'string', default: '1m' }, content: { type: 'string' } } });
  const scenario = scenarioNamed(values.scenario);
  const content = values.content ?? scenarioResults(scenario.name).content;
  const bench = startBench('direct-snapshot');
  console.log(`input: scenario ${scenario.name}, --data ${scenario.data} (${scenario.about}) → ${content}`);
  const started = performance.now();
  let last = 0;
  const result = await writeDirectSnapshot(content, scenario.data, (progress) => {
    if (performance.now() - last < 10_000 && progress.stage !== 'finishing') return;
    last = performance.now();
    const rss = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
    process.stderr.write(
      `${((last - started) / 1000).toFixed(0)} s: ${progress.stage} ${progress.done}/${progress.total}, RSS ${rss} MiB, load ${bench.load()[0].toFixed(1)}\n`,
    );
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`snapshot ${result.id}${result.resumed ? ' (continued an unfinished write)' : ''}: ${result.units} units, ${result.changes} changes`);
  const cpuSeconds = process.cpuUsage().user / 1e6;
  const peakRss = process.resourceUsage().maxRSS / 1024;
  const disk = (await diskBytes(content)) / 2 ** 20;
  console.log(`  wall time  ${seconds.toFixed(0)} s (this sitting); CPU ${cpuSeconds.toFixed(0)} s user`);
  console.log(`  peak RSS   ${peakRss.toFixed(0)} MiB`);
  console.log(`  on disk    ${disk.toFixed(1)} MiB in ${content}`);
  console.log(`load average at end: ${loadText(bench.load())}`);
  await bench.record({
    input: {
      size: scenario.name,
      about: `--data ${scenario.data}: ${result.units} units, ${result.changes} changes${result.resumed ? '; continued an unfinished write, figures of this sitting' : ''}`,
    },
    figures: [
      figureOf('wall time', 's', seconds),
      figureOf('CPU, user', 's', cpuSeconds),
      figureOf('units', 'units/s', result.units / seconds),
      figureOf('peak RSS', 'MiB', peakRss),
      figureOf('on disk', 'MiB', disk),
    ],
  });
}
