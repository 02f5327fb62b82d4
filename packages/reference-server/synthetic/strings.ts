import { unitHash } from '../hash.ts';
import type { ComponentPlan } from './layout.ts';
import { chance, createPermutation, mix, pick, topic } from './random.ts';
import { type WordTable, englishNouns, englishWords, wordTables } from './words.ts';

/** How a string is built, independent of the language it is written in. */
export interface StringShape {
  kind: 'plain' | 'plural' | 'term';
  /** Indices into `englishWords`; the first ones spell the string's unique key. */
  words: number[];
  /** Index into `englishNouns`, for plurals. */
  noun: number;
  placeholder: string;
  markup: { at: number; open: string; close: string } | undefined;
  /** Word before which the text breaks onto a new line; -1 for none. */
  breakAt: number;
  ending: string;
}

/** One source string of a component: what every translation's unit for it shares. */
export interface SourceString {
  shape: StringShape;
  source: string[];
  context: string;
  note: string;
  location: string;
  flags: string;
  extraFlags: string;
  priority: number;
  explanation: string;
  readOnly: boolean;
  /** 1-based place in the file; differs from id order where strings were inserted later. */
  position: number;
  numWords: number;
  /** `id_hash` (= `content_hash` for PO), computed on first use: SipHash is the costly part of a unit. */
  hash(): bigint;
}

const contexts = ['menu', 'button', 'tooltip', 'dialog title', 'noun', 'verb', 'status bar', 'accessibility label', 'settings|general', 'email subject'];
const markups: readonly (readonly [string, string])[] = [
  ['<b>', '</b>'],
  ['<a href="https://example.org/help">', '</a>'],
  ['<code>', '</code>'],
  ['<em>', '</em>'],
  // Strings are untrusted input: a consumer that renders them as HTML runs this.
  ['<img src=x onerror="alert(1)">', ''],
];
const endings = ['', '', '', '', '.', '.', '.', '…', '?', ':'];
const noteTemplates = [
  (a: string, b: string) => `Translators: shown on the ${a} screen next to the ${b} button.`,
  (a: string) => `Translators: keep this short, it is a ${a} label.`,
  (a: string, b: string) => `Translators: "${a}" here means the ${b}, not the verb.\nSee the glossary.`,
  (a: string) => `Translators: <b>${a}</b> is a product name; do not translate it.`,
  (a: string, b: string) => `TRANSLATORS: %s is replaced by the ${a} name.\n\nExample: "${b}".`,
];

const WORDS = englishWords.length;

