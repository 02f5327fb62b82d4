import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchSnapshot } from '../../search-index/snapshot-search.ts';
import { sitePaths } from '../../site-model/paths.ts';
import { openSnapshot } from '../../snapshot/index.ts';
import { crawlReferenceServer } from '../helpers/crawl.ts';
import { type ReferenceServer, startTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

/**
 * Issue 9, end to end: a crawl of a server that behaves like a real Weblate 5.4 (the reference
 * server's default profile: nested lists without their parent, anonymous users without url,
 * 403 on repository/, throttling always on), scoped to one project or of the whole instance,
 * anonymous or with a token, publishes every translation and string it can see, and search
 * finds them. The oracle is the server's model, not the crawl.
 */

const token = 'wlu_e2e_token';
/** Real limits are 100 a day anonymous and 5000 an hour: raised, not switched off, so the headers and the budget logic still run. */
const rateLimit = { anonymous: 100_000, authenticated: 100_000, windowSeconds: 3600 };

let server: ReferenceServer;
const folder = useTempFolders('tmsnap-e2e-', 'all');
beforeAll(async () => {
  // Every language Weblate ships, as a real server lists them (652, almost all without a translation).
  server = await startTestServer({ profile: 'weblate-5.4', languages: 'all', behaviours: { tokens: [token], rateLimit } });
});
afterAll(async () => {
  await server.close();
});

interface Expected {
  project: string;
  component: string;
  language: string;
  /** The component's source language: search shows its strings as the sources, not as translations found. */
  source: boolean;
  units: { id: number; source: string[] }[];
}

/** What a client with these credentials may see, from the model: every translation of the visible projects in scope. */
function expected(scope: string[], withToken: boolean): Expected[] {
  const { model } = server;
  const projects = new Map(
    model
      .projects()
      .filter((p) => (withToken || !p.private) && (scope.length === 0 || scope.includes(p.slug)))
      .map((p) => [p.id, p]),
  );
  const components = new Map(model.components().map((c) => [c.id, c]));
  const out: Expected[] = [];
  for (const translation of model.translations()) {
    const component = components.get(translation.componentId)!;
    const project = projects.get(component.projectId);
    if (project === undefined) continue;
    const units = model.units(translation.id, 0, model.unitCount(translation.id)).map((unit) => ({ id: unit.id, source: unit.source }));
    out.push({
      project: project.slug,
      component: component.slug,
      language: translation.languageCode,
      source: translation.languageCode === component.sourceLanguage,
      units,
    });
  }
  return out;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.html')).map((entry) => join(dir, entry));
}

/** A word of the unit's source that the search tokenizer keeps (letters only, long enough to be specific). */
function searchWord(source: string[]): string | undefined {
  return source.join(' ').match(/\p{L}{5,}/u)?.[0];
}

const cases = [
  { name: 'one project, anonymous', scope: ['hello'], withToken: false },
  { name: 'one project, with a token', scope: ['hello'], withToken: true },
  { name: 'the whole instance, anonymous', scope: [], withToken: false },
  { name: 'the whole instance, with a token', scope: [], withToken: true },
];

describe('a crawl of a real-shaped Weblate 5.4 publishes everything it can see', () => {
  for (const { name, scope, withToken } of cases) {
    it(`${name}: exit 0, every translation and string on the site and in search`, async () => {
      const dir = await folder();
      const content = join(dir, 'content');
      const result = await crawlReferenceServer(server, content, { projects: scope, ...(withToken ? { token } : {}) });
      // Access limits (anonymous 403 on repository/, 401 on memory/) are not problems of the data.
      expect(result.outcome, JSON.stringify(result.problems)).toBe('complete');

      const want = expected(scope, withToken);
      expect(want.length).toBeGreaterThan(0);
      const snapshot = await openSnapshot(content);
      const stored = await snapshot.translations();
      expect(stored.length).toBe(want.length);
      expect(snapshot.manifest.counts.raw ?? 0).toBe(0);

      const out = join(dir, 'dist');
      // A keyed crawl's site shows by default only what the public sees (site-model/privacy.ts): this
      // test checks everything the key can see, so it opts in.
      const built = await tmsnap(['build', '--content', content, '--out', out, ...(withToken ? ['--publish', 'private-projects,all-languages'] : [])]);
      expect(built.code, built.stderr).toBe(0);
      const pages = await Promise.all((await htmlFiles(out)).map((file) => readFile(file, 'utf8')));
      const site = pages.join('\n');
      for (const translation of want) {
        expect(existsSync(join(out, sitePaths.translation(translation))), `${translation.project}/${translation.component}/${translation.language}`).toBe(true);
        for (const unit of translation.units) expect(site.includes(`id="unit-${unit.id}"`), `unit ${unit.id} of ${translation.language}`).toBe(true);
      }

      // Languages: a page with figures for each language in use; the rest the server lists are named, with no page of zeros.
      const used = new Set(want.map((translation) => translation.language));
      const listed = (await snapshot.languages()).map((language) => language.record.code);
      // With a token the server lists every language it knows; anonymous clients see only those in use (docs/weblate-api.md, Access).
      if (withToken) expect(listed.length).toBeGreaterThan(used.size);
      else expect(new Set(listed)).toEqual(used);
      const languagesPage = await readFile(join(out, sitePaths.languages()), 'utf8');
      for (const code of listed) {
        expect(existsSync(join(out, sitePaths.language(code))), `language page of ${code}`).toBe(used.has(code));
        if (!used.has(code)) expect(languagesPage).toMatch(new RegExp(`id="other-languages"[\\s\\S]*<code>${code}</code>`));
      }

      // One search per translation, for a word of one of its strings, in its language; the CLI once, the same function for the rest.
      let throughCli = true;
      for (const translation of want.filter(({ source }) => !source)) {
        const unit = translation.units.find((candidate) => searchWord(candidate.source) !== undefined);
        if (unit === undefined) continue;
        const word = searchWord(unit.source)!;
        let hits: { component: string; language: string }[];
        if (throughCli) {
          const found = await tmsnap(['search', word, '--content', content, '--project', translation.project, '--lang', translation.language, '--json']);
          expect(found.code, found.stderr).toBe(0);
          hits = (JSON.parse(found.stdout) as { results: typeof hits }).results;
          throughCli = false;
        } else {
          hits = await searchSnapshot(snapshot, { text: word, scope: 'both', filters: { projects: [translation.project], languages: [translation.language] } });
        }
        expect(
          hits.some((hit) => hit.component === translation.component && hit.language === translation.language),
          `${translation.language}: ${word}`,
        ).toBe(true);
      }
    }, 240_000);
  }
});
