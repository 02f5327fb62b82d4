/**
 * The search page: reads the query from the URL, loads only the shards where the query can
 * match (as script files, so it works from `file://`; `search/routing.ts` tells which),
 * shows results as shards arrive, runs the query on each keystroke and keeps the URL in
 * step so a search can be shared. Bundled as a classic script by `site/search-app.ts`.
 *
 * A search runs in slices of about `sliceMs`: each slice searches shards until its time is
 * up, then shows the best hits found so far, and the next frame goes on. A keystroke thus
 * shows results at once however many shards are open (docs/search.md, "Routing").
 */
import { resolveFilters } from '../../../search/filters.ts';
import {
  routesFile,
  searchFormat,
  workerFile,
  type SearchManifest,
  type SearchRoutes,
  type SourceShardData,
  type TargetShardData,
} from '../../../search/format.ts';
import { routeShards } from '../../../search/plan.ts';
import { ShardSearch, unpackMatches, type Match, type SearchHit } from '../../../search/query.ts';
import { openRoutes, routeQuery, type OpenRoutes } from '../../../search/routing.ts';
import { openSourceShard, openTargetShard, type OpenSourceShard, type OpenTargetShard } from '../../../search/shards.ts';
import { tokenize } from '../../../search/text.ts';
import type { UiLanguage } from '../../../site-model/page-settings.ts';
import { translator, type Messages } from '../../i18n/translate.ts';
import { installRegistration, loadScript } from './loader.ts';
import { HitGroups, type HitGroup } from './groups.ts';
import { renderGroup } from './render.ts';
import { knownState, listsStrings, readState, unknownFilters, writeState, type SearchState } from './url-state.ts';
import { SearchWorkers, workerCount, type OnAnswer } from './workers.ts';

const pageSize = 50;
/**
 * Shard files loading at once. More would all arrive together and wait for the one thread
 * that parses them; fewer in turn let the first results (a source shard and one target
 * shard) show before the rest arrive.
 */
const parallelLoads = 3;
/**
 * Time one slice of a search may take before it shows what it found: within a frame, so
 * typing stays smooth while a query runs over many open shards.
 */
const sliceMs = 12;
/**
 * Groups a keystroke draws at once while the search goes on, about a screenful; the rest of the
 * page follows a frame later. A group holds up to a row per language: 50 of them took most of
 * a keystroke at 1M (docs/decisions/2026-11-29-search-all-languages.md).
 */
const screenfulGroups = 10;
/** Counts drawings, so the rest of a page is not drawn over a newer one. */
let drawings = 0;
/** Least time between two drawings of the results while shards are still searched. */
const renderEveryMs = 300;

const form = document.getElementById('search-form') as HTMLFormElement;
const status = document.getElementById('search-status') as HTMLElement;
const results = document.getElementById('search-results') as HTMLOListElement;
const more = document.getElementById('search-more') as HTMLButtonElement;
const control = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
const root = form.dataset.root ?? '../';
// The page's interface language and the messages it needs (src/i18n/client.ts); English words if absent.
const given = JSON.parse(form.dataset.messages ?? '{}') as { lang?: UiLanguage; messages?: Messages };
const ui = translator(given.lang ?? 'en', given.messages ?? {});
const { t } = ui;

const sources = new Map<number, OpenSourceShard>();
/** Unit tables as loaded; a table is opened when first searched, its index built when a query first needs it. */
const tables = new Map<string, TargetShardData>();
const targets = new Map<string, OpenTargetShard>();
/** Each open target shard's position in the manifest, which its route is looked up by. */
const positions = new Map<OpenTargetShard, number>();
const requested = new Set<string>();
const failed = new Set<string>();
/** Files the current query wants, most useful first; loaded `parallelLoads` at a time. */
let queue: { file: string; open: (data: never) => void }[] = [];
let loading = 0;
/**
 * Until the current query has searched a shard, only the files of its first shard (and its
 * bucket's sources) load: files arriving beside them would be parsed first, on the one thread,
 * and hold the first results back.
 */
