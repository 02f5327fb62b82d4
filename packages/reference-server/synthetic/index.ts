/** The lazy synthetic dataset: `--data synthetic:projects=P,components=C,languages=L,units=U,seed=S`. */
export { createSyntheticModel } from './model.ts';
export { SyntheticSpecError, parseSyntheticSpec, type SyntheticSpec } from './spec.ts';
