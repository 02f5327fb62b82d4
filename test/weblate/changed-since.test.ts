import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSnapshot } from '../../snapshot/index.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { apiAs, commitAll, crawlAs, incrementalThenFull, resetThrottle, shell, weblate } from './helpers.ts';

/**
 * Issue 27, a night after edits: what `units/?q=changed:>=T` answers on a real Weblate, the list
 * an incremental crawl merges touched translations from (crawler/tasks/changed-units.ts). A unit
 * edited after T is in it; one that only got a suggestion or a comment after T is not, though its
 * record changed (`has_suggestion`, `has_comment`): Weblate's `changed:` counts content actions
 * only, so the crawl fetches such a translation's own `units/`. T is the change log's own
 * timestamp form, and the bound is inclusive. Uses humanize/humanize/ja, which no other file edits.
 */

interface Unit {
  id: number;
  url: string;
  target: string[];
  source: string[];
  has_suggestion: boolean;
  has_comment: boolean;
  pending: boolean;
  translation: string;
}

const translation = 'translations/humanize/humanize/ja/';
const folder = useTempFolders('tmsnap-weblate-changed-since-', 'all');

async function changedSince(q: string): Promise<number[]> {
  const units = await apiAs('admin').all<Unit>(`units/?${new URLSearchParams({ q, page_size: '1000' }).toString()}`);
  return units.map((unit) => unit.id);
}

