/**
 * Incremental crawl: a crawl with a previous complete snapshot of the same server and scope
 * fetches only what changed since. The change log since that snapshot names the touched
 * translations, components, projects, languages and users; lists are still fetched in full,
 * so new and removed objects show (removals are detected from lists, not from change actions);
 * every sub-resource of an untouched object, and the units, file and statistics of an
 * untouched translation, are carried over from the previous snapshot: same normalized bytes,
 * same objects, no request. The crawl hands each task to `take` before running it.
 */
import type { HttpClient } from './http/client.ts';
import { findLinks, rebasePageLink, resolveLink, rootPath, withParameters } from './links.ts';
import { isHistory, phases, planLink } from './plan.ts';
import type { RequestQueue } from './queue/request-queue.ts';
import type { Task } from './queue/task.ts';
import type { StoredTranslations } from './queue/translations.ts';
import type { UnitSpool } from './queue/unit-spool.ts';
import type { CrawlScope } from './scope.ts';
import { listWorthIt, mergeUnits, noteChange, noUnitChanges, type UnitChanges } from './tasks/changed-units.ts';
import { pageSizes } from './tasks/context.ts';
import { HttpStatusError } from './errors.ts';
import { action } from '../api/change.ts';
import { page } from '../api/common.ts';
import { type ApiPath, apiPaths, objectPath, parseApiPath } from '../api/paths.ts';
import { z } from 'zod';
import {
  withoutFormatApi,
  decodeLink,
  expandRecord,
  kindOfPath,
  type RecordLookup,
  listSnapshots,
  openSnapshot,
  type Snapshot,
  type Scope,
  type ChangeChunk,
  type SnapshotWriter,
  canonicalJson,
} from '../snapshot/index.ts';

/** What the crawl lends `take`. */
export interface CrawlContext {
  apiRoot: URL;
  client: HttpClient;
  queue: RequestQueue;
  translations: StoredTranslations;
  /** When the crawl began: the change log is read up to it. */
  started: string;
  writer: SnapshotWriter;
  /** Units fetched so far, per translation URL. */
  spool: UnitSpool;
}

/**
 * Without a change in the previous snapshot to start the window from, it starts this long
 * before that crawl began, for a server clock behind ours. Changes are de-duplicated by id, so
 * an overlap costs nothing but a few rows.
 */
const clockSkewMs = 60 * 60 * 1000;

/** Marks the task that carries the previous snapshot's changes over; never sent to a server. */
const carryMarker = 'tmsnap_carry';

const unitsPage = page(z.unknown());

const changesPage = page(z.looseObject({ id: z.number().int(), action: z.number().int(), url: z.string() }).loose());

/** The links of a stored change that `#carryChanges` looks at. */
interface ChangeLinks {
  component?: unknown;
  unit?: unknown;
  user?: unknown;
  author?: unknown;
}

interface Touched {
  translations: Set<string>;
  components: Set<string>;
  projects: Set<string>;
  languages: Set<string>;
  users: Set<string>;
  /** A component was removed: every project, language and user may have changed. */
  removal: boolean;
  /** Where the change-log window starts: units changed since are listed by `changed:>=` (tasks/changed-units.ts). */
  since: string;
  /** What the window says of each touched translation's units. */
  units: Map<string, UnitChanges>;
  /** Units the window's content actions named, all translations: the changed list's expected length. */
  changedUnits: Set<string>;
}

/**
 * A link's path in the snapshot (`api/projects/foo/`) and what it names. Snapshot paths are the
 * API root's paths under `api/` (snapshot/links.ts), so one parse serves both.
 */
interface Located {
  stored: string;
  parsed: ApiPath | undefined;
}

function locate(url: string, apiRoot: URL): Located {
  const path = rootPath(url, apiRoot);
  return { stored: `api/${path}`, parsed: parseApiPath(path) };
}

/**
 * The newest complete snapshot of the same server and scope: what an incremental crawl builds on.
 * The crawl opens it once and hands it to the writer too, which stores its deltas against it when
 * its own rule (any scope, finished, format 2 or later: snapshot/bases.ts `basesSnapshotId`)
 * picks the same snapshot, as it does when one scope is crawled again and again.
 */