let firstFiles: ReadonlySet<string> | undefined;
let manifest: SearchManifest;
/** Undefined when the routes file did not load: then every shard the filters allow is loaded. */
let routes: OpenRoutes | undefined;
/** Each searched shard's hits, best first, and how many in all: the page shows the best of them merged. */
let hitLists: SearchHit[][] = [];
let hitCount = 0;
/** The hits grouped by source string, best first: the page shows `pageSize` groups at a time. */
let groups: readonly HitGroup[] = [];
/** The shown query's terms and scope, which the results mark. */
let shownQuery: { terms: string[]; scope: SearchState['in'] } = { terms: [], scope: 'both' };
/**
 * The current query's search, kept while only shards arrive: each shard is searched once, not
 * again on every arrival. A new query or filter starts another.
 */
let current:
  | {
      key: string;
      /** The query's text, as the workers search it. */
      text: string;
      search: ShardSearch;
      groups: HitGroups;
      rendered: boolean;
      renderedAt: number;
      renderMs: number;
      /** Numbers the query for the workers, which drop the searches of older ones. */
      generation: number;
      /** Each text search asked of the workers, by shard file: what to do with its matches. */
      asked: Map<string, (matches: Map<number, Match>) => void>;
      /** When the query was typed, until its first results are drawn: the keystroke's time (`tmsnap-search`). */
      typedAt: number | undefined;
    }
  | undefined;
let generations = 0;
/**
 * Where shard indexes are built and searched, off the page's thread (docs/search.md,
 * "Workers"); undefined where workers are unavailable or failed: then the page does it all.
 */
let workers: SearchWorkers | undefined;
/**
 * Whether workers may still start: they start when a query first has a shard for them, so a
 * query of one language (the page's own shards) never pays for their start on a busy machine.
 */
let workersAllowed = true;
/**
 * The workers' text (`workerFile`, beside this script), loaded when a query first has a shard
 * for them: carried in this script, every query loaded it before its first results (docs/search.md,
 * "Workers"). Until it is in, those shards wait for it, not built in the page.
 */
let workerText: Promise<void> | undefined;
let workerSource: string | undefined;
/**
 * A query's first shards are searched by the page itself: their first results do not wait for
 * workers, and a query of one language (a shard or two per bucket) runs as it did without them.
 * `tmsnapSearchPageShards` set before the script runs changes it (the tests send every shard to workers).
 */
const pageShards = (globalThis as { tmsnapSearchPageShards?: number }).tmsnapSearchPageShards ?? 2;
/** Shard files whose indexes the page built itself (a query's first shards): searched here, never in a worker. */
const pageIndexes = new Set<string>();
/** Text searches a slice asks of the workers, sent when the slice is done. */
const asks: (() => void)[] = [];
/** Worker answers taken into results, for tests to tell which path ran. */
let workerAnswers = 0;
/** A later slice is set to draw results a slice left undrawn. */
let renderPending = false;
let shown = 0;
let scheduled = false;

/** Each filter by its label on the form. */
const filterLabels = { lang: 'search.language', project: 'search.project', component: 'search.component', state: 'search.state', has: 'search.has' } as const;

function option(value: string, label: string): HTMLOptionElement {
  const node = document.createElement('option');
  node.value = value;
  node.textContent = label;
  return node;
}

