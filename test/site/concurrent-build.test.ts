import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildWithCli } from './browser.ts';
import { writeFixtureSnapshot } from './fixture.ts';
import { useTempFolders } from '../helpers/temp.ts';

const work = await useTempFolders('tmsnap-concurrent-build-', 'all')();

// Astro stages page chunks in <cwd>/.astro/ when --out lies outside the working directory;
// two such builds at once used to overwrite each other's chunks and fail.
test('two builds at once into folders outside the project both succeed', async () => {
  const content = join(work, 'content');
  await writeFixtureSnapshot(content);
  const outs = [join(work, 'one'), join(work, 'two')];
  await Promise.all(outs.map((out) => buildWithCli(['--content', content, '--out', out])));
  const homes = await Promise.all(outs.map((out) => readFile(join(out, 'index.html'), 'utf8')));
  expect(homes[0]).toContain('Translation status');
  expect(homes[1]).toBe(homes[0]);
}, 600_000);