export async function previousSnapshot(contentDir: string, baseUrl: string, scope: Scope): Promise<Snapshot | undefined> {
  for (const summary of await listSnapshots(contentDir)) {
    const manifest = summary.manifest;
    if (!summary.complete || manifest === undefined) continue;
    if (manifest.server.base_url === baseUrl && canonicalJson(manifest.scope) === canonicalJson(scope)) return openSnapshot(contentDir, summary.id);
  }
  return undefined;
}

/** A unit's stored link in its usual, relative form: its snapshot path as it stands. */
const storedUnitPath = /^api\/units\/\d+\/$/;

export class IncrementalCrawl {
  #prepared: Promise<Touched> | undefined;
  /** Translations (snapshot paths) whose units this run merged from the changed list: none removed. */
  readonly #merged = new Set<string>();
  #changesCarried: Promise<void> | undefined;
  #lookup: Promise<RecordLookup> | undefined;

  readonly previous: Snapshot;
  readonly scope: CrawlScope;
  readonly changesSince: string | undefined;
  /** Whether touched translations may be merged from one changed list (CrawlOptions `changedUnitsList`). */
  readonly changedUnitsList: boolean;

  constructor(previous: Snapshot, scope: CrawlScope, changesSince: string | undefined, changedUnitsList = true) {
    this.previous = previous;
    this.scope = scope;
    this.changesSince = changesSince;
    this.changedUnitsList = changedUnitsList;
  }