function fillFilters(): void {
  const byName = <T extends { name: string }>(list: T[]) => [...list.entries()].sort(([, a], [, b]) => a.name.localeCompare(b.name));
  // Languages with translations: a language that is only ever a source has none indexed (docs/search.md).
  const translated = new Set(manifest.targets.map((target) => target.language));
  control('lang').append(
    ...byName(manifest.languages)
      .filter(([position]) => translated.has(position))
      .map(([, language]) => option(language.code, `${language.name} (${language.code})`)),
  );
  control('project').append(...byName(manifest.projects).map(([, project]) => option(project.slug, project.name)));
  control('component').append(
    ...manifest.components.map((component) => {
      const project = manifest.projects[component.project]!;
      const node = option(`${project.slug}/${component.slug}`, `${project.name} / ${component.name}`);
      node.dataset.project = project.slug;
      return node;
    }),
  );
  control('state').append(...manifest.states.map(([code]) => option(String(code), ui.stateName(code))));
}

function formState(): SearchState {
  const data = new FormData(form);
  return readState(new URLSearchParams([...data].map(([key, value]) => [key, String(value)])));
}

function applyState(state: SearchState): void {
  control('q').value = state.q;
  for (const key of ['lang', 'project', 'component', 'state', 'has'] as const) {
    const select = control(key) as HTMLSelectElement;
    select.value = [...select.options].some((node) => node.value === state[key]) ? state[key] : '';
  }
  const scope = form.querySelector<HTMLInputElement>(`input[name="in"][value="${state.in}"]`);
  if (scope) scope.checked = true;
}

/** Components of other projects are hidden once a project is chosen. */
function narrowComponents(project: string): void {
  const select = control('component') as HTMLSelectElement;
  for (const node of select.options) if (node.value !== '') node.hidden = project !== '' && node.dataset.project !== project;
  if (select.selectedOptions[0]?.hidden) select.value = '';
}

function shareUrl(state: SearchState): void {
  const query = writeState(state).toString();
  try {
    history.replaceState(null, '', query === '' ? location.pathname : `?${query}`);
  } catch {
    // Some browsers refuse history changes on file:// pages; the search still works.
  }
}

function pump(): void {
  while (loading < parallelLoads) {
    const at = firstFiles ? queue.findIndex((entry) => firstFiles!.has(entry.file)) : 0;
    if (at === -1) return;
    const [next] = queue.splice(at, 1);
    if (!next) return;
    if (requested.has(next.file)) continue;
    requested.add(next.file);
    loading++;
    loadScript(next.file).then(
      (data) => {
        loading--;
        next.open(data as never);
        pump();
        schedule(false);
      },
      () => {
        loading--;
        failed.add(next.file);
        pump();
        schedule(false);
      },
    );
  }
}

/** Runs the search again next frame: shards arrived, or the last slice left shards unsearched. */
function schedule(typed: boolean): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    run(typed);
  });
}

function setStatus(state: 'idle' | 'loading' | 'done' | 'error', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
  results.setAttribute('aria-busy', String(state === 'loading'));
}

/**
 * A query's counts are first written once its first results are painted: the first number
 * format made loads the engine's locale data on the page's one thread (docs/search.md,
 * "Start-up"; profiled in docs/decisions/2026-11-23-search-figures-formats-1-4.md), which would
 * otherwise run while the first shards arrive and hold their parsing back. Until then the status
 * says the index is loading, or, once results show, that the search goes on.
 */
let countsReady = false;
let pendingCounts: (() => void) | undefined;
let countsScheduled = false;

function setCountStatus(state: 'loading' | 'done' | 'error', text: () => string, shown: boolean): void {
  // A file that failed is said at once, with its counts.
  if (countsReady || state === 'error') return setStatus(state, text());
  // Beside results, not "Loading the search index…": read as "these are all" (issue 35).
  setStatus('loading', !shown ? t('search.loading') : state === 'done' ? t('search.counting') : t('search.stillSearching'));
  pendingCounts = () => setStatus(state, text());
  if (countsScheduled || (!shown && state === 'loading')) return;
  countsScheduled = true;
  // After the frame that paints the results: a timer set in the next frame's callbacks.
  requestAnimationFrame(() =>
    setTimeout(() => {
      countsReady = true;
      pendingCounts?.();
      pendingCounts = undefined;
    }),
  );
}

