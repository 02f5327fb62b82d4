import { MemoryModel } from './memory-model.ts';
import type { Model } from './model.ts';

/** A `--data` value the server cannot load; the message says what is accepted. */
export class DatasetError extends Error {
  override name = 'DatasetError';
}

export const DATASET_HELP = 'bundled, or synthetic:projects=P,components=C,languages=L,units=U,seed=S';

/** The model a `--data` value names: the bundled real catalogs (mutable) or a lazy synthetic instance (read-only). */
export async function loadDataset(data: string, options: { now?: () => Date } = {}): Promise<Model> {
  if (data === 'bundled') {
    const { loadBundledRows } = await import('./data/bundled.ts');
    return new MemoryModel(loadBundledRows(), options);
  }
  if (data.startsWith('synthetic:')) {
    const { parseSyntheticSpec, createSyntheticModel } = await import('./synthetic/index.ts');
    let spec;
    try {
      spec = parseSyntheticSpec(data.slice('synthetic:'.length));
    } catch (error) {
      throw new DatasetError(`--data ${data}: ${error instanceof Error ? error.message : String(error)} (expected ${DATASET_HELP})`);
    }
    return createSyntheticModel(spec);
  }
  throw new DatasetError(`--data "${data}" is not a dataset; use ${DATASET_HELP}`);
}
