import { describe, expect, it } from 'vitest';
import type { TranslationEntry } from '../../archive/diff.ts';
import { noFigures, type Figures } from '../../archive/figures.ts';
import {
  countAtLevels,
  crossingTitle,
  describeCount,
  groupLevels,
  levelCrossings,
  levelEntries,
  levelOf,
  parseLevels,
  type Levels,
} from '../../archive/levels.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { crawlInto, historyServer } from './crawl.ts';

const levelsOf = (text?: string): Levels => {
  const parsed = parseLevels(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

const strings = (translated: number, total: number): Figures => ({ ...noFigures, translated, total });

describe('--levels', () => {
  it('reads NAME=PERCENT by strings by default, highest level first, the default being ship, beta, alpha', () => {
    expect(parseLevels()).toEqual({
      measure: 'strings',
      levels: [
        { name: 'ship', percent: 95 },
        { name: 'beta', percent: 90 },
        { name: 'alpha', percent: 80 },
      ],
    });
    expect(parseLevels(' alpha=50 , ship=99.5 ')).toEqual({
      measure: 'strings',
      levels: [
        { name: 'ship', percent: 99.5 },
        { name: 'alpha', percent: 50 },
      ],
    });
    expect(parseLevels('words:ship=95')).toEqual({ measure: 'words', levels: [{ name: 'ship', percent: 95 }] });
    expect(parseLevels('strings:ship=100,none=0')).toEqual({
      measure: 'strings',
      levels: [
        { name: 'ship', percent: 100 },
        { name: 'none', percent: 0 },
      ],
    });
  });

  it('refuses a bad value with one line naming the flag, the part and what is expected', () => {
    expect(parseLevels('ship=95,beta=abc')).toBe("--levels: 'beta=abc' is not NAME=PERCENT (a number from 0 to 100)");
    expect(parseLevels('ship=101')).toBe("--levels: 'ship=101' is not NAME=PERCENT (a number from 0 to 100)");
    expect(parseLevels('ship=-1')).toBe("--levels: 'ship=-1' is not NAME=PERCENT (a number from 0 to 100)");
    expect(parseLevels('ship')).toBe("--levels: 'ship' is not NAME=PERCENT (a number from 0 to 100)");
    expect(parseLevels('ship=95,,beta=90')).toBe("--levels: '' is not NAME=PERCENT (a number from 0 to 100)");
    expect(parseLevels('Ship=95')).toBe("--levels: 'Ship=95' has no valid NAME (lower-case letters, digits, - and _, starting with a letter)");
    expect(parseLevels('=95')).toBe("--levels: '=95' has no valid NAME (lower-case letters, digits, - and _, starting with a letter)");
    expect(parseLevels('ship=95,ship=90')).toBe("--levels: 'ship' is named twice; expected each level once");
    expect(parseLevels('ship=95,beta=95')).toBe("--levels: 'beta=95' repeats 95%; expected each level at its own percent");
    expect(parseLevels('chars:ship=95')).toBe("--levels: 'chars:' is not a measure; expected strings: or words: before the levels");
    expect(parseLevels('')).toBe('--levels: no levels given; expected NAME=PERCENT, comma-separated (e.g. ship=95,beta=90,alpha=80)');
    for (const bad of ['ship=95,beta=abc', 'ship=101', 'chars:ship=95', '']) expect(parseLevels(bad)).not.toContain('\n');
  });
});

describe('a translation’s level', () => {
  const levels = levelsOf();

  it('is the highest level whose threshold the server’s percent meets, rounded down as Weblate rounds', () => {
    expect(levelOf(strings(95, 100), levels)?.name).toBe('ship');
    // 94.95% is 94.9% on the server (rounded down): beta, not ship.
    expect(levelOf(strings(1899, 2000), levels)?.name).toBe('beta');
    expect(levelOf(strings(90, 100), levels)?.name).toBe('beta');
    expect(levelOf(strings(899, 1000), levels)?.name).toBe('alpha');
    expect(levelOf(strings(79, 100), levels)).toBeUndefined();
    // 1 of 1000 is 0.1% on the server, never 0.0: it meets a 0.1% level.
    expect(levelOf(strings(1, 1000), levelsOf('started=0.1'))?.name).toBe('started');
    // 999 of 1000 is 99.9%, and so is 9999 of 10000: never 100 unless complete.
    expect(levelOf(strings(9999, 10000), levelsOf('done=100,nearly=99.9'))?.name).toBe('nearly');
    expect(levelOf(strings(10, 10), levelsOf('done=100,nearly=99.9'))?.name).toBe('done');
  });

  it('counts words when the levels say words', () => {
    const figures: Figures = { total: 10, translated: 9, fuzzy: 0, total_words: 100, translated_words: 50 };
    expect(levelOf(figures, levelsOf('ship=90'))?.name).toBe('ship');
    expect(levelOf(figures, levelsOf('words:ship=90'))).toBeUndefined();
    expect(levelOf(figures, levelsOf('words:ship=90,half=50'))?.name).toBe('half');
  });
});

const named = (slug: string) => ({ slug, name: slug.toUpperCase() });
const entry = (project: string, component: string, language: string, figures: Figures): TranslationEntry => ({
  path: `api/translations/${project}/${component}/${language}/`,
  project: named(project),
  component: named(component),
  language: named(language),
  figures,
  unitsHash: undefined,
});

describe('levels of a project and its components', () => {
  const levels = levelsOf();
  const entries = [
    entry('p', 'a', 'cs', strings(100, 100)),
    entry('p', 'b', 'cs', strings(80, 100)),
    entry('p', 'a', 'de', strings(96, 100)),
    entry('p', 'b', 'de', strings(96, 100)),
    entry('p', 'a', 'fr', strings(10, 100)),
  ];

  it('sums a language’s figures over the project’s components before classifying', () => {
    const [project] = groupLevels(entries, levels, 'project');
    // cs: 180 of 200 is 90%: beta, though one component ships and the other is alpha.
    expect(project!.languages.map((language) => [language.language.slug, language.percent, language.level])).toEqual([
      ['cs', 90, 'beta'],
      ['de', 96, 'ship'],
      ['fr', 10, undefined],
    ]);
    expect(countAtLevels(project!, levels)).toEqual([
      { level: 'ship', count: 1 },
      { level: 'beta', count: 1 },
      { level: 'alpha', count: 0 },
      { level: undefined, count: 1 },
    ]);
    expect(describeCount(1, 'ship')).toBe('1 language at level ship');
    expect(describeCount(3, 'beta')).toBe('3 languages at level beta');
    expect(describeCount(2, undefined)).toBe('2 languages below every level');
  });

  it('classifies each component’s translations on their own', () => {
    const components = groupLevels(entries, levels, 'component');
    expect(components.map((group) => [group.key, group.name, group.languages.map((language) => `${language.language.slug}:${language.level}`)])).toEqual([
      ['p/a', 'A', ['cs:ship', 'de:ship', 'fr:undefined']],
      ['p/b', 'B', ['cs:alpha', 'de:ship']],
    ]);
  });

  it('lists crossings up and down between two snapshots, not languages that came or went', () => {
    const after = [
      entry('p', 'a', 'cs', strings(100, 100)),
      entry('p', 'b', 'cs', strings(95, 100)),
      entry('p', 'a', 'de', strings(80, 100)),
      entry('p', 'b', 'de', strings(80, 100)),
      entry('p', 'a', 'fr', strings(11, 100)),
      entry('p', 'a', 'pl', strings(100, 100)),
    ];
    const crossings = levelCrossings(entries, after, levels, 'project');
    expect(crossings.map(({ key, language, from, to, direction }) => ({ key, language: language.slug, from, to, direction }))).toEqual([
      { key: 'p', language: 'cs', from: 'beta', to: 'ship', direction: 'up' },
      { key: 'p', language: 'de', from: 'ship', to: 'alpha', direction: 'down' },
    ]);
    expect(crossingTitle(crossings[0]!)).toBe('CS in P went up from beta to ship (90.0% → 97.5%)');
    const fell = levelCrossings([entry('p', 'a', 'fr', strings(85, 100))], [entry('p', 'a', 'fr', strings(5, 100))], levels, 'component');
    expect(fell.map((crossing) => [crossing.from, crossing.to, crossing.direction])).toEqual([['alpha', undefined, 'down']]);
    expect(crossingTitle(fell[0]!)).toBe('FR in A went down from alpha to below every level (85.0% → 5.0%)');
  });
});

describe('levels of a crawled snapshot', () => {
  const contentDir = useContentFolders('tmsnap-levels-', 'all');

  it('agree with the server’s own translated_percent, leave out source languages, and cross when strings are translated', async () => {
    const model = fixtureModel();
    const server = await historyServer(model);
    try {
      const content = await contentDir();
      const first = await openSnapshot(content, await crawlInto(server, content));
      const levels = levelsOf('ship=95,beta=75,alpha=50');
      const entries = await levelEntries(first);
      // The fixture's source-language (English) translations are complete and not counted.
      expect(entries.some((each) => each.language.slug === 'en')).toBe(false);
      expect(entries.length).toBeGreaterThan(0);
      const percents = new Map((await first.translations()).map(({ path, record }) => [path, record.translated_percent]));
      for (const each of entries) {
        const own = percents.get(each.path)!;
        expect(levelOf(each.figures, levels)?.name, each.path).toBe(levels.levels.find((level) => own >= level.percent)?.name);
      }
      const cs = groupLevels(entries, levels, 'component').find((group) => group.key === 'hello/po')!;
      const before = cs.languages.find((language) => language.language.slug === 'cs')!;
      // Czech Messages: 4 of 6 strings translated (one needs editing, one untranslated).
      expect([before.percent, before.level]).toEqual([66.6, 'alpha']);

      // Translate the untranslated Czech "Open" (adjective): 5 of 6, 83.3%, beta.
      const translation = model.translations().find((row) => row.componentId === 1 && row.languageCode === 'cs')!;
      const open = model.units(translation.id, 0, 100).find((unit) => unit.context === 'adjective')!;
      model.translate(open.id, ['Otevřený'], 'alice');
      const second = await openSnapshot(content, await crawlInto(server, content));
      const crossings = levelCrossings(entries, await levelEntries(second), levels, 'component');
      expect(crossings.map((crossing) => [crossing.key, crossing.language.slug, crossing.from, crossing.to, crossing.direction, crossing.after])).toEqual([
        ['hello/po', 'cs', 'alpha', 'beta', 'up', 83.3],
      ]);
      expect(crossingTitle(crossings[0]!)).toBe('Czech in Messages went up from alpha to beta (66.6% → 83.3%)');
    } finally {
      await server.close();
    }
  });
});