  /** Whether the crawl can skip `task` because this took care of it (carried it over, or queued narrower tasks). */
  async take(task: Task, context: CrawlContext): Promise<boolean> {
    const touched = await this.#prepare(context);
    const located: Located = { stored: `api/${task.path}`, parsed: task.parsed };
    switch (task.type) {
      case 'changes': {
        // The log older than the previous snapshot holds (a run stopped for the night): fetched.
        if (isHistory(task.phase)) return false;
        // The window since the previous snapshot is stored (#prepare). The rest comes from the
        // previous snapshot once every list and unit is in (the last phase): a change keeps no
        // link to a component or unit removed since, so those must be known first.
        if (new URL(task.url).searchParams.has(carryMarker)) {
          this.#changesCarried ??= this.#carryChanges(touched, context);
          await this.#changesCarried;
        } else {
          context.queue.add({ url: withParameters(task.url, { [carryMarker]: '1' }), type: 'changes', phase: phases.stragglers });
          const from = this.previous.manifest.parts?.changes_from;
          if (from !== undefined) context.queue.add({ url: withParameters(task.url, { timestamp_before: from }), type: 'changes', phase: phases.history });
        }
        return true;
      }
      case 'units':
        if (located.parsed?.kind === 'translation' && located.parsed.sub === 'units') return false; // one translation's units: fetch them
        await this.#unitsByTranslation(task, touched, context);
        return true;
      case 'resource':
      case 'file':
        if (!this.#unchanged(located, touched, context.writer)) return false;
        if (located.parsed?.kind === 'user' && located.parsed.sub === 'contributions' && (await this.#namesTouched(located.stored, touched))) return false;
        if (!(await this.#carry(located.stored, context))) return false;
        if (located.parsed?.kind === 'component' && located.parsed.sub === 'statistics') await this.#carryTranslationStatistics(located.stored, context);
        return true;
      default:
        return false;
    }
  }

  /** Reads the change log since the previous snapshot once, stores it, and derives what it touched. */
  #prepare(context: CrawlContext): Promise<Touched> {
    this.#prepared ??= (async () => {
      const newest = await this.#newestChange();
      const after = newest?.timestamp ?? new Date(Date.parse(this.previous.manifest.started) - clockSkewMs).toISOString();
      const since = this.changesSince !== undefined && this.changesSince > after ? this.changesSince : after;
      const touched: Touched = {
        translations: new Set(),
        components: new Set(),
        projects: new Set(),
        languages: new Set(),
        users: new Set(),
        removal: false,
        since,
        units: new Map(),
        changedUnits: new Set(),
      };
      const lists = this.scope.projects === undefined ? ['changes/'] : [...this.scope.projects].map((segment) => `projects/${segment}/changes/`);
      const local = (link: unknown) => {
        const url = typeof link === 'string' ? resolveLink(link, context.apiRoot) : undefined;
        return url === undefined ? undefined : locate(url, context.apiRoot);
      };
      for (const list of lists) {
        let url: string | undefined = withParameters(new URL(list, context.apiRoot).href, {
          timestamp_after: since,
          timestamp_before: context.started,
          page_size: '1000',
        });
        while (url !== undefined) {
          const { body } = await context.client.getJson(url);
          const parsed = changesPage.safeParse(body);
          if (!parsed.success) throw new Error(`${url}: not a list of changes, so the incremental crawl cannot tell what changed; run with --full`);
          await context.writer.putChanges(parsed.data.results);
          this.#followPeople(parsed.data.results, context);
          for (const change of parsed.data.results) {
            // The window starts at the previous snapshot's newest change, inclusive: changes it
            // already holds touched nothing since (else each crawl fetched their translation again).
            if (newest?.held.has(change.id)) continue;
            // A component removed takes its translations, notifications and history with it.
            if (change.action === action.componentRemoved) touched.removal = true;
            const translation = local(change.translation);
            const component = local(change.component);
            if (translation?.parsed?.kind === 'translation') {
              touched.translations.add(translation.stored);
              touched.languages.add(translation.parsed.language ?? '');
              const unit = local(change.unit);
              const unitPath = unit?.parsed?.kind === 'unit' ? unit.stored : undefined;
              let units = touched.units.get(translation.stored);
              if (units === undefined) touched.units.set(translation.stored, (units = noUnitChanges()));
              noteChange(units, change.action, unitPath);
              if (unitPath !== undefined && units.listed.has(unitPath)) touched.changedUnits.add(unitPath);
            }
            if (component?.parsed?.kind === 'component') {
              touched.components.add(component.stored);
              touched.projects.add(component.parsed.project ?? '');
            }
            for (const user of [change.user, change.author]) {
              const userPath = local(user);
              if (userPath !== undefined) touched.users.add(userPath.stored);
            }
          }
          url = parsed.data.next === null ? undefined : rebasePageLink(parsed.data.next, context.apiRoot);
        }
      }
      return touched;
    })();
    return this.#prepared;
  }

  /**
   * The timestamp of the previous snapshot's newest change, and the changes it holds from then on:
   * the window starts there, on the server's own clock, so a crawler clock off from the server's
   * loses nothing.
   */
  async #newestChange(): Promise<{ timestamp: string; held: Set<number> } | undefined> {
    const last = this.previous.index.changes.at(-1);
    if (last === undefined) return undefined;
    const chunk = (await this.previous.store.readJson(last.hash)) as { id?: unknown; timestamp?: unknown }[] | unknown;
    if (!Array.isArray(chunk)) return undefined;
    const newest = (chunk.at(-1) as { timestamp?: unknown } | undefined)?.timestamp;
    if (typeof newest !== 'string') return undefined;
    const held = new Set<number>();
    for (const change of chunk as { id?: unknown; timestamp?: unknown }[]) {
      if (typeof change.id === 'number' && typeof change.timestamp === 'string' && Date.parse(change.timestamp) >= Date.parse(newest)) held.add(change.id);
    }
    return { timestamp: newest, held };
  }

  /**
   * The previous snapshot's changes, less those of components removed since (their history goes
   * with them), and no longer pointing at units removed since.
   */
  async #carryChanges(touched: Touched, context: CrawlContext): Promise<void> {
    const { writer } = context;
    // Gone by the lists, whatever the change log said: a scoped log does not show a removal.
    const gone = new Set((await this.previous.components()).map(({ path }) => path).filter((path) => writer.stored(path) === undefined));
    const removedUnits = new Set<string>();
    for (const translation of touched.translations) {
      // Merged by this run: every previous unit kept (a run resumed after the merge compares, below).
      if (this.#merged.has(translation)) continue;
      const current = new Set(
        context.spool.read(this.previous.linkBase.baseUrl + translation).map((unit) => withoutFormatApi(String((unit as { url?: unknown }).url))),
      );
      for (const unit of await this.previous.units(translation)) if (!current.has(this.previous.linkBase.baseUrl + unit.url)) removedUnits.add(unit.url);
    }
    const lookup = await this.#embedded();
    // Chunks carried by reference, journalled a thousand at a time (one append each was ~240 a
    // second at 10M: docs/decisions/2026-11-29-night-after-edits.md).
    let carried: ChangeChunk[] = [];
    const carry = async () => {
      if (carried.length > 0) await writer.carryChanges(this.previous, carried);
      carried = [];
    };
    for (const chunk of this.previous.index.changes) {
      // Read for the links it names only: plain JSON, each change's fields as stored (StoredChange's links).
      const linksOf = JSON.parse((await this.previous.readBytes(chunk.hash, 'json', { check: 'crc' })).toString('utf8')) as ChangeLinks[];
      const affected = linksOf.some(
        (stored) => (typeof stored.component === 'string' && gone.has(stored.component)) || (typeof stored.unit === 'string' && removedUnits.has(stored.unit)),
      );
      // A chunk nothing removed touches is taken by reference (SnapshotWriter.carryChanges); the people it names are followed all the same.
      if (!affected && writer.canCarryChanges(this.previous, chunk)) {
        const people = new Set(linksOf.flatMap(({ user, author }) => [user, author]).filter((link) => typeof link === 'string'));
        this.#follow(
          findLinks(
            [...people].map((link) => decodeLink(link, this.previous.linkBase)),
            context.apiRoot,
          ),
          context,
        );
        carried.push(chunk);
        if (carried.length >= 1000) await carry();
        continue;
      }
      const changes = await this.previous.changesIn(chunk);
      const batch = changes
        .filter((stored) => stored.component === null || !gone.has(stored.component))
        .map((stored) =>
          expandRecord('change', stored.unit !== null && removedUnits.has(stored.unit) ? { ...stored, unit: null } : stored, lookup, this.previous.linkBase),
        );
      this.#followPeople(batch, context);
      if (batch.length > 0) await writer.putChanges(batch);
    }
    await carry();
  }

