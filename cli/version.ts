import { readFileSync } from 'node:fs';

/** tmsnap's version, from package.json: shown by `tmsnap --version` and sent in the crawler's User-Agent. */
export const version: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
