/**
 * Writes a synthetic instance straight into a snapshot, with the reference server's own model
 * and record renderer but no HTTP, so the search bench can have a million units in minutes
 * on a busy two-core machine (the crawler has its own bench). Prints what it wrote.
 *
 *   node --import tsx bench/search-snapshot.ts OUT_CONTENT_DIR [spec]
 *   (default spec: projects=4,components=5,languages=50,units=1000000,seed=1)
 */
import { instanceOf } from '../reference-server/instance.ts';
import { componentRecord, languageRecord, linksFor, projectRecord, translationPath, translationRecord, unitRecord } from '../reference-server/render.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../reference-server/synthetic/index.ts';
import { openSnapshotWriter } from '../snapshot/writer.ts';

const [out, specText = 'projects=4,components=5,languages=50,units=1000000,seed=1'] = process.argv.slice(2);
if (!out) throw new Error('usage: bench/search-snapshot.ts OUT_CONTENT_DIR [synthetic spec]');
const origin = 'http://127.0.0.1:8000';
const links = linksFor(origin, '');
const model = createSyntheticModel(parseSyntheticSpec(specText));
const instance = instanceOf(model);
const started = performance.now();
const writer = await openSnapshotWriter(out, { baseUrl: `${origin}/api/`, scope: {}, tmsnapVersion: 'bench', resume: false });

for (const language of model.languages()) await writer.putRecord(links.api(`languages/${language.code}/`), languageRecord(links, language));
for (const project of model.projects()) await writer.putRecord(links.api(`projects/${project.slug}/`), projectRecord(links, project));
for (const component of model.components()) {
  const project = instance.projectOf(component);
  await writer.putRecord(
    links.api(`components/${project.slug}/${component.slug}/`),
    componentRecord(links, component, project, instance.language(component.sourceLanguage)),
  );
}
let units = 0;
const translations = model.translations();
for (const [index, translation] of translations.entries()) {
  const component = instance.componentOf(translation);
  const project = instance.projectOf(component);
  const url = links.api(`translations/${translationPath(project, component, translation.languageCode)}`);
  const context = {
    translation,
    component,
    project,
    language: instance.language(translation.languageCode),
    sourceLanguage: instance.language(component.sourceLanguage),
    counts: instance.counts(translation.id),
    last: null,
  };
  await writer.putRecord(url, translationRecord(links, context, true));
  const rows = model.units(translation.id, 0, model.unitCount(translation.id));
  await writer.putUnits(
    url,
    rows.map((row) => unitRecord(links, row, { project, component, languageCode: translation.languageCode })),
  );
  units += rows.length;
  if (index % 100 === 0) process.stderr.write(`\r${index + 1}/${translations.length} translations, ${units} units`);
}
const finished = await writer.finish({ requests: { made: 0, minimum: 0 }, problems: [], complete: true });
console.log(
  `\nsnapshot ${finished.id} in ${out}: synthetic:${specText}, ${translations.length} translations, ${units} units, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
