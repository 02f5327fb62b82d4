import { expect } from 'vitest';
import { parseJson } from '../../api/json.ts';
import { exportRecords, openSnapshot } from '../../snapshot/index.ts';

/** GETs from the server directly, as a plain client would: no crawler code involved. */
export async function serverGet(url: string, token?: string): Promise<{ status: number; body: unknown; bytes: Buffer }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Token ${token}`;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    let bytes: Buffer;
    try {
      response = await fetch(url, { headers });
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      // A connection the server dropped on purpose (injected faults): ask again.
      if (attempt < 20) continue;
      throw error;
    }
    // The comparison walks past the same injected faults and rate limits the crawl met.
    if ((response.status >= 500 || response.status === 429) && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 0) * 1000 + 50));
      continue;
    }
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, bytes, body: type.includes('json') ? parseJson(bytes.toString('utf8')) : undefined };
  }
}

function withQuery(url: string, parameters: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  return target.href;
}

/** Every result of a paginated list, following `next` (re-based on the API root, as the server may point elsewhere). */
async function serverList(url: string, apiRoot: string, token?: string): Promise<unknown[]> {
  const results: unknown[] = [];
  let next: string | null = withQuery(url, { page_size: '10000' });
  while (next !== null) {
    const { body } = await serverGet(next, token);
    const page = body as { results: unknown[]; next: string | null };
    results.push(...page.results);
    next = page.next === null ? null : new URL(new URL(page.next).pathname + new URL(page.next).search, new URL(apiRoot).origin).href;
  }
  return results;
}

const urlOf = (record: unknown) => String((record as { url: string }).url).replace(/[?&]format=api$/, '');

/**
 * Asserts that `tmsnap export` of the newest snapshot equals what the server serves, record
 * for record and field for field, and that nothing the server lists is missing.
 * Answers how many records of each kind were compared.
 */
export async function expectExportMatchesServer(contentDir: string, apiRoot: string, token?: string): Promise<Record<string, number>> {
  const snapshot = await openSnapshot(contentDir);
  const compared: Record<string, number> = {};
  const units = new Map<string, unknown>();
  const changes = new Map<string, unknown>();
  const translations: string[] = [];
  for await (const line of exportRecords(snapshot)) {
    compared[line.kind] = (compared[line.kind] ?? 0) + 1;
    expect('raw' in line, `${line.url} was kept raw`).toBe(false);
    if (line.kind === 'file' && 'bytes_base64' in line) {
      const { bytes } = await serverGet(line.url, token);
      expect(line.bytes_base64, line.url).toBe(bytes.toString('base64'));
    } else if (line.kind === 'unit' && 'record' in line) {
      units.set(line.url, line.record);
    } else if (line.kind === 'change' && 'record' in line) {
      changes.set(line.url, line.record);
    } else if ('record' in line) {
      if (line.kind === 'translation') translations.push(line.url);
      const listLike = line.record !== null && typeof line.record === 'object' && 'results' in line.record;
      const { status, body } = await serverGet(listLike ? withQuery(line.url, { page_size: '10000' }) : line.url, token);
      expect(status, line.url).toBe(200);
      // A sub-resource longer than a page (5.4's memory/, 1000 a page) is stored as one page holding every result.
      const whole =
        listLike && (body as { next: unknown }).next !== null
          ? { ...(body as object), next: null, previous: null, results: await serverList(line.url, apiRoot, token) }
          : body;
      expect(line.record, line.url).toEqual(whole);
    }
  }
  // Units and changes are compared against the server's own lists, all pages.
  const served = new Map<string, unknown>();
  for (const translation of translations) {
    for (const unit of await serverList(`${translation}units/`, apiRoot, token)) served.set(urlOf(unit), unit);
  }
  expect(units.size).toBe(served.size);
  for (const [url, unit] of units) expect(unit, url).toEqual(served.get(url));
  const servedChanges = await serverList(`${apiRoot}changes/`, apiRoot, token);
  expect(changes.size).toBe(servedChanges.length);
  for (const change of servedChanges) expect(changes.get(urlOf(change)), urlOf(change)).toEqual(change);
  // Nothing the server lists is missing.
  for (const [collection, kind] of [
    ['projects', 'project'],
    ['components', 'component'],
    ['translations', 'translation'],
    ['languages', 'language'],
    ['users', 'user'],
    ['units', 'unit'],
    ['changes', 'change'],
  ] as const) {
    const { body } = await serverGet(withQuery(`${apiRoot}${collection}/`, { page_size: '1' }), token);
    expect(compared[kind] ?? 0, `${collection} count`).toBe((body as { count: number }).count);
  }
  return compared;
}