  /**
   * Queues the users the changes name, as the crawl does for every change it reads: a scoped
   * crawl has no users list and meets its users only there.
   */
  #followPeople(changes: readonly unknown[], context: CrawlContext): void {
    for (const change of changes) {
      const { user, author } = change as { user?: unknown; author?: unknown };
      this.#follow(findLinks({ user, author }, context.apiRoot), context);
    }
  }

  /** Queues each link as the plan types it (a user's record, in a scoped crawl too). */
  #follow(links: readonly string[], context: CrawlContext): void {
    for (const link of links) {
      const planned = planLink(rootPath(link, context.apiRoot), this.scope);
      if (planned !== undefined) context.queue.add({ url: link, type: planned.type, phase: planned.phase });
    }
  }

  /** Whether everything under a path is as in the previous snapshot, judging by the change log and the records just read. */
  #unchanged({ stored, parsed }: Located, touched: Touched, writer: SnapshotWriter): boolean {
    if (parsed === undefined) return false;
    // A scoped crawl reads its projects' change logs, where a component's removal does not show
    // (that change names no component), and users' notifications embed components that may be
    // gone: these few records, per project, language and user, are always fetched.
    const scoped = !this.scope.whole;
    if (scoped && (parsed.kind === 'project' || parsed.kind === 'language' || parsed.kind === 'user')) return false;
    if (parsed.kind === 'user' && parsed.sub === 'notifications') return false;
    const object = `api/${objectPath(parsed)}`;
    const same = writer.stored(object) !== undefined && writer.stored(object) === this.previous.paths().get(object);
    switch (parsed.kind) {
      case 'translation':
        // A translation's repository/ shows its component's repository: a commit in any
        // translation of the component changes it for all of them (docs/weblate-api.md, Values).
        if (parsed.sub === 'repository')
          return (
            same && !touched.translations.has(object) && !touched.components.has(`api/${apiPaths.component(parsed.project ?? '', parsed.component ?? '')}`)
          );
        return same && !touched.translations.has(object);
      case 'component':
        return same && !touched.components.has(object) && !touched.removal;
      case 'project':
        return same && !touched.projects.has(parsed.project ?? '') && !touched.removal;
      case 'language':
        return same && !touched.languages.has(parsed.language ?? '') && !touched.removal;
      case 'user':
        return !touched.users.has(object) && !touched.removal && this.previous.paths().has(stored);
      default:
        return false;
    }
  }

  /**
   * Whether the previous record at `path` embeds a touched translation: a user's `contributions/`
   * lists translations with their `revision` and `last_change`, which a commit by nobody in
   * particular changes too (Weblate 5.14.3, test/weblate/changed-since.test.ts).
   */
  async #namesTouched(path: string, touched: Touched): Promise<boolean> {
    const text = JSON.stringify(await this.previous.record(path));
    for (const [link] of text.matchAll(/translations\/[^/"]+\/[^/"]+\/[^/"]+\//g)) if (touched.translations.has(`api/${link}`)) return true;
    return false;
  }

  /**
   * The statistics/ of an untouched component's translations: items of its statistics/ list,
   * never fetched on their own (crawl.ts), so carried with it.
   */
  async #carryTranslationStatistics(componentStatistics: string, context: CrawlContext): Promise<void> {
    const prefix = componentStatistics.replace(/^api\/components\//, 'api/translations/').replace(/statistics\/$/, '');
    for (const path of this.previous.paths().keys()) {
      const translation = path.slice(0, -'statistics/'.length);
      if (
        path.startsWith(prefix) &&
        path.endsWith('/statistics/') &&
        translation.slice(prefix.length).split('/').length === 2 &&
        context.writer.stored(translation) !== undefined
      )
        await this.#carry(path, context);
    }
  }

  #embedded(): Promise<RecordLookup> {
    this.#lookup ??= (async () => {
      const records = new Map<string, unknown>();
      for (const path of this.previous.paths().keys()) {
        const kind = kindOfPath(path);
        if (kind === 'language' || kind === 'project' || kind === 'component') records.set(path, await this.previous.record(path));
      }
      return (path: string) => records.get(path);
    })();
    return this.#lookup;
  }

  /**
   * Stores the previous snapshot's record at `path` again: by reference to its objects where the
   * writer can (`SnapshotWriter.carry`), else re-expanded, so the writer normalizes it to the same bytes.
   */
  async #carry(path: string, context: CrawlContext): Promise<boolean> {
    if (!this.previous.paths().has(path)) return false;
    if (await context.writer.carry(this.previous, path)) return true;
    const url = this.previous.linkBase.baseUrl + path;
    const kind = kindOfPath(path);
    if (kind === 'file') {
      const file = await this.previous.file(path);
      if (file === undefined) return false;
      await context.writer.putFile(url.replace(/file\/$/, ''), file.bytes, file.contentType);
      return true;
    }
    const stored = await this.previous.record(path);
    const record = this.previous.isRaw(path) ? stored : expandRecord(kind, stored, await this.#embedded(), this.previous.linkBase);
    await context.writer.putRecord(url, record);
    return true;
  }

  /**
   * Instead of the instance's (or a project's) whole unit list: the units of an untouched
   * translation come from the previous snapshot; those of touched ones from the previous snapshot
   * merged with one list of the units changed since (`#mergeChanged`) when that saves requests
   * (`listWorthIt`), else, and where the merge cannot be proven right, one translation at a time.
   */
  async #unitsByTranslation(task: Task, touched: Touched, context: CrawlContext): Promise<void> {
    const lookup = await this.#embedded();
    const mergeable: string[] = [];
    for (const [translationUrl, project] of context.translations.projects) {
      if (task.project !== undefined && project !== task.project) continue;
      const translation = locate(translationUrl, context.apiRoot);
      const unitsPath = `${translation.stored}units/`;
      if (context.writer.stored(unitsPath) !== undefined) continue;
      if (!this.previous.paths().has(unitsPath)) {
        context.queue.add({ url: `${translationUrl}units/`, type: 'units', phase: phases.bulk });
      } else if (this.#unchanged(translation, touched, context.writer)) {
        if (await context.writer.carry(this.previous, unitsPath)) continue;
        const units = (await this.previous.units(translation.stored)).map((unit) => expandRecord('unit', unit, lookup, this.previous.linkBase));
        await context.writer.putUnits(translationUrl, units);
      } else if (touched.units.get(translation.stored)?.unexplained === false && context.translations.totals.has(translationUrl)) {
        mergeable.push(translationUrl);
      } else {
        context.queue.add({ url: `${translationUrl}units/`, type: 'units', phase: phases.bulk });
      }
    }
    const committed = await this.#commitClearedPending(mergeable, touched, context);
    if (this.changedUnitsList && listWorthIt(mergeable.length, touched.changedUnits.size, Number(pageSizes.units), committed))
      await this.#mergeChanged(task, mergeable, touched, committed, context);
    else for (const translationUrl of mergeable) context.queue.add({ url: `${translationUrl}units/`, type: 'units', phase: phases.bulk });
  }

  /** Whether a translation to merge had a unit pending in the previous snapshot and a commit since. */
  async #commitClearedPending(mergeable: readonly string[], touched: Touched, context: CrawlContext): Promise<boolean> {
    for (const translationUrl of mergeable) {
      const stored = locate(translationUrl, context.apiRoot).stored;
      if (touched.units.get(stored)?.committed === true && (await this.previous.units(stored)).some((unit) => unit.pending === true)) return true;
    }
    return false;
  }

  /**
   * Reads `units/?q=changed:>=T` (with the task's `project:` term in a scoped crawl), T the start
   * of the change-log window, and writes each mergeable translation's units merged from it and the
   * previous snapshot (tasks/changed-units.ts `mergeUnits`); a translation it cannot prove right
   * is fetched on its own. With a commit in the window, `units/?q=last_changed:>=T` too: the
   * units the commit wrote, whose `pending` and `last_updated` it changed. Each merged
   * translation's unit URLs are spooled before its units are written, so the changes carried
   * over (`#carryChanges`) know its units after a resume too.
   */
  async #mergeChanged(task: Task, mergeable: readonly string[], touched: Touched, committed: boolean, context: CrawlContext): Promise<void> {
    const fallback = (translationUrl: string) => {
      context.spool.clear(translationUrl);
      context.queue.add({ url: `${translationUrl}units/`, type: 'units', phase: phases.bulk });
    };
    const changed = await this.#searchUnits(task, `changed:>=${touched.since}`, mergeable.length, context);
    if (changed === undefined) {
      for (const translationUrl of mergeable) fallback(translationUrl);
      return;
    }
    const pathOf = (unit: unknown) => {
      const url = (unit as { url?: unknown } | null)?.url;
      const resolved = typeof url === 'string' ? resolveLink(withoutFormatApi(url), context.apiRoot) : undefined;
      return resolved === undefined ? undefined : locate(resolved, context.apiRoot).stored;
    };
    // Previous units are merged as stored: their snapshot path is their stored link, as a rule
    // relative (snapshot/links.ts), so the link is decoded only when it is not.
    const { linkBase } = this.previous;
    const urlOf = (unit: unknown) => {
      const url = (unit as { url?: unknown } | null)?.url;
      return typeof url === 'string' ? decodeLink(url, linkBase) : undefined;
    };
    const previousPathOf = (unit: unknown) => {
      const url = (unit as { url?: unknown } | null)?.url;
      return typeof url === 'string' && storedUnitPath.test(url) ? url : pathOf({ url: urlOf(unit) });
    };
    // Unread or unreadable: translations with a commit and a unit pending before fall back.
    const written = committed ? await this.#searchUnits(task, `last_changed:>=${touched.since}`, mergeable.length, context) : undefined;
    for (const translationUrl of mergeable) {
      const stored = locate(translationUrl, context.apiRoot).stored;
      const chunks = await this.previous.unitChunks(stored);
      const merged = mergeUnits({
        previous: chunks === undefined ? await this.previous.units(stored) : chunks.flatMap((chunk) => chunk.units),
        changed: [...(changed.get(translationUrl) ?? []), ...(written?.get(translationUrl) ?? [])],
        pathOf,
        previousPathOf,
        log: touched.units.get(stored) ?? noUnitChanges(),
        total: context.translations.totals.get(translationUrl),
        commitsListed: written !== undefined,
      });
      if (!('units' in merged)) {
        fallback(translationUrl);
        continue;
      }
      const idAndUrl = (unit: unknown, url: unknown) => ({ id: (unit as { id?: unknown }).id, url });
      context.spool.clear(translationUrl);
      context.spool.append(
        new Map([
          [
            translationUrl,
            [...merged.kept.map((unit) => idAndUrl(unit, urlOf(unit))), ...merged.fresh.map((unit) => idAndUrl(unit, (unit as { url?: unknown }).url))],
          ],
        ]),
      );
      // Kept units as stored, only the changed ones validated and normalized (issue 36); where
      // the writer cannot take the previous snapshot's objects as its own, all of them expanded.
      if (!(await context.writer.putMergedUnits(this.previous, translationUrl, chunks ?? [], merged.kept, merged.fresh))) {
        const lookup = await this.#embedded();
        await context.writer.putUnits(translationUrl, [...merged.kept.map((unit) => expandRecord('unit', unit, lookup, linkBase)), ...merged.fresh]);
      }
      // A merge keeps every previous unit: none of this translation's was removed (#carryChanges).
      this.#merged.add(stored);
    }
  }

  /**
   * A unit search (`term` after the task's own `project:` term in a scoped crawl), every page,
   * grouped by translation URL; undefined when it cannot serve: the server refuses the query
   * (400), its first page says it has as many pages as there are translations to merge (a server
   * that ignores `q`, or pages smaller than asked for), or a unit in it names no translation
   * under the API root.
   */
  async #searchUnits(task: Task, term: string, translations: number, context: CrawlContext): Promise<Map<string, unknown[]> | undefined> {
    const scoped = new URL(task.url).searchParams.get('q');
    const q = `${scoped === null || scoped === '' ? '' : `${scoped} `}${term}`;
    let url: string | undefined = withParameters(new URL('units/', context.apiRoot).href, { q, page_size: pageSizes.units });
    const byTranslation = new Map<string, unknown[]>();
    let first = true;
    while (url !== undefined) {
      let body: unknown;
      try {
        ({ body } = await context.client.getJson(url));
      } catch (error) {
        if (error instanceof HttpStatusError && error.status === 400) return undefined;
        throw error;
      }
      const parsed = unitsPage.safeParse(body);
      if (!parsed.success) return undefined;
      const { count, results } = parsed.data;
      if (first && count !== undefined && results.length > 0 && Math.ceil(count / results.length) >= translations) return undefined;
      first = false;
      for (const unit of results) {
        const link = (unit as { translation?: unknown } | null)?.translation;
        const translation = typeof link === 'string' ? resolveLink(link, context.apiRoot) : undefined;
        if (translation === undefined) return undefined;
        let units = byTranslation.get(translation);
        if (units === undefined) byTranslation.set(translation, (units = []));
        units.push(unit);
      }
      if (parsed.data.next === null) break;
      // A next page off the API root: the list would be cut short, so it serves no merge.
      url = rebasePageLink(parsed.data.next, context.apiRoot);
      if (url === undefined) return undefined;
    }
    return byTranslation;
  }
}
