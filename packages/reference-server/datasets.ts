import { MemoryModel } from './memory-model.ts';
import type { Model } from './model.ts';
import { allLanguages, withAllLanguages } from './all-languages.ts';

/** A `--data` value the server cannot load; the message says what is accepted. */
export class DatasetError extends Error {
  override name = 'DatasetError';
}

export const DATASET_HELP =
  'bundled, or synthetic:projects=P,components=C,languages=L,units=U,seed=S; add ",all-languages" to list every language a real server knows (652)';

const ALL_LANGUAGES = ',all-languages';

/**
 * The model a `--data` value names: the bundled real catalogs (mutable) or a lazy synthetic
 * instance (read-only); `…,all-languages` lists every language a real server knows besides
 * the ones in use (`all-languages.ts`).
 */
export async function loadDataset(data: string, options: { now?: () => Date } = {}): Promise<Model> {
  const everyLanguage = data.endsWith(ALL_LANGUAGES);
  const base = everyLanguage ? data.slice(0, -ALL_LANGUAGES.length) : data;
  if (base === 'bundled') {
    const { loadBundledRows } = await import('./data/bundled.ts');
    const rows = loadBundledRows();
    // The in-memory model takes them as its own rows, so activity can add a translation in any.
    return new MemoryModel(everyLanguage ? { ...rows, languages: allLanguages(rows.languages) } : rows, options);
  }
  if (base.startsWith('synthetic:')) {
    const { parseSyntheticSpec, createSyntheticModel } = await import('./synthetic/index.ts');
    let spec;
    try {
      spec = parseSyntheticSpec(base.slice('synthetic:'.length));
    } catch (error) {
      throw new DatasetError(`--data ${data}: ${error instanceof Error ? error.message : String(error)} (expected ${DATASET_HELP})`);
    }
    const model = createSyntheticModel(spec);
    return everyLanguage ? withAllLanguages(model) : model;
  }
  throw new DatasetError(`--data "${data}" is not a dataset; use ${DATASET_HELP}`);
}
