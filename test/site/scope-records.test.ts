/**
 * Issue 24, "Scope", the site's side: a snapshot of a `--project` crawl made before the crawl
 * kept embedded objects outside its scope embedded holds the projects, components and
 * translations a user's notification subscriptions named as records of their own. The site
 * (and its search index, which reads the same records) shows only the projects asked for.
 */
import { describe, expect, it } from 'vitest';
import { siteRecords } from '../../site-model/records.ts';
import { openSnapshot, openSnapshotWriter } from '../../snapshot/index.ts';
import { builders } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';

const base = 'http://weblate.test/';
const build = builders(base);
const contentFolder = useContentFolders('tmsnap-scope-records-');

/** A snapshot of a crawl scoped to `demo` whose writer turned every embedded object into a record, as before the fix. */
async function writeSnapshot(content: string, projects: string[]): Promise<void> {
  const english = build.language('en', 'English');
  const czech = build.language('cs', 'Czech');
  const demo = build.project('demo', 1);
  const other = build.project('other', 2);
  const core = build.component(demo, 'core', 1, english);
  const web = build.component(other, 'web', 2, english);
  const writer = await openSnapshotWriter(content, {
    baseUrl: `${base}api/`,
    scope: projects.length > 0 ? { projects } : {},
    tmsnapVersion: 'test',
    resume: false,
  });
  for (const language of [english, czech]) await writer.putRecord(language.url, language);
  await writer.putRecord(demo.url, demo);
  await writer.putRecord(core.url, core);
  const translation = build.translation(core, czech, 1);
  await writer.putRecord(translation.url, translation);
  // The subscription embeds `other/web`, its project inside: both stored as records.
  const subscription = { id: 1, notification: 'NewStringNotificaton', scope: 40, frequency: 1, project: other, component: web };
  await writer.putRecord(build.api('users/jane/notifications/'), [subscription]);
  // And an older crawl may even have stored a translation of it.
  const stray = build.translation(web, czech, 2);
  await writer.putRecord(stray.url, stray);
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
}

describe('the records the site shows', () => {
  it('are those of the projects a one-project crawl asked for, whatever else its snapshot holds', async () => {
    const content = await contentFolder();
    await writeSnapshot(content, ['demo']);
    const snapshot = await openSnapshot(content);
    expect((await snapshot.projects()).map(({ path }) => path)).toEqual(['api/projects/demo/', 'api/projects/other/']);
    const records = await siteRecords(snapshot);
    expect(records.projects.map(({ path }) => path)).toEqual(['api/projects/demo/']);
    expect(records.components.map(({ path }) => path)).toEqual(['api/components/demo/core/']);
    expect(records.translations.map(({ path }) => path)).toEqual(['api/translations/demo/core/cs/']);
    expect(records.languages.map(({ path }) => path)).toEqual(['api/languages/cs/', 'api/languages/en/']);
  });

  it('are every project of a whole-instance crawl', async () => {
    const content = await contentFolder();
    await writeSnapshot(content, []);
    const records = await siteRecords(await openSnapshot(content));
    expect(records.projects.map(({ path }) => path)).toEqual(['api/projects/demo/', 'api/projects/other/']);
    expect(records.translations.map(({ path }) => path)).toEqual(['api/translations/demo/core/cs/', 'api/translations/other/web/cs/']);
  });
});
