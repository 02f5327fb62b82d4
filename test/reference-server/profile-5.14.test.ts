import { describe, expect, it } from 'vitest';
import { MemoryModel } from '../../packages/reference-server/memory-model.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { fixtureRows } from '../fixtures/reference-rows.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { withTestServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { get } from './get.ts';
import { type Row, TOKEN, changedFrom54, describeLaterProfile } from './rows.ts';

/**
 * What a real Weblate 5.14.3 does where 5.4 did otherwise, as measured by
 * test/weblate/reference-parity.test.ts (docs/decisions/2026-11-26-reference-vs-weblate-5.14.md),
 * one table as profile-5.4.test.ts has it: each row holds on `weblate-5.14` and fails on
 * `weblate-5.4` (with 5.10's errors, so that the rows compare what 5.14 adds) unless marked
 * `alsoBefore`. The fixture's
 * Czech translation: 4 of 6 strings translated, 1 needing editing, one plural source string.
 */

const url = (path: string) => expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${path.replaceAll('?', '\\?')}$`));

const rows: Row[] = [
  // fields514
  {
    title: "projects carry 5.14's settings and links",
    path: 'projects/hello/',
    has: { check_flags: '', commit_policy: 0, secondary_language: null, enforced_2fa: false, locked: false, lock_url: url('api/projects/hello/lock/') },
  },
  { title: "a project's lock/ answers its state", path: 'projects/hello/lock/', has: { locked: false } },
  {
    title: "components carry 5.14's fields",
    path: 'components/hello/po/',
    has: { file_format_params: {}, key_filter: '', secondary_language: null, locked: false, credits_url: url('api/components/hello/po/credits/') },
  },
  { title: 'units name their language and when they were last saved', path: 'units/1/', has: { language_code: 'en', last_updated: expect.any(String) } },
  { title: 'changes carry old and details', path: 'changes/?page_size=1', has: { 'results.0.old': '', 'results.0.details': {} } },
  { title: 'users link their contributions, an empty page', path: 'users/admin/contributions/', has: { count: 0, results: [] } },
  { title: 'share_url engages per project through the - component', path: 'translations/hello/po/cs/', has: { share_url: url('engage/hello/-/cs/') } },
  {
    title: "a project's languages carry translate_url and no wlc-only names",
    path: 'projects/hello/languages/',
    has: { '0.translate_url': url('translate/hello/-/ar/') },
    lacks: ['0.language', '0.words_percent', '0.untranslated', '0.last_author'],
  },
  { title: 'groups carry enforced_2fa', path: 'groups/1/', has: { enforced_2fa: false } },
  // statistics514
  {
    title: 'statistics round down and leave out untranslated and last_author',
    path: 'translations/hello/po/cs/statistics/',
    has: { translated: 4, total: 6, translated_percent: 66.6, fuzzy_percent: 16.6 },
    lacks: ['untranslated', 'untranslated_words', 'untranslated_percent', 'last_author'],
  },
  { title: 'a translation record rounds down too', path: 'translations/hello/po/cs/', has: { translated_percent: 66.6, fuzzy_percent: 16.6 } },
  { title: 'characters count the plural separators', path: 'translations/hello/po/cs/statistics/', has: { total_chars: 121 } },
  { title: "a language's statistics leave its code out", path: 'languages/cs/statistics/', lacks: ['code'], has: { name: 'Czech' } },
  // hiddenUsers
  { title: 'anonymous clients are listed no users', path: 'users/', auth: 'anonymous', has: { count: 0, results: [] } },
  { title: 'nor shown one', path: 'users/admin/', auth: 'anonymous', status: 404, has: { 'errors.0.code': 'not_found' } },
  // djangoPaths
  { title: 'paths keep @ as Django writes them', path: 'languages/sr@latin/', has: { url: url('api/languages/sr@latin/') } },
  // Django's code for a choice outside the list: a correction on every profile with 5.10's errors.
  {
    alsoBefore: true,
    title: 'an action outside the list is an invalid choice',
    path: 'changes/?action=9999',
    status: 400,
    has: { type: 'validation_error', 'errors.0.code': 'invalid_choice', 'errors.0.attr': 'action' },
  },
];

describeLaterProfile('weblate-5.14', 'weblate-5.14 answers like a real 5.14.3', rows);

const folder = useTempFolders('tmsnap-profile-514-', 'all');

/** The fixture with component `po` inside a category `ui`, itself inside `app`. */
function rowsWithCategories() {
  const rows = fixtureRows();
  return {
    ...rows,
    categories: [
      { id: 7, projectId: 1, slug: 'app', name: 'App', categoryId: null },
      { id: 8, projectId: 1, slug: 'ui', name: 'User interface', categoryId: 7 },
    ],
    components: rows.components.map((component) => (component.slug === 'po' ? { ...component, slug: 'app/ui/po', categoryId: 8 } : component)),
  };
}

describe('weblate-5.14 beyond the table', () => {
  it('is 5.4 with 5.10 errors and the 5.14 behaviours', () => {
    expect(changedFrom54('weblate-5.14')).toEqual(['djangoPaths', 'fields514', 'hiddenUsers', 'statistics514', 'structuredErrors']);
  });

  it("serves a model's categories: lists, detail, statistics, and components inside them as 5.14.3 writes them", () =>
    withTestServer({ data: new MemoryModel(rowsWithCategories()), profile: 'weblate-5.14', behaviours: { tokens: [TOKEN] } }, async (server) => {
      const json = async (path: string) => {
        const answer = await get(`${server.url}${path}`, { headers: { Authorization: `Token ${TOKEN}` } });
        expect(answer.status, path).toBe(200);
        return answer.json as Record<string, unknown>;
      };
      expect(await json('projects/hello/categories/')).toMatchObject({ count: 2 });
      expect(await json('categories/8/')).toEqual({
        id: 8,
        name: 'User interface',
        slug: 'ui',
        project: url('api/projects/hello/'),
        category: url('api/categories/7/'),
        url: url('api/categories/8/'),
        statistics_url: url('api/categories/8/statistics/'),
      });
      const component = await json('components/hello/app%252Fui%252Fpo/');
      expect(component).toMatchObject({ slug: 'po', category: url('api/categories/8/'), web_url: url('projects/hello/app/ui/po/') });
      expect(await json('translations/hello/app%252Fui%252Fpo/cs/')).toMatchObject({ web_url: url('projects/hello/app/ui/po/cs/') });
      const inside = await json('categories/7/statistics/');
      const po = await json('translations/hello/app%252Fui%252Fpo/cs/statistics/');
      expect(inside).toMatchObject({ name: 'App', url: url('projects/hello/app/') });
      expect(inside.total as number).toBeGreaterThan(po.total as number);
      // The other profiles keep their categories: 5.4 lists none without a model's own.
      expect((await get(`${server.url}categories/99/`, { headers: { Authorization: `Token ${TOKEN}` } })).status).toBe(404);
    }));

  it('crawls complete, categories and all', async () => {
    await withTestServer(
      { data: new MemoryModel(rowsWithCategories()), profile: 'weblate-5.14', behaviours: { tokens: [TOKEN], rateLimit: raisedRateLimit } },
      async (server) => {
        const result = await crawlComplete(server, await folder(), { token: TOKEN });
        expect(result.problems).toEqual([]);
      },
    );
  });
});