/** Builds a component's source strings by index, each on its own. */
export function createStringSource(seed: number, component: ComponentPlan): (index: number) => SourceString {
  let keyWords = 1;
  while (WORDS ** keyWords < component.strings) keyWords++;
  // Distinct indices get distinct leading key words, so no two strings of a component collide.
  const keys = createPermutation(WORDS ** keyWords, mix(seed, topic.stringKey, component.index));
  const c = component.index;

  return (index) => {
    const draw = (aspect: number) => chance(seed, topic.stringShape, c, index, aspect);
    const wordAt = (slot: number) => mix(seed, topic.stringWord, c, index, slot) % WORDS;

    const words: number[] = [];
    for (let key = keys.forward(index), digit = 0; digit < keyWords; digit++, key = Math.floor(key / WORDS)) words.push(key % WORDS);
    const kind = component.isGlossary ? 'term' : draw(0) < 0.08 ? 'plural' : 'plain';
    const fillers = kind === 'term' ? Math.floor(draw(1) * 2) : Math.floor(draw(1) ** 2 * 7);
    for (let slot = 0; slot < fillers; slot++) words.push(wordAt(slot));

    const placeholderDraw = draw(2);
    const placeholder = kind !== 'plain' ? '' : placeholderDraw < 0.05 ? '%s' : placeholderDraw < 0.1 ? '%d' : placeholderDraw < 0.15 ? '{name}' : '';
    const [open, close] = pick(markups, mix(seed, topic.stringShape, c, index, 5));
    // Markup wraps a filler word only, so the key words stay plain.
    const markup =
      kind !== 'term' && draw(3) < 0.06 && words.length > keyWords
        ? { at: keyWords + Math.floor(draw(4) * (words.length - keyWords)), open, close }
        : undefined;
    const shape: StringShape = {
      kind,
      words,
      noun: mix(seed, topic.stringShape, c, index, 6) % englishNouns.length,
      placeholder,
      markup,
      breakAt: kind === 'plain' && words.length >= 4 && draw(7) < 0.05 ? Math.floor(words.length / 2) : -1,
      ending: kind === 'term' ? '' : pick(endings, mix(seed, topic.stringShape, c, index, 8)),
    };
    const source = renderForms(shape, wordTables.en, 2, true);

    const flags: string[] = [];
    if (kind === 'plural' || placeholder === '%s' || placeholder === '%d') flags.push('c-format');
    if (placeholder === '{name}') flags.push('python-brace-format');
    if (draw(9) < 0.05) flags.push(`max-length:${40 + 10 * Math.floor(draw(10) * 16)}`);
    const readOnly = draw(11) < 0.01;
    if (readOnly) flags.push('read-only');
    if (kind === 'term' && draw(12) < 0.3) flags.push('terminology');
    if (kind === 'term' && draw(13) < 0.03) flags.push('forbidden');
    const priority = draw(14) < 0.03 ? 120 : 100;

    const context = kind !== 'term' && draw(15) < 0.12 ? pick(contexts, mix(seed, topic.stringShape, c, index, 16)) : '';
    const [noteA = '', noteB = ''] = [englishWords[wordAt(20)], englishWords[wordAt(21)]];
    const note = draw(17) < 0.3 ? pick(noteTemplates, mix(seed, topic.stringShape, c, index, 18))(noteA, noteB) : '';
    const explanationChance = kind === 'term' ? 0.4 : 0.01;
    const explanation = draw(19) < explanationChance ? `Use “${source[0]}” for the ${noteA} shown in the ${noteB} view.` : '';

    let hash: bigint | undefined;
    return {
      shape,
      source,
      context,
      note,
      location: kind === 'term' ? '' : locationOf(index, draw(22), draw(23), noteA, noteB),
      flags: flags.join(', '),
      extraFlags: priority === 100 ? '' : `priority:${priority}`,
      priority,
      explanation,
      readOnly,
      position: positionOf(seed, component, index),
      numWords: (source[0] ?? '').split(/\s+/).filter(Boolean).length,
      hash: () => (hash ??= unitHash(source, context)),
    };
  };
}

function locationOf(index: number, draw: number, second: number, a: string, b: string): string {
  if (draw < 0.25) return '';
  const first = `src/${a}/${b}_view.c:${10 + (index % 900)}`;
  return second < 0.2 ? `${first}, src/${b}/main.c:${20 + (index % 400)}` : first;
}

/** Neighbouring strings swap places in the file now and then, like strings inserted later. */
function positionOf(seed: number, component: ComponentPlan, index: number): number {
  const partner = index ^ 1;
  if (partner >= component.strings) return index + 1;
  const swapped = chance(seed, topic.stringShape, component.index, index >> 1, 99) < 0.1;
  return (swapped ? partner : index) + 1;
}

/**
 * The text of a string in one word table, as `forms` plural forms (one for non-plurals).
 * English supplies real singular and plural nouns; other tables vary the noun per form.
 */
export function renderForms(shape: StringShape, table: WordTable, forms: number, english = false): string[] {
  const count = shape.kind === 'plural' ? forms : 1;
  return Array.from({ length: count }, (_, form) => renderForm(shape, table, form, english));
}

function renderForm(shape: StringShape, table: WordTable, form: number, english: boolean): string {
  const size = table.words.length;
  const words = shape.words.map((word, slot) => {
    const text = table.words[word % size] ?? '';
    return shape.markup?.at === slot ? `${shape.markup.open}${text}${shape.markup.close}` : text;
  });
  if (shape.kind === 'plural') {
    const pair = englishNouns[shape.noun] ?? ['', ''];
    const noun = english ? pair[form === 0 ? 0 : 1] : (table.words[(shape.noun * 5 + form) % size] ?? '');
    words.unshift(`%d${table.joiner}${noun}`);
  }
  let text = '';
  words.forEach((word, slot) => {
    text += slot === 0 ? word : slot === shape.breakAt ? `\n${word}` : `${table.joiner}${word}`;
  });
  if (table.cased && shape.kind !== 'term') text = text.charAt(0).toUpperCase() + text.slice(1);
  if (shape.placeholder) text += `${table.joiner}${shape.placeholder}`;
  return text + shape.ending;
}