/**
 * One slice of the current search. `typed` when the query or a filter changed: what
 * bench/search.ts reads as a keystroke's time to results (the `tmsnap-search` measure; later
 * slices are `tmsnap-search-more`).
 */
function run(typed: boolean, state: SearchState = formState()): void {
  const started = performance.now();
  narrowComponents(state.project);
  const filters = resolveFilters(manifest, {
    languages: state.lang ? [state.lang] : [],
    projects: state.project ? [state.project] : [],
    components: state.component ? [state.component] : [],
    states: state.state ? [state.state] : [],
    has: state.has ? [state.has] : [],
  });
  // Without text, a filter other than the language lists its strings (strings by state, check or component).
  const listing = tokenize(state.q).length === 0 && listsStrings(state);
  if (state.q.trim() === '' && !listing) {
    queue = [];
    hitLists = [];
    hitCount = 0;
    groups = [];
    current = undefined;
    showHits(true);
    const strings = manifest.targets.reduce((sum, target) => sum + target.units, 0);
    setStatus('idle', t('search.prompt', { strings, languages: manifest.languages.length }, strings));
    return;
  }
  const routing = routeQuery(routes, state.q, state.in);
  // A listing reads the unit tables the filters allow (search/plan.ts), whatever their terms.
  const wanted = routeShards(manifest, filters, listing ? undefined : routing);
  // Source shards are loaded even for target-only searches: results show the source text.
  // Each bucket's sources come before its first target shard, target shards where the query
  // can match a target before those it reaches through sources only.
  // A target index is built only where the query can match a target; elsewhere the unit
  // table (units reached through their sources) is enough.
  const byTarget = (position: number) => !listing && state.in !== 'source' && manifest.targets[position]!.translated > 0 && routing.target(position);
  const order = wanted.positions
    .map((position, rank) => ({ position, rank, byTarget: byTarget(position) }))
    .sort((a, b) => Number(b.byTarget) - Number(a.byTarget) || a.rank - b.rank);
  queue = [];
  for (const { position, byTarget } of order) {
    const target = manifest.targets[position]!;
    const sourceFile = manifest.buckets[target.bucket]!.sources!.file;
    queue.push({ file: sourceFile, open: (data: SourceShardData) => sources.set(data.bucket, openSourceShard(data)) });
    queue.push({ file: target.file, open: (data: TargetShardData) => tables.set(target.file, data) });
  }
  queue = queue.filter((entry) => !requested.has(entry.file));

  const ready = order.filter(({ position }) => {
    const target = manifest.targets[position]!;
    return tables.has(target.file) && sources.has(target.bucket);
  });
  const key = JSON.stringify([state.q, state.in, state.lang, state.project, state.component, state.state, state.has]);
  if (current?.key !== key) {
    const request = {
      text: state.q,
      scope: state.in,
      components: filters.components,
      states: filters.states,
      has: filters.has,
      list: listing,
      routing: { source: routing.source, target: (shard: OpenTargetShard) => byTarget(positions.get(shard) ?? -1) },
    };
    current = {
      key,
      text: state.q,
      search: new ShardSearch(request, sources),
      groups: new HitGroups(),
      rendered: false,
      renderedAt: 0,
      renderMs: 0,
      generation: generations++,
      asked: new Map(),
      typedAt: undefined,
    };
  }
  if (typed) current.typedAt = started;
  const { search } = current;
  hitLists = [];
  const searched = new Set<number>();
  let unsearched = 0;
  /** Shards whose matches the workers are still finding: their answers run the search again. */
  let waiting = 0;
  for (const { position } of ready) {
    const shard = openTarget(position);
    if (workersAllowed && !search.has(shard) && askWorkers(shard, position, hitLists.length + waiting < pageShards)) {
      waiting++;
      continue;
    }
    // Each slice searches at least one shard, so a search always gets on.
    if (!search.has(shard) && hitLists.length > 0 && performance.now() - started > sliceMs) {
      unsearched++;
      continue;
    }
    // Ties are broken by the shard's place in the manifest, whatever order shards arrived in.
    hitLists.push(search.shard(shard, position));
    searched.add(position);
  }
  hitCount = hitLists.reduce((sum, list) => sum + list.length, 0);
  current.groups.add(hitLists);
  const missing = wanted.targets.length - ready.length + unsearched + waiting;
  // While shards stream in, the results are drawn again at most every `renderEveryMs`: drawing
  // 50 groups of up to a row per language on every slice was the page's largest cost at 1M
  // (docs/decisions/2026-11-29-search-all-languages.md). A keystroke, the first results and
  // complete ones are drawn at once.
  // On a busy machine a slice outlasts that, so the drawing's own cost spaces it too: drawing
  // takes at most about a tenth of the page's time while results stream in, whatever the load.
  const sinceRender = performance.now() - current.renderedAt;
  const renderGap = Math.max(renderEveryMs, 10 * current.renderMs);
  // While every shard waits on the workers there is nothing new to draw: the last results stay.
  const found = hitLists.length > 0 || waiting === 0;
  const keystroke = current.typedAt !== undefined;
  if (found && (keystroke || missing === 0 || !current.rendered || sinceRender >= renderGap)) {
    const drawing = performance.now();
    groups = current.groups.ranked();
    shownQuery = { terms: tokenize(state.q), scope: state.in };
    // While shards are still searched a keystroke draws a screenful first and the rest of the page
    // a frame later; a drawing as results stream in draws a screenful alone, the page once complete
    // (docs/search.md, "Routing").
    showHits(true, missing === 0 ? 'page' : keystroke ? 'screenful-first' : 'screenful');
    current.rendered = groups.length > 0;
    current.renderedAt = performance.now();
    current.renderMs = current.renderedAt - drawing;
    if (keystroke) {
      // A keystroke's time runs to its first results drawn, which come a worker's answer later.
      performance.measure('tmsnap-search', { start: current.typedAt! });
      current.typedAt = undefined;
    }
  } else if (found && !renderPending) {
    renderPending = true;
    setTimeout(() => {
      renderPending = false;
      schedule(false);
    }, renderGap - sinceRender);
  }
  if (unsearched > 0) schedule(false);
  const first = order.length > 0 ? firstShardFiles(order[0]!.position) : undefined;
  // A first shard that failed to load holds nothing back: the others may still answer.
  firstFiles = hitLists.length === 0 && first && ![...first].some((file) => failed.has(file)) ? first : undefined;
  pump();
  const broken = wanted.targets.filter((target) => failed.has(target.file) || failed.has(manifest.buckets[target.bucket]!.sources!.file));
  // Source strings and their translations found: a group's source is no hit of its own.
  const strings = current.groups.size;
  const count = () =>
    t('search.counts', { strings: t('search.strings', { count: strings }, strings), translations: t('search.translations', { count: hitCount }, hitCount) });
  const shown = hitLists.length > 0;
  if (broken.length > 0)
    setCountStatus('error', () => t('search.broken', { results: count(), count: broken.length, file: broken[0]!.file }, broken.length), shown);
  else if (missing > 0) {
    const { done, total } = languagesSearched(wanted.positions, searched);
    setCountStatus('loading', () => t('search.languagesSearched', { searched: done, total, results: count() }, total), shown);
  } else {
    setCountStatus('done', count, shown);
    // When the results of a query were complete on screen: what bench/search.ts reports.
    performance.mark('tmsnap-search-done');
  }
  // Workers are asked once this slice has drawn what it found: on a busy machine their work
  // would otherwise take the core the keystroke's drawing needs.
  for (const ask of asks.splice(0)) ask();
  performance.measure('tmsnap-search-more', { start: started });
}

