/**
 * The pages that grow with the instance, written outside Astro: the unit pages (100 units each),
 * the string pages (one source string in every language), the translation pages, their badges
 * and the archived raw files. Astro costs 20–40 ms and several MB of RSS per thousand files it
 * writes, whatever the file, which a million-unit instance's 50,000 such files cannot afford
 * (docs/site.md, "Pages written outside Astro"). Their bodies are string templates made in
 * src/templates/, in the frame every page shares (src/layouts/frame.ts); here they go straight
 * to a file.
 *
 * It streams component by component: a translation's units are read once, its unit pages and its
 * translation page written, and the strings it holds added to the component's index; once the
 * component's last translation is done, its string pages are written and the index let go.
 * Memory holds one component's strings, never the instance's. Each writer takes a share of the
 * components (`Shard`): site/bulk-workers.ts runs one per core in worker threads, beside Astro.
 *
 * Like the pages, it renders the build input `buildSite` hands over (site-model/build-input.ts;
 * a writer thread gets it as its `workerData`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { StoredUnit } from '../snapshot/index.ts';
import type { BuildInput } from '../site-model/build-input.ts';
import { history } from '../src/data/archive.ts';
import { provideBuildInput } from '../src/data/build-input.ts';
import { liveUrl, rawFile } from '../src/data/server-links.ts';
import { siteTree, type ComponentEntry, type SiteTree, type TranslationEntry } from '../src/data/tree.ts';
import { addStrings, sourceTranslation, stringsWithPages, type ComponentString } from '../src/data/units.ts';
import { frameContext } from '../src/layouts/frame.ts';
import { componentBadges, projectBadges, translationBadges } from '../src/templates/badges.ts';
import { translationPage } from '../src/templates/translation-page.ts';
import { listedNeeds, needPages } from '../src/templates/need-pages.ts';
import { stringPage, unitPages } from '../src/templates/unit-pages.ts';
import { sitePaths, stringChecksum, type SitePath } from '../site-model/paths.ts';

export interface BulkReport {
  unitPages: number;
  stringPages: number;
  translationPages: number;
  /** Badge files (SVG and JSON), archived raw translation files, and the lists of what needs work (src/templates/need-pages.ts). */
  otherFiles: number;
  bytes: number;
  seconds: number;
  /** Each writer thread's largest V8 heap, in bytes (site/bulk-worker.ts); none when written in the calling thread. */
  heapPeaks?: number[];
}

/**
 * The folders to make before writing into `folder`: it and each parent up to the first one in
 * `made` (the output folder is in it from the start), outermost first. Pure: the writer below
 * makes each folder once, parents first, rather than `mkdir -p` per file.
 */
export function foldersToMake(folder: string, made: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (let at = folder; !made.has(at); at = dirname(at)) {
    // The file system's root: no output folder above it was ever registered (not a path of `out`).
    if (dirname(at) === at) throw new Error(`${folder} lies outside the site folder`);
    missing.push(at);
  }
  return missing.reverse();
}

/**
 * Writes pages with synchronous calls, each folder made once: a writer thread has nothing else
 * to do meanwhile, and a promise per `mkdir`, `open`, `write` and `close` cost each writer a
 * fifth of its time at 1M (docs/decisions/2026-11-29-build-1m.md). A folder another process
 * made first (Astro's, in the same site) is fine: `recursive` takes an existing one.
 */
export class PageWriter {
  private readonly made: Set<string>;
  bytes = 0;

  private readonly out: string;
  private readonly onPage: () => void;

  constructor(out: string, onPage: () => void = () => {}) {
    // `join` gives normalized paths: so must the folder they are told apart from.
    this.out = resolve(out);
    this.onPage = onPage;
    this.made = new Set([this.out]);
  }

