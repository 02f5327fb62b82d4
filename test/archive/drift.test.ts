import { describe, expect, it } from 'vitest';
import type { TranslationEntry } from '../../archive/diff.ts';
import { noFigures } from '../../archive/figures.ts';
import { driftByLanguage, foldDrift, noDrift, readDrift } from '../../archive/drift.ts';
import { openSnapshot, storedUnit, type Snapshot, type StoredUnit } from '../../snapshot/index.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { builders, type UnitText } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { crawlInto, historyServer } from './crawl.ts';

const base = 'http://127.0.0.1:8000/';
const build = builders(base);
const translationPath = 'api/translations/demo/po/cs/';

/** A unit as the snapshot stores it (links relative to the server's base). */
function unit(id: number, text: UnitText & { state: number }): StoredUnit {
  const record = build.unit(`${base}${translationPath}`, id, id, BigInt(id) * 7919n, text);
  return storedUnit.parse({ ...record, translation: translationPath, source_unit: `api/units/${id + 100}/`, url: `api/units/${id}/` });
}

const entry = (path = translationPath, language = 'cs'): TranslationEntry => ({
  path,
  project: { slug: 'demo', name: 'Demo' },
  component: { slug: 'po', name: 'Messages' },
  language: { slug: language, name: language === 'cs' ? 'Czech' : language },
  figures: noFigures,
  unitsHash: undefined,
});

/** The drifting units (id, since, translated source) after folding one translation's unit lists, snapshot `s1`, `s2`, … in order. */
function driftOver(...lists: (readonly StoredUnit[] | undefined)[]) {
  let state = noDrift();
  lists.forEach((units, at) => {
    // `undefined`: the translation is not in that snapshot.
    state = foldDrift(state, { id: `s${at + 1}`, entries: units ? [entry()] : [], units: new Map(units ? [[translationPath, units]] : []) });
  });
  return driftByLanguage(state).flatMap((language) =>
    language.units.map((each) => ({ id: each.id, since: each.since, translatedSource: each.translatedSource })),
  );
}