/**
 * Asks the workers for the text searches `shard` still needs (its bucket's sources, its
 * targets), each once per query; false when it needs none and can be searched here at once.
 */
function askWorkers(shard: OpenTargetShard, position: number, first: boolean): boolean {
  const { search, asked, generation, text } = current!;
  const needs = search.textSearches(shard);
  let waits = false;
  const ask = (file: string, texts: () => readonly (readonly string[])[], supply: (matches: Map<number, Match>) => void) => {
    // An index the page built stays the page's; a query's first shards' indexes, built nowhere
    // yet, are built here too (`pageShards`, docs/search.md, "Workers").
    if (pageIndexes.has(file) || (first && !workers?.holds(file))) return void pageIndexes.add(file);
    const started = startedWorkers();
    if (!started) return void pageIndexes.add(file);
    waits = true;
    // Asked once the workers' text is in and they started (the load runs the search again).
    if (started === 'loading' || asked.has(file)) return;
    asked.set(file, supply);
    asks.push(() => workers?.search(generation, file, texts, text, search.words));
  };
  if (needs.source !== undefined) {
    const bucket = needs.source;
    const file = manifest.buckets[bucket]!.sources!.file;
    ask(
      file,
      () => sources.get(bucket)!.data.texts,
      (matches) => search.supplySource(bucket, matches),
    );
  }
  if (needs.target) {
    ask(
      manifest.targets[position]!.file,
      () => shard.data.units.target,
      (matches) => search.supplyTarget(shard, matches),
    );
  }
  return waits;
}

