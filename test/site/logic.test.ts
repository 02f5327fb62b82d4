import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentPathOf, lenientParse, projectPathOf } from '../../site-model/records.ts';
import { badgeSvg, escapeXml } from '../../src/utils/badge.ts';
import { plainRelative, relativeHref, rootPrefix, safeFileName, safeSegment, sitePaths } from '../../site-model/paths.ts';
import { isSafeLink, renderInstructions } from '../../src/utils/markdown.ts';
import { stateOf, stateWords } from '../../api/states.ts';
import { chartOf, instantLabels } from '../../archive/chart.ts';
import { en } from '../../src/i18n/en.ts';
import { actionName, stateLabel } from '../../src/utils/names.ts';
import { evaluatePlural, parsePluralFormula, PluralFormulaError, pluralExamples } from '../../src/utils/plural.ts';
import { languageTag } from '../../src/utils/language-tag.ts';
import { escapeHtml, html } from '../../src/utils/html.ts';
import { progressSegments, translatedPercent } from '../../src/utils/progress.ts';
import { unitPageCount, unitPageOf, unitsPerPage } from '../../site-model/paths.ts';
import { locationLinks } from '../../src/utils/repoweb.ts';

const formulas = {
  ar: '(n==0) ? 0 : ((n==1) ? 1 : ((n==2) ? 2 : ((n%100>=3 && n%100<=10) ? 3 : ((n%100>=11 && n%100<=99) ? 4 : 5))))',
  pl: 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',
  ru: 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',
  fr: 'n > 1',
  ja: '0',
};

describe('plural formulas', () => {
  it('gives the example counts of each form for ar, pl, ru, fr and ja', () => {
    expect(pluralExamples(formulas.ar, 6, 4)).toEqual([[0], [1], [2], [3, 4, 5, 6], [11, 12, 13, 14], [100, 101, 102, 200]]);
    expect(pluralExamples(formulas.pl, 3)).toEqual([[1], [2, 3, 4, 22, 23, 24], [0, 5, 6, 7, 8, 9]]);
    expect(pluralExamples(formulas.ru, 3)).toEqual([
      [1, 21, 31, 41, 51, 61],
      [2, 3, 4, 22, 23, 24],
      [0, 5, 6, 7, 8, 9],
    ]);
    expect(pluralExamples(formulas.fr, 2)).toEqual([
      [0, 1],
      [2, 3, 4, 5, 6, 7],
    ]);
    expect(pluralExamples(formulas.ja, 1)).toEqual([[0, 1, 2, 3, 4, 5]]);
  });

  it('follows C precedence and short-circuits', () => {
    expect(evaluatePlural(parsePluralFormula('1 + 2 * 3 == 7'), 0)).toBe(1);
    expect(evaluatePlural(parsePluralFormula('n - 1 - 1'), 5)).toBe(3);
    expect(evaluatePlural(parsePluralFormula('!n'), 0)).toBe(1);
    expect(evaluatePlural(parsePluralFormula('n == 0 || 10 / n > 1'), 0)).toBe(1);
    expect(evaluatePlural(parsePluralFormula('n != 0 && 10 % n'), 0)).toBe(0);
    expect(evaluatePlural(parsePluralFormula('7 / 2'), 0)).toBe(3);
    expect(evaluatePlural(parsePluralFormula('n ? 1 : 0 ? 2 : 3'), 0)).toBe(3);
  });

  it('accepts the gettext header form', () => {
    expect(pluralExamples('nplurals=2; plural=(n != 1);', 2, 2)).toEqual([[1], [0, 2]]);
  });

  it.each([
    ['alert(1)', /unexpected "a"/],
    ['n; process.exit(1)', /unexpected ";"/],
    ['constructor', /unexpected "c"/],
    ['n == 1 ?', /ends too early/],
    ['(n', /expected "\)"/],
    ['n n', /after the end/],
    ['', /empty/],
    ['n = 1', /unexpected "="/],
    ['n ** 2', /unexpected "\*"/],
    ['0x10', /after the end|unexpected "x"/],
    ['('.repeat(300) + 'n' + ')'.repeat(300), /deeper than/],
    ['!'.repeat(300) + 'n', /deeper than/],
    ['n'.padEnd(2000, ' '), /longer than/],
    ['99999999999999999999', /too large/],
  ])('refuses formula #%# with a clear error', (formula, message) => {
    let error: unknown;
    try {
      parsePluralFormula(formula);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PluralFormulaError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^plural formula ".*": .* at character \d+$/s);
  });

  it('skips counts that divide by zero instead of failing the page', () => {
    expect(pluralExamples('10 / (n - 1) > 3 ? 1 : 0', 2, 3)).toEqual([
      [0, 4, 5],
      [2, 3],
    ]);
  });

  it('ignores form indexes the language does not have', () => {
    expect(pluralExamples('n', 2, 3)).toEqual([[0], [1]]);
  });
});

