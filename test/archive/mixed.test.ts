/**
 * Issue 24, "Mixed archives": an archive holding whole-instance and one-project snapshots.
 * `diff` and `search` took the newest snapshots whatever their scope ("Strings: no changes",
 * "0 results"); now a snapshot taken by default is of the server and scope of the one it is
 * compared with (archive/series.ts), and when the archive is mixed a line says which was taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSnapshotsForSite } from '../../archive/compare.ts';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { listSnapshots } from '../../snapshot/index.ts';
import { crawlComplete } from '../helpers/crawl.ts';
import { fixtureModel, startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

const token = 'mixed-test';
const contentFolder = useContentFolders('tmsnap-mixed-', 'all');
const text = 'Zkušební překlad';
let server: ReferenceServer;
let content: string;
/** Oldest first: two whole-instance snapshots around one new translation in `hello`, then one of `secret` alone. */
let whole: [string, string];
let secret: string;

beforeAll(async () => {
  const model = fixtureModel();
  server = await startTestServer({ data: model, behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
  content = await contentFolder();
  const first = (await crawlComplete(server, content, { token })).snapshotId;
  const czech = model.translations().find((row) => row.componentId === 1 && row.languageCode === 'cs')!;
  const empty = model.units(czech.id, 0, model.unitCount(czech.id)).find((unit) => unit.state === 0 && unit.target.length === 1)!;
  model.translate(empty.id, [text], 'alice');
  const second = (await crawlComplete(server, content, { token })).snapshotId;
  whole = [first, second];
  secret = (await crawlComplete(server, content, { token, projects: ['secret'] })).snapshotId;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('an archive of whole-instance and one-project snapshots', () => {
  it('diffs by default the two newest snapshots of one server and scope, and says which', async () => {
    const diff = await tmsnap(['diff', '--content', content]);
    expect(diff.code).toBe(0);
    // The newest is `secret`'s, the only one of its scope: the newest pair is the whole instance's.
    expect(diff.stdout).toContain(`Changes from snapshot ${whole[0]} to ${whole[1]}`);
    expect(diff.stdout).toContain('Strings: 1 newly translated');
    expect(diff.stdout).toContain(JSON.stringify(text));
    expect(diff.stderr).toContain(`${whole[0]} and ${whole[1]} are the two newest complete snapshots of whole instance on ${new URL('/', server.url).href}`);
  });

  it('diffs a snapshot named alone against the newest of its own server and scope', async () => {
    const diff = await tmsnap(['diff', whole[0], '--content', content, '--json']);
    expect(diff.code).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ from: whole[0], to: whole[1] });
    const alone = await tmsnap(['diff', secret, '--content', content]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain(`nothing newer than ${secret} of projects secret on`);
  });

  it('says when two snapshots named are of different scopes', async () => {
    const diff = await tmsnap(['diff', whole[1], secret, '--content', content]);
    expect(diff.code).toBe(0);
    expect(diff.stderr).toContain(`${whole[1]} is of whole instance on`);
    expect(diff.stderr).toContain(`${secret} of projects secret on`);
  });

  it('searches by default the newest snapshot holding the project asked for, and names the one searched', async () => {
    const inHello = await tmsnap(['search', text, '--project', 'hello', '--content', content, '--json']);
    expect(inHello.code).toBe(0);
    expect(JSON.parse(inHello.stdout)).toMatchObject({ snapshot: whole[1], scope: 'whole instance', total: 1 });
    expect(inHello.stderr).toContain(`searched ${whole[1]}, the newest complete snapshot holding hello (whole instance on`);
    const anywhere = await tmsnap(['search', text, '--content', content]);
    expect(anywhere.stderr).toContain(`searched ${secret}, the newest complete snapshot (projects secret on`);
    expect(anywhere.stdout).toContain('0 results');
  });

  it('lists each snapshot’s scope, in the table and in JSON', async () => {
    const listed = await tmsnap(['snapshots', '--content', content, '--json']);
    expect(listed.code).toBe(0);
    const rows = (JSON.parse(listed.stdout) as { id: string; scope: string; projects: string[] | null; changesSince: string | null }[]).map(
      ({ id, scope, projects, changesSince }) => ({ id, scope, projects, changesSince }),
    );
    expect(rows).toEqual([
      { id: secret, scope: 'projects secret', projects: ['secret'], changesSince: null },
      { id: whole[1], scope: 'whole instance', projects: null, changesSince: null },
      { id: whole[0], scope: 'whole instance', projects: null, changesSince: null },
    ]);
    const table = (await tmsnap(['snapshots', '--content', content])).stdout;
    expect(table.split('\n').find((line) => line.startsWith(secret))).toContain('projects secret');
  });

  it('draws a site’s history from the snapshots of the built one’s server and scope', async () => {
    const summaries = await listSnapshots(content);
    expect(chooseSnapshotsForSite(summaries, secret)).toEqual([secret]);
    expect(chooseSnapshotsForSite(summaries, whole[1])).toEqual(whole);
  });

  it('diffs by default the newest pair holding the projects the diff is limited to', async () => {
    const again = (await crawlComplete(server, content, { token, projects: ['secret'] })).snapshotId;
    expect(JSON.parse((await tmsnap(['diff', '--content', content, '--json'])).stdout)).toMatchObject({ from: secret, to: again });
    const hello = await tmsnap(['diff', '--project', 'hello', '--content', content]);
    expect(hello.code, hello.stderr).toBe(0);
    expect(hello.stdout).toContain(`Changes from snapshot ${whole[0]} to ${whole[1]}`);
    expect(hello.stdout).toContain('Strings: 1 newly translated');
  });
});