/** A worker's matches: taken into the query they were found for, which goes on next frame. */
const takeAnswer: OnAnswer = ({ generation, key, matches }) => {
  const supply = current?.generation === generation ? current.asked.get(key) : undefined;
  if (!supply) return;
  supply(unpackMatches(matches));
  workerAnswers++;
  form.dataset.workerAnswers = String(workerAnswers);
  // A keystroke's first results are drawn at once, not a frame later: typing waits on them.
  if (current!.typedAt !== undefined) run(false);
  else schedule(false);
};

/** Workers failed (or never started): the page searches on its own thread, the current query afresh. */
function workersFailed(reason: string): void {
  workers = undefined;
  workersAllowed = false;
  form.dataset.searchWorkers = '0';
  console.warn(`tmsnap search: searching without workers (${reason})`);
  if (current) current.asked.clear();
  schedule(false);
}

/**
 * The workers, started on first use once their text is loaded (`loading` until then); undefined
 * where they cannot run (then the page searches alone).
 */
function startedWorkers(): SearchWorkers | 'loading' | undefined {
  if (workers || !workersAllowed) return workers;
  const forced = (globalThis as { tmsnapSearchWorkers?: number }).tmsnapSearchWorkers;
  const count = forced ?? workerCount(navigator.hardwareConcurrency);
  if (count > 0 && workerSource === undefined) {
    workerText ??= loadScript<unknown>(workerFile).then(
      (text) => {
        if (typeof text !== 'string') return workersFailed(`${workerFile} held no worker`);
        workerSource = text;
        schedule(false);
      },
      () => workersFailed(`could not load ${workerFile}`),
    );
    return 'loading';
  }
  if (workerSource !== undefined && count > 0) workers = SearchWorkers.start(workerSource, count, takeAnswer, workersFailed);
  workersAllowed = workers !== undefined;
  form.dataset.searchWorkers = String(workers?.size ?? 0);
  return workers;
}

/**
 * The languages the query reaches, and those of them searched in full: what the status counts
 * while shards arrive. Shards are files, which a reader does not know of; results from the
 * first languages alone read as the only matches (issue 35).
 */
function languagesSearched(positions: readonly number[], searched: ReadonlySet<number>): { done: number; total: number } {
  const pending = new Map<number, boolean>();
  for (const position of positions) {
    const language = manifest.targets[position]!.language;
    pending.set(language, (pending.get(language) ?? false) || !searched.has(position));
  }
  return { done: [...pending.values()].filter((left) => !left).length, total: pending.size };
}

