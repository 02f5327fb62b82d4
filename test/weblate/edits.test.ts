import { execFile, spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/temp.ts';
import { apiAs, commitAll, crawlAs, exportLines, incrementalThenFull, resetThrottle, summaryOf, tokenOf, weblate } from './helpers.ts';

/**
 * Issue 23, scenarios that change the server between crawls: edits through the real API and
 * repository, then an incremental crawl whose snapshot exports the same records as a full
 * crawl of the same state; a crawl killed with SIGKILL and resumed.
 */

const execute = promisify(execFile);
const folder = useTempFolders('tmsnap-weblate-edits-', 'all');
const bin = new URL('../../bin/tmsnap.js', import.meta.url).pathname;

/** Lines in one export and not in the other, by URL, for a readable failure. */
function differences(a: string[], b: string[]): string[] {
  const inB = new Set(b);
  const inA = new Set(a);
  const url = (line: string) => (JSON.parse(line) as { url: string }).url;
  return [...a.filter((line) => !inB.has(line)).map((line) => `- ${url(line)}`), ...b.filter((line) => !inA.has(line)).map((line) => `+ ${url(line)}`)];
}

async function units(path: string) {
  return apiAs('admin').all<{ id: number; source: string[]; target: string[]; state: number }>(`translations/${path}/units/`);
}

/** Adds one source string to every file of a component and removes another, as a developer's commit would, then has Weblate rescan. */
async function repositoryUpdate(project: string, category: string, component: string) {
  const dir = join(weblate().shellEnv.TMSNAP_WEBLATE_DATA!, 'vcs', project, category, component, 'po');
  for (const name of await readdir(dir)) {
    const text = await readFile(join(dir, name), 'utf8');
    const entries = text.split('\n\n');
    // Entry 0 is the header; drop the last entry, add a new one.
    entries.pop();
    entries.push('msgid "A string added in the repository"\nmsgstr ""\n');
    await writeFile(join(dir, name), entries.join('\n\n'));
  }
  const git = (...args: string[]) => execute('git', ['-C', dir, '-c', 'user.name=Developer', '-c', 'user.email=dev@example.org', ...args]);
  await git('commit', '-qam', 'Add and remove a source string');
  await apiAs('admin').call('POST', `components/${project}/${category}%252F${component}/repository/`, { operation: 'file-scan' });
}

describe(`edits on a real Weblate (${weblate().version})`, () => {
  it('an incremental crawl after edits through the API and the repository exports what a full crawl does', async () => {
    const dir = await folder();
    const content = join(dir, 'content');
    await commitAll();
    await resetThrottle();
    expect((await crawlAs('admin', content)).code).toBe(0);

    const api = apiAs('admin');
    const de = await units('humanize/humanize/de');
    const single = de.filter((unit) => unit.source.length === 1);
    await api.call('PATCH', `units/${single[0]!.id}/`, { target: ['Übersetzt durch die API'], state: 20 }); // translate
    await api.call('PATCH', `units/${single[1]!.id}/`, { target: single[1]!.target, state: 10 }); // mark for edit
    await api.call('PATCH', `units/${single[2]!.id}/`, { target: single[2]!.target, state: 30 }); // approve (humanize has review on)
    // Components made from an uploaded ZIP take no suggestions until asked to.
    await api.call('PATCH', 'components/humanize/humanize/', { enable_suggestions: true });
    const suggestion = new FormData();
    suggestion.set('method', 'suggest');
    suggestion.set(
      'file',
      new Blob([
        `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid ${JSON.stringify(single[3]!.source[0])}\nmsgstr "Ein Vorschlag"\n`,
      ]),
      'de.po',
    );
    await api.call('POST', 'translations/humanize/humanize/de/file/', suggestion); // add a suggestion
    await api.call('POST', 'components/humanize/humanize/translations/', { language_code: 'cs' }); // add a language
    await commitAll();
    await repositoryUpdate('wtforms', 'forms', 'wtforms'); // add and remove source strings
    await api.call('POST', 'components/humanize/terminology/lock/', { lock: true }); // lock
    await api.call('DELETE', 'components/django/contrib-humanize/'); // remove
    await commitAll();

    const { incremental, got, want } = await incrementalThenFull(content, join(dir, 'full'));
    console.log(`test:weblate: after edits, incremental crawl ${summaryOf(incremental).made} requests`);

    // Found here: Weblate deletes change records when it removes what they are about (here the
    // source string removed in the repository: five "String added in the repository" changes, one
    // per translation), while an incremental crawl carries the archived ones over. The archive
    // remembers what the server forgot (docs/crawl.md); every other record must be equal.
    const wantUrls = new Set(want.map((line) => (JSON.parse(line) as { url: string }).url));
    const forgotten = differences(got, want).filter((d) => /^- .*\/api\/changes\/\d+\/$/.test(d) && !wantUrls.has(d.slice(2)));
    console.log(`test:weblate: incremental ≡ full: ${got.length} records; ${forgotten.length} change records the server deleted since, kept`);
    expect(differences(got, want).filter((d) => !forgotten.includes(d))).toEqual([]);
    expect(forgotten.length).toBeLessThanOrEqual(10);
    expect(want.some((line) => line.includes('A string added in the repository'))).toBe(true);
    expect(want.some((line) => line.includes('/translations/humanize/humanize/cs/'))).toBe(true);
    const component = (line: string) => (JSON.parse(line) as { url: string }).url.endsWith('/api/components/django/contrib-humanize/');
    expect(want.some(component)).toBe(false);
    expect(got.some(component)).toBe(false);
  });

  it('a crawl killed with SIGKILL resumes to what a clean crawl stores', async () => {
    const dir = await folder();
    await commitAll();
    await resetThrottle();
    const killed = spawn(process.execPath, [bin, 'crawl', '--url', weblate().url, '--content', join(dir, 'content'), '--concurrency', '1'], {
      env: { ...process.env, WEBLATE_TOKEN: tokenOf('admin') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Killed once it has stored records: the progress line counts them.
    await new Promise<void>((resolve) => {
      let seen = '';
      const look = (chunk: Buffer) => {
        seen += chunk.toString();
        if (/\| [1-9]\d{2,} records/.test(seen)) {
          killed.kill('SIGKILL');
          resolve();
        }
      };
      killed.stdout.on('data', look);
      killed.stderr.on('data', look);
      killed.on('exit', () => resolve());
    });
    await new Promise((resolve) => killed.once('exit', resolve));
    expect(killed.signalCode).toBe('SIGKILL');
    const resumed = await crawlAs('admin', join(dir, 'content'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toMatch(/resum/i);
    await resetThrottle();
    expect((await crawlAs('admin', join(dir, 'clean'))).code).toBe(0);
    expect(differences(await exportLines(join(dir, 'content')), await exportLines(join(dir, 'clean')))).toEqual([]);
  });
});