  write(path: SitePath, text: string | Uint8Array): void {
    const file = join(this.out, path);
    for (const folder of foldersToMake(dirname(file), this.made)) {
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    writeFileSync(file, bytes);
    this.bytes += bytes.length;
    this.onPage();
  }
}

/** Which share of the components a writer takes: `index` of `count` writers running at once (site/bulk-workers.ts). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The components of `shard`: each goes to the share with the fewest units so far, largest first,
 * so that writers running side by side finish about together. Project badges go to share 0.
 */
export function componentsOfShard(components: readonly ComponentEntry[], shard: Shard): ComponentEntry[] {
  const size = (component: ComponentEntry) => component.translations.reduce((sum, translation) => sum + translation.record.total + 100, 0);
  const loads = Array.from({ length: shard.count }, () => 0);
  const mine = new Set<ComponentEntry>();
  for (const component of [...components].sort((a, b) => size(b) - size(a))) {
    const least = loads.indexOf(Math.min(...loads));
    loads[least] = (loads[least] ?? 0) + size(component);
    if (least === shard.index) mine.add(component);
  }
  return components.filter((component) => mine.has(component));
}

/**
 * The unit, string and translation pages, badges and raw files of the build's snapshot, into
 * `out`, for the components of `shard`; `onPage` is called once per file written.
 */
export async function writeBulkPages(
  input: BuildInput,
  out: string,
  onPage: () => void = () => {},
  shard: Shard = { index: 0, count: 1 },
): Promise<BulkReport> {
  const started = performance.now();
  // src/data/ reads what it needs of the snapshot once per input (src/data/build-input.ts).
  provideBuildInput(input);
  const tree = await siteTree();
  const frame = await frameContext();
  const writer = new PageWriter(out, onPage);
  const report = { unitPages: 0, stringPages: 0, translationPages: 0, otherFiles: 0 };
  const all = await history();
  const stored = tree.snapshot.paths();
  const writeFiles = (files: ReadonlyArray<[SitePath, string]>) => {
    for (const file of files) writer.write(...file);
    report.otherFiles += files.length;
  };
  if (shard.index === 0) for (const project of tree.projects) writeFiles(projectBadges(project, frame.ui));
  for (const component of componentsOfShard(tree.components, shard)) {
    writeFiles(componentBadges(component, frame.ui));
    const source = sourceTranslation(component);
    const sourceUnits = source === undefined ? undefined : await tree.snapshot.units(source.path);
    const hasPage = stringsWithPages(component, sourceUnits);
    // The source unit a string's page shows (its location, context, note, explanation, flags):
    // units with the same ones do not repeat them.
    const sourceByChecksum = new Map(sourceUnits?.map((unit) => [stringChecksum(unit.id_hash), unit]));
    const stringPageSource = (unit: StoredUnit) => {
      const checksum = stringChecksum(unit.id_hash);
      return hasPage(checksum) ? sourceByChecksum.get(checksum) : undefined;
    };
    const strings = new Map<string, ComponentString>();
    for (const translation of component.translations) {
      const list = translation === source && sourceUnits !== undefined ? sourceUnits : await tree.snapshot.units(translation.path);
      for await (const page of unitPages(tree, frame, translation, list, hasPage, stringPageSource)) {
        writer.write(...page);
        report.unitPages += 1;
      }
      // The raw file as the crawl archived it, for download, as published: without e-mail
      // addresses (and with --hide-authors without its translators; site-model/privacy.ts). The page
      // gives the size of what it links to.
      const file = stored.has(`${translation.path}file/`) ? await tree.snapshot.file(translation.path) : undefined;
      if (stored.has(`${translation.path}file/`) && !file) throw new Error(`snapshot ${tree.snapshot.id}: ${translation.path}file/ vanished while building`);
      const raw = await rawFile(translation);
      // The lists behind the counts of what needs work (issue 26), from the units just read.
      const lists = listedNeeds(translation, list, await tree.snapshot.statistics(translation.path));
      for (const page of needPages(tree, frame, translation, list, lists)) {
        writer.write(...page);
        report.otherFiles += 1;
      }
      writer.write(...translationPage(tree, frame, translation, list, raw && file ? { ...raw, size: file.bytes.length } : raw, all, lists));
      report.translationPages += 1;
      writeFiles(translationBadges(translation, frame.ui));
      if (file) {
        writer.write(sitePaths.file(translation.key, translation.record.filename), new Uint8Array(file.bytes));
        report.otherFiles += 1;
      }
      if (component.translations.length > 1) addStrings(strings, translation, list, translation === source);
    }
    for (const [checksum, found] of strings) {
      if (!hasPage(checksum)) continue;
      writer.write(...stringPage(tree, frame, component, checksum, found));
      report.stringPages += 1;
    }
  }
  return { ...report, bytes: writer.bytes, seconds: (performance.now() - started) / 1000 };
}
