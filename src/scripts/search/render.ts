/**
 * Results as DOM nodes. Every string from the snapshot goes in as text (`textContent`), never
 * as markup: a target of `<img onerror=…>` shows those characters.
 */
import type { SearchManifest } from '../../../search/format.ts';
import type { SearchHit } from '../../../search/query.ts';
import { unitHref } from '../../../search/shards.ts';
import type { Translator } from '../../i18n/translate.ts';
import { languageTag } from '../../utils/language-tag.ts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function forms(texts: readonly string[], className: string, language: SearchManifest['languages'][number] | undefined, ui: Translator): HTMLElement {
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
    line.append(element('span', 'text', text === '' ? '' : text));
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
  sourceTexts(hit: SearchHit): readonly string[];
}

export function renderHit(hit: SearchHit, context: RenderContext): HTMLLIElement {
  const { manifest } = context;
  const { units } = hit.shard.data;
  const language = manifest.languages[hit.shard.data.language];
  const component = manifest.components[units.component[hit.unit]!];
  const project = component ? manifest.projects[component.project] : undefined;
  const stateCode = units.state[hit.unit]!;
  const stateName = context.ui.stateName(stateCode);

  const item = element('li', 'search-hit');
  item.dataset.language = language?.code ?? '';
  item.dataset.state = String(stateCode);
  const meta = element('p', 'meta');
  const link = element('a', 'unit-link', `${project?.name ?? ''} / ${component?.name ?? ''}`);
  link.href = context.root + unitHref(hit.shard.data, hit.unit);
  meta.append(
    link,
    ' · ',
    element('span', 'language', language ? `${language.name} (${language.code})` : ''),
    ' · ',
    element('span', `state state-${stateCode}`, stateName),
  );
  item.append(meta, forms(context.sourceTexts(hit), 'source', undefined, context.ui), forms(units.target[hit.unit] ?? [], 'target', language, context.ui));
  return item;
}