describe('source drift, the rule', () => {
  const translated = unit(1, { source: ['Save'], target: ['Uložit'], state: 20 });

  it('marks a translated string whose source changed while its text and state stayed', () => {
    const changed = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    expect(driftOver([translated], [translated], [changed], [changed])).toEqual([{ id: 1, since: 's3', translatedSource: ['Save'] }]);
  });

  it('keeps the first change and the source translated against when the source changes twice', () => {
    const once = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    const twice = unit(1, { source: ['Save everything'], target: ['Uložit'], state: 20 });
    expect(driftOver([translated], [once], [twice])).toEqual([{ id: 1, since: 's2', translatedSource: ['Save'] }]);
  });

  it('clears when the string is translated again, approved, or confirmed after the change', () => {
    const changed = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    expect(driftOver([translated], [changed], [unit(1, { source: ['Save all'], target: ['Uložit vše'], state: 20 })])).toEqual([]);
    expect(driftOver([translated], [changed], [unit(1, { source: ['Save all'], target: ['Uložit'], state: 30 })])).toEqual([]);
    // Weblate marks it needing edit when the source changes; a reviewer confirms the text as it is.
    const marked = unit(1, { source: ['Save all'], target: ['Uložit'], state: 10 });
    expect(driftOver([translated], [marked])).toEqual([]);
    expect(driftOver([translated], [marked], [changed])).toEqual([]);
  });

  it('counts a new source and a new text in the same interval as translated against the new source', () => {
    expect(driftOver([translated], [unit(1, { source: ['Save all'], target: ['Uložit vše'], state: 20 })])).toEqual([]);
  });

  it('is not drifting while marked for editing after the change, nor once confirmed from there', () => {
    const changed = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    // Marked for editing after the change: not translated now, so not drifting; but not worked on either.
    const marked = unit(1, { source: ['Save all'], target: ['Uložit'], state: 10 });
    expect(driftOver([translated], [changed], [marked])).toEqual([]);
    // Confirmed back to translated: that is work on the new source.
    expect(driftOver([translated], [changed], [marked], [changed])).toEqual([]);
  });

  it('compares every plural form of the source', () => {
    const plural = unit(2, { source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 20 });
    const otherForm = unit(2, { source: ['%d file', '%d files saved'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 30 });
    const samePlural = unit(2, { source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 20 });
    const approved = unit(2, { source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 30 });
    const droppedForm = unit(2, { source: ['%d file'], target: ['%d soubor', '%d soubory', '%d souborů'], state: 30 });
    expect(driftOver([approved], [otherForm])).toEqual([{ id: 2, since: 's2', translatedSource: ['%d file', '%d files'] }]);
    expect(driftOver([approved], [droppedForm])).toEqual([{ id: 2, since: 's2', translatedSource: ['%d file', '%d files'] }]);
    expect(driftOver([plural], [samePlural])).toEqual([]);
  });

  it('leaves out removed strings, removed translations, untranslated and read-only strings', () => {
    const changed = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    const other = unit(3, { source: ['Quit'], target: ['Konec'], state: 20 });
    expect(driftOver([translated, other], [changed, other], [other])).toEqual([]);
    expect(driftOver([translated], [changed], undefined)).toEqual([]);
    expect(driftOver([unit(4, { source: ['Open'], target: [''], state: 0 })], [unit(4, { source: ['Open…'], target: [''], state: 0 })])).toEqual([]);
    expect(
      driftOver([unit(5, { source: ['Weblate'], target: ['Weblate'], state: 100 })], [unit(5, { source: ['Weblate 5'], target: ['Weblate'], state: 100 })]),
    ).toEqual([]);
  });

  it('compares a unit with the last snapshot that held it, across one that did not, and a list left out with the one before', () => {
    const changed = unit(1, { source: ['Save all'], target: ['Uložit'], state: 20 });
    expect(driftOver([translated], undefined, [changed])).toEqual([{ id: 1, since: 's3', translatedSource: ['Save'] }]);
    // A list left out of a point (same hash as before) keeps the tracks: still drifting after it.
    let state = noDrift();
    state = foldDrift(state, { id: 's1', entries: [entry()], units: new Map([[translationPath, [translated]]]) });
    state = foldDrift(state, { id: 's2', entries: [entry()], units: new Map([[translationPath, [changed]]]) });
    state = foldDrift(state, { id: 's3', entries: [entry()], units: new Map() });
    expect(driftByLanguage(state).map((language) => [language.language.slug, language.units.map((each) => each.id)])).toEqual([['cs', [1]]]);
  });
});

describe('source drift over crawled snapshots', () => {
  const contentDir = useContentFolders('tmsnap-drift-', 'all');

  it('names the strings of each language translated against an older source, until they are translated again', async () => {
    const model = fixtureModel();
    const server = await historyServer(model);
    const snapshots: Snapshot[] = [];
    // A full crawl per night, each in its own folder: the source edit below has no change record.
    const crawl = async () => {
      const content = await contentDir();
      snapshots.push(await openSnapshot(content, await crawlInto(server, content)));
    };
    try {
      await crawl();
      // The repository's source of "Open" (verb) changes; Weblate keeps the units (monolingual) and their translations.
      const sourceUnit = model.units(1, 0, 100).find((row) => row.context === 'verb')!;
      const rows = model.translations().flatMap((translation) => model.units(translation.id, 0, 100).filter((row) => row.sourceUnitId === sourceUnit.id));
      for (const row of rows) row.source = ['Open…'];
      const [cs, ar] = ['cs', 'ar'].map((code) =>
        rows.find((row) => model.translations().find((translation) => translation.id === row.translationId)!.languageCode === code)!,
      );
      // Any recorded edit makes the server render its data again.
      const hello = model.units(2, 0, 100).find((row) => row.position === 4)!;
      model.translate(hello.id, ['Otevřený'], 'bob');
      await crawl();
      const afterChange = await readDrift(snapshots);
      expect(
        afterChange.map((language) => [
          language.language.slug,
          language.units.map((each) => [each.id, each.context, each.source, each.translatedSource, each.since]),
        ]),
      ).toEqual([
        ['ar', [[ar!.id, 'verb', ['Open…'], ['Open'], snapshots[1]!.id]]],
        ['cs', [[cs!.id, 'verb', ['Open…'], ['Open'], snapshots[1]!.id]]],
      ]);
      expect(afterChange.map((language) => language.language.name)).toEqual(['Arabic', 'Czech']);

      model.translate(cs!.id, ['Otevřít…'], 'alice');
      await crawl();
      // Read in any order: folded by crawl date.
      const afterTranslation = await readDrift([...snapshots].reverse());
      expect(afterTranslation.map((language) => [language.language.slug, language.units.map((each) => each.id)])).toEqual([['ar', [ar!.id]]]);
    } finally {
      await server.close();
    }
  });
});