function firstShardFiles(position: number): Set<string> {
  const target = manifest.targets[position]!;
  return new Set([manifest.buckets[target.bucket]!.sources!.file, target.file]);
}

/** A target shard, opened on first use (its index is built when a query first reads it). */
function openTarget(position: number): OpenTargetShard {
  const { file } = manifest.targets[position]!;
  let shard = targets.get(file);
  if (!shard) {
    shard = openTargetShard(tables.get(file)!);
    targets.set(file, shard);
    positions.set(shard, position);
  }
  return shard;
}

/** `page`: the next `pageSize` groups; `screenful-first`: a screenful, the rest a frame later; `screenful`: a screenful alone. */
function showHits(reset: boolean, extent: 'page' | 'screenful-first' | 'screenful' = 'page'): void {
  const drawing = ++drawings;
  if (reset) {
    results.replaceChildren();
    shown = 0;
  }
  const context = {
    manifest,
    root,
    ui,
    queryTerms: shownQuery.terms,
    scope: shownQuery.scope,
    sourceTexts: (hit: SearchHit) => sources.get(hit.shard.data.bucket)?.data.texts[hit.shard.data.units.source[hit.unit]!] ?? [],
  };
  const end = Math.min(groups.length, shown + pageSize);
  const draw = (until: number) => {
    results.append(...groups.slice(shown, until).map((group) => renderGroup(group, context)));
    shown = until;
  };
  draw(extent === 'page' ? end : Math.min(end, shown + screenfulGroups));
  // The rest of the page a frame later, unless the results were drawn again by then.
  if (extent === 'screenful-first' && shown < end) requestAnimationFrame(() => drawing === drawings && draw(end));
  more.hidden = (extent === 'screenful-first' ? end : shown) >= groups.length;
}

async function start(): Promise<void> {
  // When the script began and when the manifest and routes were in: bench/search.ts reads
  // these to split a cold query's time into loading the page, the index's first files and shards.
  performance.mark('tmsnap-search-start');
  installRegistration();
  form.dataset.searchWorkers = '0';
  setStatus('loading', t('search.loading'));
  // The routes are needed by the first query: fetched beside the manifest, not after it.
  const routesLoaded = loadScript<SearchRoutes>(routesFile).then(
    (data) => data,
    () => undefined,
  );
  try {
    manifest = await loadScript<SearchManifest>('manifest.js');
  } catch {
    setStatus('error', t('search.noIndex'));
    return;
  }
  // An index written by another tmsnap names files or fields this script does not know.
  if (manifest.format !== searchFormat) {
    setStatus('error', t('search.oldIndex', { found: String(manifest.format), expected: String(searchFormat) }));
    return;
  }
  const routeData = await routesLoaded;
  if (routeData?.format === searchFormat && routeData.targets.length === manifest.targets.length) routes = openRoutes(routeData);
  performance.mark('tmsnap-search-index');
  // The query in the URL is searched before the filters are filled: its shards are requested
  // first, and building the lists (sorting names, a node per component) overlaps their loading.
  const asked = readState(new URLSearchParams(location.search));
  const state = knownState(manifest, asked);
  // A filter the index does not know lists nothing and says so: listing without it would show more than was asked (issue 35).
  const unknown = unknownFilters(manifest, asked);
  if (unknown.length === 0) run(true, state);
  fillFilters();
  applyState(state);
  if (unknown.length > 0)
    setStatus('error', t('search.unknownFilter', { filters: unknown.map(([key, value]) => `${t(filterLabels[key])} “${value}”`).join(', ') }));
  form.addEventListener('input', () => {
    shareUrl(formState());
    run(true);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    shareUrl(formState());
    run(true);
  });
  more.addEventListener('click', () => showHits(false));
}

void start();