describe('names', () => {
  it('names known states in the site’s words and shows unknown ones as numbers', () => {
    expect([0, 10, 11, 12, 20, 30, 100].map(stateLabel)).toEqual([
      'untranslated',
      'needs editing',
      'needs editing (needs rewriting)',
      'needs editing (needs checking)',
      'translated',
      'approved',
      'read-only',
    ]);
    expect(stateLabel(42)).toBe('state 42');
    // The pages' English words are the table's (api/states.ts), one vocabulary for site and CLI (issue 35).
    for (const { state, label } of stateWords) expect(en[`state.${state}` as keyof typeof en]).toBe(label);
  });

  it('takes a state in Weblate’s words or the site’s, however written (issue 35)', () => {
    const words = [
      'empty',
      'untranslated',
      'Untranslated',
      'needs-editing',
      'needs editing',
      'needs_editing',
      'fuzzy',
      'needs-rewriting',
      'needs editing (needs rewriting)',
    ];
    expect(words.map(stateOf)).toEqual([0, 0, 0, 10, 10, 10, 10, 11, 11]);
    expect(['needs-checking', 'translated', 'approved', 'read-only', 'readonly', '20', ' 42 '].map(stateOf)).toEqual([12, 20, 30, 100, 100, 20, 42]);
    expect(['', 'nope', 'needs', '-'].map(stateOf)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('names known actions and keeps unknown codes raw', () => {
    expect(actionName(59)).toBe('String updated in the repository');
    expect(actionName(999)).toBe('action 999');
  });
});

describe('markdown instructions', () => {
  it('keeps HTML as text and drops unsafe links', () => {
    const html = renderInstructions(
      '<script>window.__pwned=1</script>\r\n\r\n[x](javascript:alert(1)) [y](https://example.org/a) <img src=x onerror=alert(1)> ![i](https://tracker.example/p.png)',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://example.org/a" rel="nofollow noopener noreferrer">y</a>');
    expect(html).toContain('[x](javascript:alert(1))');
  });

  it('starts headings at h3, below the headings of the page', () => {
    expect(renderInstructions('# Title\n\n###### Small')).toBe('<h3>Title</h3>\n<h6>Small</h6>\n');
  });

  it('allows only http, https and mailto', () => {
    expect(['http://a.example', 'https://a.example', 'mailto:a@b.example'].every(isSafeLink)).toBe(true);
    expect(['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,x', '/relative', 'vbscript:x', 'file:///etc/passwd'].some(isSafeLink)).toBe(false);
  });
});

describe('repoweb links', () => {
  it('fills branch, filename and line for each location', () => {
    expect(locationLinks('src/a b.c:12, lib/x.py:3', 'https://git.example/r/blob/{{branch}}/{{ filename }}#L{{line}}', 'main')).toEqual([
      { text: 'src/a b.c:12', href: 'https://git.example/r/blob/main/src/a%20b.c#L12' },
      { text: 'lib/x.py:3', href: 'https://git.example/r/blob/main/lib/x.py#L3' },
    ]);
  });

  it('keeps locations as text without a template or with a non-http one', () => {
    expect(locationLinks('a.c:1', '', 'main')).toEqual([{ text: 'a.c:1' }]);
    expect(locationLinks('a.c:1', 'javascript:alert("{{filename}}")', 'main')).toEqual([{ text: 'a.c:1' }]);
  });
});

describe('badges', () => {
  it('escapes every piece of text', () => {
    const svg = badgeSvg('<b>"x"&', 87.55);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;&quot;x&quot;&amp;');
    expect(svg).toContain('87.5%');
    expect(escapeXml(`'`)).toBe('&apos;');
  });
});

describe('links', () => {
  it('makes slugs and codes safe path segments', () => {
    expect(safeSegment('weblate')).toBe('weblate');
    expect(safeSegment('pt_BR')).toBe('pt_BR');
    for (const hostile of ['..', '../etc', 'cat%2Fcomp', 'a/b', '.', 'x\\y', 'ĉu', '']) {
      const segment = safeSegment(hostile);
      expect(segment).toMatch(/^[A-Za-z0-9_@+-]+$/);
    }
    expect(safeSegment('a/b')).not.toBe(safeSegment('a-b'));
    expect(safeSegment('cat%2Fcomp')).not.toBe(safeSegment('cat/comp'));
    expect(safeFileName('po/../../de.po')).toBe('de.po');
    expect(safeFileName('../..')).toMatch(/^[A-Za-z0-9_@+-]+\.txt$/);
  });

  it('links relatively, ending in a file name', () => {
    const unitPath = sitePaths.units({ project: 'p', component: 'c', language: 'de' }, 2);
    expect(relativeHref(unitPath, sitePaths.home())).toBe('../../../../../../index.html');
    expect(relativeHref(sitePaths.home(), sitePaths.project('p'))).toBe('projects/p/index.html');
    expect(relativeHref(sitePaths.project('p'), sitePaths.project('p'))).toBe('index.html');
    expect(relativeHref(sitePaths.component('p', 'c'), sitePaths.language('de'))).toBe('../../../languages/de/index.html');
    expect(relativeHref(unitPath, unitPath, 'unit-7')).toBe('index.html#unit-7');
    expect(rootPrefix(unitPath)).toBe('../../../../../../');
    expect(rootPrefix('index.html')).toBe('');
  });

  it('links as posix.relative does, for every pair of paths, plain or not', () => {
    // Segments that share a start (`a`, `ab`), paths that are a folder of the other, and ones `plainRelative` leaves to posix.
    const segments = ['a', 'ab', 'b', 'index.html', 'x.svg'];
    const plain: string[] = [];
    const grow = (prefix: string, depth: number) => {
      for (const segment of segments) {
        const path = prefix === '' ? segment : `${prefix}/${segment}`;
        plain.push(path);
        if (depth > 1) grow(path, depth - 1);
      }
    };
    grow('', 3);
    const odd = ['', '/abs/index.html', 'a/', 'a//b', './a', 'a/./b', 'a/../b', '..', 'a/..', '.'];
    const expected = (from: string, to: string) => posix.relative(posix.dirname(from), to) || posix.basename(to);
    for (const from of [...plain, ...odd]) {
      for (const to of [...plain, ...odd]) {
        expect(relativeHref(from, to), `${from} → ${to}`).toBe(expected(from, to));
        const fast = plainRelative(from, to);
        if (fast !== undefined) expect(fast, `${from} → ${to}`).toBe(expected(from, to));
      }
    }
    // The bulk pages' links take the quick way (site-model/paths.ts): not posix.relative's.
    const unitPath = sitePaths.units({ project: 'p', component: 'c', language: 'de' }, 2);
    expect(plainRelative(unitPath, sitePaths.sourceString('p', 'c', '00000000000000ff'))).toBe('../../../strings/ff/00000000000000ff/index.html');
    expect(plainRelative(unitPath, sitePaths.home())).toBe('../../../../../../index.html');
  });

  it('groups units into pages, keeping units beyond the promised total on the last page', () => {
    expect(unitsPerPage).toBe(100);
    expect([0, 1, 100, 101, 250].map(unitPageCount)).toEqual([1, 1, 1, 2, 3]);
    expect([0, 99, 100, 250].map((index) => unitPageOf(index, 3))).toEqual([1, 1, 2, 3]);
    expect(unitPageOf(400, 3)).toBe(3);
  });
});

describe('html strings', () => {
  it('escapes every interpolated value but nested html, and joins arrays', () => {
    const hostile = `"><img src=x onerror=alert(1)>'&`;
    expect(html`<a href="${hostile}">${hostile}</a>`.value).toBe(`<a href="${escapeHtml(hostile)}">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;</a>`);
    expect(html`<ul>${['<a>', html`<li>${'<b>'}</li>`, false, null, undefined, 0]}</ul>`.value).toBe('<ul>&lt;a&gt;<li>&lt;b&gt;</li>0</ul>');
  });
});

describe('language tags', () => {
  it('turns Weblate codes into BCP 47 tags and anything else into und', () => {
    expect(['de', 'pt_BR', 'sr@latin', 'zh_Hant', 'be@cyrillic', 'ca@valencia', '"><x', ''].map(languageTag)).toEqual([
      'de',
      'pt-BR',
      'sr-Latn',
      'zh-Hant',
      'be-Cyrl',
      'ca',
      'und',
      'und',
    ]);
  });
});

describe('progress', () => {
  it('splits into translated, fuzzy and untranslated and clamps bad figures', () => {
    expect(progressSegments({ total: 8, translated: 6, fuzzy: 1 })).toMatchObject({ translatedPercent: 75, fuzzyPercent: 12.5, untranslatedPercent: 12.5 });
    expect(progressSegments({ total: 3, translated: 5, fuzzy: 2 })).toMatchObject({ translatedPercent: 100, fuzzyPercent: 0, untranslatedPercent: 0 });
    expect(progressSegments({ total: 0, translated: 0, fuzzy: 0 }).label).toBe('no strings');
  });

  it('rounds the bar as Weblate rounds the figure beside it (down, never 0.0 or 100.0 by rounding; test/weblate/figures.test.ts)', () => {
    expect(progressSegments({ total: 3, translated: 2, fuzzy: 0 }).translatedPercent).toBe(66.6);
    expect(progressSegments({ total: 2000, translated: 1999, fuzzy: 0 }).translatedPercent).toBe(99.9);
    expect(progressSegments({ total: 2000, translated: 1, fuzzy: 1 })).toMatchObject({ translatedPercent: 0.1, fuzzyPercent: 0.1 });
    // A translation record's own figure is the server's; the bar shows it as it is.
    expect(progressSegments({ total: 0, translated: 0, fuzzy: 0, translated_percent: 0 }).translatedPercent).toBe(0);
    expect(translatedPercent({ total: 0, translated: 0, fuzzy: 0 })).toBe(100);
    expect(translatedPercent({ total: 0, translated: 0, fuzzy: 0, review: true })).toBe(0);
    expect(translatedPercent({ total: 10, translated: 3, fuzzy: 0, translated_percent: 30 })).toBe(30);
  });

  it('floors the untranslated share of its own count, as Weblate floors each share, not the rest of 100 (issue 35)', () => {
    // The home page said 35.1% where 1,049 of 2,996 is 35.0%: 100 − 54.6 − 10.3.
    const bar = progressSegments({ total: 2996, translated: 1637, fuzzy: 310 });
    expect(bar).toMatchObject({ translatedPercent: 54.6, fuzzyPercent: 10.3, untranslatedPercent: 35 });
    expect(bar.label).toBe('54.6% of 2996 strings translated, 10.3% need editing, 35% untranslated');
    expect(progressSegments({ total: 3, translated: 1, fuzzy: 1 })).toMatchObject({ translatedPercent: 33.3, fuzzyPercent: 33.3, untranslatedPercent: 33.3 });
  });
});

describe('raw records read leniently (site-model/records.ts)', () => {
  it('names the owner of a record from its path', () => {
    expect(componentPathOf('api/translations/demo/core/de/')).toBe('api/components/demo/core/');
    expect(componentPathOf('api/translations/demo/cat%252Fcomp/pt_BR/')).toBe('api/components/demo/cat%252Fcomp/');
    expect(componentPathOf('api/projects/demo/')).toBe('');
    expect(projectPathOf('api/components/demo/core/')).toBe('api/projects/demo/');
    expect(projectPathOf('api/translations/demo/core/de/')).toBe('');
  });

  it('keeps fields that fit, puts in what is known, and fills the rest with empty stand-ins', () => {
    const schema = z.object({
      name: z.string(),
      count: z.number().int(),
      note: z.string().nullable(),
      tags: z.array(z.string()),
      extra: z.string().optional(),
    });
    expect(lenientParse(schema, { name: 42, count: 3, note: 7, tags: 'x' }, { name: 'known' })).toEqual({ name: 'known', count: 3, note: null, tags: [] });
    expect(lenientParse(z.object({ id: z.literal(1) }), {}, {})).toBeUndefined();
  });
});

describe('history chart dates', () => {
  it('tells snapshots a minute apart by the minute, not the day they share (issue 35)', () => {
    const at = (text: string) => new Date(text);
    expect(instantLabels([at('2026-11-20T04:15:00Z'), at('2026-11-21T04:15:00Z')])).toEqual(['2026-11-20', '2026-11-21']);
    expect(instantLabels([at('2026-11-20T04:15:00Z'), at('2026-11-20T04:16:30Z'), at('2026-11-21T09:00:00Z')])).toEqual([
      '2026-11-20 04:15',
      '2026-11-20 04:16',
      '2026-11-21 09:00',
    ]);
    expect(instantLabels([at('2026-11-20T04:15:00Z'), at('2026-11-20T04:15:40Z')])).toEqual(['2026-11-20 04:15:00', '2026-11-20 04:15:40']);
    const figures = { total: 10, translated: 5, fuzzy: 1, translated_words: 0, total_words: 0 };
    const chart = chartOf(
      [
        { id: 'a', date: at('2026-11-20T04:15:00Z') },
        { id: 'b', date: at('2026-11-20T04:16:00Z') },
      ],
      [figures, figures] as never,
      true,
    );
    expect(chart.xTicks.map((tick) => tick.label)).toEqual(['2026-11-20 04:15', '2026-11-20 04:16']);
    expect(chart.points.map((point) => point.label)).toEqual(['2026-11-20 04:15', '2026-11-20 04:16']);
  });
});