describe(`units/?q=changed:>=T on a real Weblate (${weblate().version})`, () => {
  it('lists units edited since T, once each, T inclusive; not those with only a suggestion or a comment since', async () => {
    const api = apiAs('admin');
    await commitAll();
    const units = (await api.all<Unit>(`${translation}units/`)).filter((unit) => unit.source.length === 1);
    const [edited, suggested, commented] = units;
    expect(commented).toBeDefined();
    // T: the log's newest change, in the form the log writes (microseconds and Z), as the crawl takes it.
    const T = (await api.all<{ timestamp: string }>('changes/?page_size=1000'))
      .map((change) => change.timestamp)
      .sort()
      .at(-1)!;
    const before = await changedSince(`changed:>=${T}`);

    await api.call('PATCH', `units/${edited!.id}/`, { target: ['一度目'], state: 20 });
    await api.call('PATCH', `units/${edited!.id}/`, { target: ['二度目'], state: 20 });
    // A suggestion through Weblate's own Suggestion.objects.add; the API adds no comments, so one
    // as Comment.objects.add does, less the request it reads the address from.
    await api.call('PATCH', 'components/humanize/humanize/', { enable_suggestions: true });
    await shell(
      [
        'from weblate.trans.models import Comment, Suggestion, Unit',
        'from weblate.auth.models import User',
        'u = User.objects.get(username="admin")',
        `Suggestion.objects.add(Unit.objects.get(pk=${suggested!.id}), ["提案"], None, user=u)`,
        `unit = Unit.objects.get(pk=${commented!.id})`,
        'c = Comment.objects.create(user=u, unit=unit, comment="A comment", userdetails={})',
        'unit.change_set.create(comment=c, action=3, user=u, author=u, details={"comment": "A comment"})',
      ].join('\n'),
    );
    const changes = (await api.call('GET', `changes/?page_size=1000&timestamp_after=${encodeURIComponent(T)}`)) as {
      results: { action: number; unit: string | null; timestamp: string }[];
    };
    const actionsOn = (id: number) => changes.results.filter((change) => change.unit?.endsWith(`/units/${id}/`)).map((change) => change.action);
    expect(actionsOn(edited!.id)).toContain(2); // Translation changed
    expect(actionsOn(suggested!.id)).toContain(4); // Suggestion added
    expect(actionsOn(commented!.id)).toContain(3); // Comment added

    const listed = await changedSince(`changed:>=${T}`);
    console.log(`test:weblate: changed:>=${T} lists ${listed.length} unit(s), ${before.length} before the edits`);
    expect(listed.filter((id) => id === edited!.id)).toEqual([edited!.id]); // edited twice, listed once
    expect(listed).not.toContain(suggested!.id);
    expect(listed).not.toContain(commented!.id);
    // …though their records changed since: why such a translation is fetched whole.
    expect(((await api.call('GET', `units/${suggested!.id}/`)) as Unit).has_suggestion).toBe(true);
    expect(((await api.call('GET', `units/${commented!.id}/`)) as Unit).has_comment).toBe(true);

    // Inclusive: T the edit's own timestamp still lists it.
    const editChange = changes.results.filter((change) => change.unit?.endsWith(`/units/${edited!.id}/`) && change.action === 2).at(-1)!;
    expect(await changedSince(`changed:>=${editChange.timestamp}`)).toContain(edited!.id);
    // With a project term (AND, implicit), as a scoped crawl asks.
    expect(await changedSince(`project:humanize changed:>=${T}`)).toContain(edited!.id);
    expect(await changedSince(`project:wtforms changed:>=${T}`)).not.toContain(edited!.id);
    // Other spellings of the same time: an offset instead of Z, no microseconds.
    expect(await changedSince(`changed:>=${T.replace(/Z$/, '+00:00')}`)).toContain(edited!.id);
    expect(await changedSince(`changed:>=${T.replace(/\.\d+Z$/, 'Z')}`)).toContain(edited!.id);
  });

  it('answers 400 naming q for a time it cannot read', async () => {
    const response = await fetch(new URL(`units/?${new URLSearchParams({ q: 'changed:>=not-a-date' }).toString()}`, weblate().url), {
      headers: { Authorization: `Token ${weblate().tokens.admin}`, Accept: 'application/json' },
    });
    const body = await response.text();
    console.log(`test:weblate: changed:>=not-a-date: ${response.status} ${body.slice(0, 200)}`);
    expect(response.status).toBe(400);
    expect(body).toContain('"q"');
  });

  it('an incremental crawl after edits in three translations merges them from one changed list and exports what a full crawl does', async () => {
    const dir = await folder();
    const content = join(dir, 'content');
    await commitAll();
    await resetThrottle();
    expect((await crawlAs('admin', content)).code).toBe(0);
    const api = apiAs('admin');
    for (const language of ['pl', 'ar', 'ja']) {
      const [unit] = (await api.all<Unit>(`translations/humanize/humanize/${language}/units/`)).filter((each) => each.source.length === 1);
      await api.call('PATCH', `units/${unit!.id}/`, { target: [`Edited tonight (${language})`], state: 20 });
    }
    // Committed, so the crawl's own downloads add nothing to the log between the two crawls.
    await commitAll();
    const { got, want } = await incrementalThenFull(content, join(dir, 'full'));
    expect(got.filter((line) => !want.includes(line)).map((line) => (JSON.parse(line) as { url: string }).url)).toEqual([]);
    expect(got).toEqual(want);
    expect(got.filter((line) => line.includes('Edited tonight'))).not.toEqual([]);
    // One request for the units of the three touched translations: the changed list.
    const units = (await openSnapshot(content)).manifest.requests.by_kind?.units?.made;
    console.log(`test:weblate: the incremental crawl after edits in three translations made ${units} units request(s)`);
    expect(units).toBe(1);
  });
  it('a commit changes a unit record in pending and last_updated only: last_changed:>=T lists it, changed:>=T does not', async () => {
    const api = apiAs('admin');
    await commitAll();
    const [, , , unit] = (await api.all<Unit>(`${translation}units/`)).filter((each) => each.source.length === 1);
    await api.call('PATCH', `units/${unit!.id}/`, { target: ['保留中'], state: 20 });
    await api.call('PATCH', `units/${unit!.id}/`, { target: ['保留中です'], state: 20 });
    const before = (await api.call('GET', `units/${unit!.id}/`)) as Unit & { last_updated: string };
    expect(before.pending).toBe(true);
    expect((await changedSince('is:pending')).filter((id) => id === unit!.id)).toEqual([unit!.id]); // two pending changes, listed once
    // T just after the edits' newest change (the bound is inclusive), before the commit.
    const newest = (await api.all<{ timestamp: string }>(`changes/?page_size=1000&timestamp_after=${encodeURIComponent(before.last_updated)}`))
      .map((change) => change.timestamp)
      .concat(before.last_updated)
      .sort()
      .at(-1)!;
    const T = new Date(Date.parse(newest) + 1).toISOString();
    await commitAll();
    const after = (await api.call('GET', `units/${unit!.id}/`)) as Unit & { last_updated: string };
    const differ = Object.keys(after).filter((key) => JSON.stringify(after[key as keyof Unit]) !== JSON.stringify(before[key as keyof Unit]));
    console.log(`test:weblate: after a commit the unit record differs in ${JSON.stringify(differ)}`);
    expect(differ.sort()).toEqual(['last_updated', 'pending']);
    expect(after.pending).toBe(false);
    expect(after.last_updated > T).toBe(true);
    // What an incremental crawl asks after a commit (crawler/incremental.ts `#mergeChanged`).
    expect(await changedSince(`last_changed:>=${T}`)).toContain(unit!.id);
    expect(await changedSince(`project:humanize last_changed:>=${T}`)).toContain(unit!.id);
    expect(await changedSince(`changed:>=${T}`)).not.toContain(unit!.id);
    expect(await changedSince('is:pending')).not.toContain(unit!.id);
  });

  it('the night after a crawl whose downloads committed its edits merges those translations from the changed and pending lists', async () => {
    const dir = await folder();
    const content = join(dir, 'content');
    const api = apiAs('admin');
    await commitAll();
    const edited: number[] = [];
    for (const language of ['pl', 'ar', 'ja']) {
      const [, , unit] = (await api.all<Unit>(`translations/humanize/humanize/${language}/units/`)).filter((each) => each.source.length === 1);
      await api.call('PATCH', `units/${unit!.id}/`, { target: [`Pending tonight (${language})`], state: 20 });
      edited.push(unit!.id);
    }
    // Left pending: the crawl reads the units pending, then its file downloads commit them.
    await resetThrottle();
    expect((await crawlAs('admin', content)).code).toBe(0);
    expect(await changedSince('is:pending')).not.toContain(edited[0]);
    const { got, want } = await incrementalThenFull(content, join(dir, 'full'));
    // The user's contributions/ too: it embeds the committed translations' revision.
    expect(got.filter((line) => !want.includes(line)).map((line) => (JSON.parse(line) as { url: string }).url)).toEqual([]);
    expect(got).toEqual(want);
    expect(got.filter((line) => line.includes('Pending tonight') && line.includes('"pending":false'))).toHaveLength(3);
    // Two requests for the units of the three committed translations: the changed list and what the commits wrote.
    const units = (await openSnapshot(content)).manifest.requests.by_kind?.units?.made;
    console.log(`test:weblate: the night after a crawl that committed edits in three translations made ${units} units request(s)`);
    expect(units).toBe(2);
  });
});
