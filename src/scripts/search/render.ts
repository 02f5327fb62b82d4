/**
 * Results as DOM nodes: one group per source string of a component, its source shown once,
 * each matching translation a row under it (docs/search.md, "The page"). Every string from
 * the snapshot goes in as text nodes, never as markup: a target of `<img onerror=…>` shows
 * those characters, and the query's matches are `<mark>` elements around text nodes.
 */
import type { HasFilter, SearchManifest } from '../../../search/format.ts';
import type { SearchScope } from '../../../search/query.ts';
import type { SearchHit } from '../../../search/query.ts';
import { flagsOf, unitHref } from '../../../search/shards.ts';
import type { Translator } from '../../i18n/translate.ts';
import { languageTag } from '../../utils/language-tag.ts';
import type { HitGroup } from './groups.ts';
import { matchedRanges } from './highlight.ts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `text` as text nodes, the query's matches wrapped in `<mark>`. */
function marked(text: string, queryTerms: readonly string[] | undefined): HTMLSpanElement {
  const span = element('span', 'text');
  let at = 0;
  for (const [start, end] of queryTerms ? matchedRanges(text, queryTerms) : []) {
    if (start > at) span.append(text.slice(at, start));
    span.append(element('mark', '', text.slice(start, end)));
    at = end;
  }
  if (at < text.length) span.append(text.slice(at));
  return span;
}

function forms(
  texts: readonly string[],
  className: string,
  language: SearchManifest['languages'][number] | undefined,
  queryTerms: readonly string[] | undefined,
  ui: Translator,
): HTMLElement {
  const list = element('div', className);
  if (language) {
    // BCP 47, as the pages write it: `pt_BR` is no valid `lang` (axe's valid-lang).
    list.lang = languageTag(language.code);
    list.dir = language.direction === 'rtl' ? 'rtl' : language.direction === 'ltr' ? 'ltr' : 'auto';
  } else {
    list.dir = 'auto';
  }
  texts.forEach((text, form) => {
    const line = element('p', 'form');
    if (texts.length > 1) line.append(element('span', 'plural', ui.t('search.form', { form: String(form) })));
    line.append(marked(text, queryTerms));
    if (text === '') line.append(element('span', 'untranslated', ui.t('search.untranslated')));
    list.append(line);
  });
  return list;
}

export interface RenderContext {
  manifest: SearchManifest;
  /** From the search page to the site root. */
  root: string;
  /** The page's interface language (src/i18n/client.ts). */
  ui: Translator;
  /** The query's terms (`tokenize`), marked where they match. */
  queryTerms: readonly string[];
  scope: SearchScope;
  sourceTexts(hit: SearchHit): readonly string[];
}

/** Between the parts of a translation's line: a break may come before the dot, not after it. */
const separator = ' ·\u00a0';

/** Each flag a unit can have, in words. */
const flagWords = { check: 'search.flagCheck', suggestion: 'search.flagSuggestion' } as const satisfies Record<HasFilter, string>;

/** One translation of a group's source: its language (the link to its unit page), state, flags and forms. */
function renderHit(hit: SearchHit, context: RenderContext): HTMLLIElement {
  const { manifest, ui } = context;
  const { units } = hit.shard.data;
  const language = manifest.languages[hit.shard.data.language];
  const stateCode = units.state[hit.unit]!;

  const item = element('li', 'search-hit');
  item.dataset.language = language?.code ?? '';
  item.dataset.state = String(stateCode);
  const meta = element('p', 'meta');
  const link = element('a', 'unit-link language', language ? `${language.name} (${language.code})` : '');
  link.href = context.root + unitHref(hit.shard.data, hit.unit);
  // The state's word with its colour mark (class `s<state>`, site.css), as wherever strings are
  // listed; each "·" holds to the word after it (a no-break space), so a line breaks before it,
  // never after it (issue 35).
  meta.append(link, separator, element('span', `state state-${stateCode} s${stateCode}`, ui.stateName(stateCode)));
  for (const flag of flagsOf(hit.shard, hit.unit)) meta.append(separator, element('span', `flag flag-${flag}`, ui.t(flagWords[flag])));
  const terms = context.scope === 'source' ? undefined : context.queryTerms;
  item.append(meta, forms(units.target[hit.unit] ?? [], 'target', language, terms, ui));
  return item;
}

/** A source string of a component: the source once, then a row per translation found. */
export function renderGroup(group: HitGroup, context: RenderContext): HTMLLIElement {
  const { manifest } = context;
  const first = group.hits[0]!;
  const component = manifest.components[first.shard.data.units.component[first.unit]!];
  const project = component ? manifest.projects[component.project] : undefined;

  const item = element('li', 'search-group');
  const head = element('div', 'search-source');
  const terms = context.scope === 'target' ? undefined : context.queryTerms;
  head.append(
    element('p', 'meta component', `${project?.name ?? ''} / ${component?.name ?? ''}`),
    forms(context.sourceTexts(first), 'source', undefined, terms, context.ui),
  );
  const rows = element('ol', 'search-translations');
  rows.append(...group.hits.map((hit) => renderHit(hit, context)));
  item.append(head, rows);
  return item;
}
