import { describe, expect, it } from 'vitest';
import { apiRoot, change, component, page, project, translation, unit } from '../../api/index.ts';
import { type ReferenceServer, startTestServer, withTestServer } from '../helpers/reference-server.ts';
import { get } from './get.ts';

describe('the ideal profile', () => {
  it('answers like the description: ascending changes, JSON for format=api, no limits, no auth', () =>
    // The tidy server of the API description is what this test is about.
    withTestServer({ profile: 'ideal' }, async (server) => {
      const ids = page(change)
        .parse((await get(`${server.url}changes/?format=api`)).json)
        .results.map((row) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const answer = await get(`${server.url}projects/`);
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
      expect(page(project).parse(answer.json).count).toBe(2);
    }));
});

describe('changes newest first', () => {
  it('orders every changes list by descending id, across pages', () =>
    withTestServer({ behaviours: { changesNewestFirst: true } }, async (server) => {
      // Anonymous on a real server: the private project's changes (4 and 9) are left out.
      const first = page(change).parse((await get(`${server.url}changes/?page_size=4`)).json);
      const second = page(change).parse((await get(first.next!)).json);
      expect([...first.results, ...second.results].map((row) => row.id)).toEqual([10, 8, 7, 6, 5, 3, 2, 1]);
      const scoped = page(change).parse((await get(`${server.url}translations/hello/po/cs/changes/`)).json);
      expect(scoped.results.map((row) => row.id)).toEqual([8, 5]);
      const filtered = page(change).parse((await get(`${server.url}changes/?action=5`)).json);
      expect(filtered.results.map((row) => row.id)).toEqual([6, 5]);
    }));
});

describe('format=api as the HTML browsable API', () => {
  it('answers HTML for format=api, with server strings escaped, and JSON without it', () =>
    withTestServer({ behaviours: { browsableApi: true } }, async (server) => {
      const html = await get(`${server.url}units/11/?format=api`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(html.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html.text).not.toContain('<script>alert(1)</script>');
      const json = await get(`${server.url}units/11/`);
      expect(unit.parse(json.json).source).toEqual(['<b>Bold</b> & <script>alert(1)</script>']);
      // A real server's links carry no format (older ones wrote format=api: a client strips it).
      expect(unit.parse(json.json).url).toBe(`${server.url}units/11/`);
    }));
});

describe('path prefix', () => {
  it('serves the API under /weblate/api/ and links there', () =>
    withTestServer({ behaviours: { pathPrefix: '/weblate' } }, async (server) => {
      expect(server.url).toBe(`${server.origin}/weblate/api/`);
      const root = apiRoot.parse((await get(server.url)).json);
      expect(root.projects).toBe(`${server.origin}/weblate/api/projects/`);
      const hello = project.parse((await get(`${server.url}projects/hello/`)).json);
      expect(hello.web_url).toBe(`${server.origin}/weblate/projects/hello/`);
      expect((await get(hello.components_list_url)).status).toBe(200);
      const outside = await get(`${server.origin}/api/projects/`);
      expect(outside.status).toBe(404);
      expect(outside.headers.get('content-type')).toMatch(/^text\/html/);
    }));
});

describe('next and previous on another origin', () => {
  it('rewrites only next/previous, keeping path and query', () =>
    withTestServer({ behaviours: { pageLinkOrigin: 'https://proxy.example:8443' } }, async (server) => {
      const second = page(change).parse((await get(`${server.url}changes/?page_size=3&page=2`)).json);
      // Query parameters sorted by key, as Django REST framework writes them.
      expect(second.next).toBe('https://proxy.example:8443/api/changes/?page=3&page_size=3');
      expect(second.previous).toBe('https://proxy.example:8443/api/changes/?page_size=3');
      expect(second.results[0]!.url.startsWith(`${server.origin}/api/`)).toBe(true);
    }));
});

describe('tokens', () => {
  const behaviours = { tokens: ['wlu_reader'] };

  it('hides private projects from anonymous clients: 404 for them, absent from lists', () =>
    withTestServer({ behaviours }, async (server) => {
      expect(
        page(project)
          .parse((await get(`${server.url}projects/`)).json)
          .results.map((row) => row.slug),
      ).toEqual(['hello']);
      expect(
        page(component)
          .parse((await get(`${server.url}components/`)).json)
          .results.every((row) => row.project.slug === 'hello'),
      ).toBe(true);
      expect(page(translation).parse((await get(`${server.url}translations/`)).json).count).toBe(5);
      expect(
        page(change)
          .parse((await get(`${server.url}changes/`)).json)
          .results.map((row) => row.id),
      ).not.toContain(9);
      expect(page(unit).parse((await get(`${server.url}units/?page_size=100`)).json).count).toBe(22);
      for (const path of [
        'projects/secret/',
        'components/secret/app/',
        'translations/secret/app/cs/',
        'translations/secret/app/cs/file/',
        'units/25/',
        'changes/9/',
      ]) {
        const answer = await get(`${server.url}${path}`);
        expect(answer.status, path).toBe(404);
        expect(answer.json, path).toEqual({ detail: 'Not found.' });
      }
    }));

  it.each(['Token wlu_reader', 'Bearer wlu_reader'])('shows them with Authorization: %s', (header) =>
    withTestServer({ behaviours }, async (server) => {
      const headers = { Authorization: header };
      expect(page(project).parse((await get(`${server.url}projects/`, { headers })).json).count).toBe(2);
      expect((await get(`${server.url}units/25/`, { headers })).status).toBe(200);
      expect((await get(`${server.url}changes/9/`, { headers })).status).toBe(200);
    }),
  );

  it('treats a malformed header as anonymous and refuses an unknown token with 401', () =>
    withTestServer({ behaviours }, async (server) => {
      expect((await get(`${server.url}projects/secret/`, { headers: { Authorization: 'Tokenwlu_reader' } })).status).toBe(404);
      const refused = await get(`${server.url}projects/`, { headers: { Authorization: 'Token wlu_wrong' } });
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual({ detail: 'Invalid token.' });
      expect(refused.text).not.toContain('wlu_wrong');
    }));
});

describe('rate limiting', () => {
  it('counts every API request (404s too) in a sliding window and answers 429 with Retry-After', async () => {
    let now = 1_000_000;
    await withTestServer({ behaviours: { rateLimit: { anonymous: 3, authenticated: 5, windowSeconds: 60 } }, now: () => now }, async (server) => {
      const headers = (answer: { headers: Headers }) => ['limit', 'remaining', 'reset'].map((name) => answer.headers.get(`x-ratelimit-${name}`));
      expect(headers(await get(`${server.url}projects/`))).toEqual(['3', '2', '60']);
      now += 20_000;
      expect(headers(await get(`${server.url}projects/nope/`))).toEqual(['3', '1', '40']);
      now += 20_000;
      expect(headers(await get(`${server.url}units/1/`))).toEqual(['3', '0', '20']);
      // An unknown path never reaches the API, so it is not counted.
      expect((await get(`${server.url}nope/`)).status).toBe(404);
      now += 5_000;
      const throttled = await get(`${server.url}projects/`);
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('15');
      expect(throttled.json).toEqual({ detail: 'Request was throttled. Expected available in 15 seconds.' });
      // The first request leaves the window: one slot frees; the next frees when the second leaves.
      now += 15_001;
      const again = await get(`${server.url}projects/`);
      expect(again.status).toBe(200);
      expect(headers(again)).toEqual(['3', '0', '20']);
    });
  });

  it('gives a token its own, larger budget', async () => {
    const now = 0;
    await withTestServer(
      { behaviours: { tokens: ['wlu_a'], rateLimit: { anonymous: 1, authenticated: 5, windowSeconds: 3600 } }, now: () => now },
      async (server) => {
        expect((await get(`${server.url}projects/`)).status).toBe(200);
        expect((await get(`${server.url}projects/`)).status).toBe(429);
        const withToken = await get(`${server.url}projects/`, { headers: { Authorization: 'Token wlu_a' } });
        expect(withToken.status).toBe(200);
        expect(withToken.headers.get('x-ratelimit-limit')).toBe('5');
        expect(withToken.headers.get('x-ratelimit-remaining')).toBe('4');
      },
    );
  });
});

describe('injected faults', () => {
  /** The outcome of each of `count` requests: a status, or "drop" when the connection closed unanswered. */
  async function outcomes(server: ReferenceServer, count: number): Promise<(number | 'drop')[]> {
    const seen: (number | 'drop')[] = [];
    for (let i = 0; i < count; i++) {
      try {
        const response = await fetch(`${server.url}projects/`, { headers: { Connection: 'close' } });
        await response.text();
        seen.push(response.status);
      } catch {
        seen.push('drop');
      }
    }
    return seen;
  }

  const faults = { seed: 7, errorRate: 0.25, dropRate: 0.15 };

  it('fails a seeded fraction of requests with 5xx HTML and dropped connections, repeatably', async () => {
    let first: (number | 'drop')[] = [];
    await withTestServer({ behaviours: { faults } }, async (server) => {
      first = await outcomes(server, 60);
      const error = await (async () => {
        for (;;) {
          const response = await fetch(`${server.url}projects/`).catch(() => undefined);
          if (response && response.status >= 500) return { type: response.headers.get('content-type'), body: await response.text() };
          await response?.text();
        }
      })();
      expect(error.type).toBe('text/html');
      expect(error.body).toMatch(/<h1>50\d /);
    });
    expect(first.filter((outcome) => outcome === 'drop').length).toBeGreaterThan(2);
    expect(first.filter((outcome) => typeof outcome === 'number' && outcome >= 500).length).toBeGreaterThan(5);
    expect(first.filter((outcome) => outcome === 200).length).toBeGreaterThan(20);
    await withTestServer({ behaviours: { faults } }, async (server) => {
      expect(await outcomes(server, 60)).toEqual(first);
    });
  });

  it('answers slow requests in full, and close() does not wait for them', async () => {
    await withTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 1 } } }, async (server) => {
      expect(await outcomes(server, 5)).toEqual([200, 200, 200, 200, 200]);
    });
    const server = await startTestServer({ behaviours: { faults: { seed: 1, slowRate: 1, slowMs: 600_000 } } });
    const pending = fetch(`${server.url}projects/`).then(
      () => 'answered',
      () => 'dropped',
    );
    while (server.requests === 0) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    expect(await pending).toBe('dropped');
  });
});

describe('5.10+ error format', () => {
  it('answers errors as {type, errors: [{code, detail, attr}]}', async () => {
    let now = 0;
    const behaviours = { structuredErrors: true, tokens: ['wlu_w'], rateLimit: { anonymous: 2, authenticated: 3, windowSeconds: 10 } };
    await withTestServer({ behaviours, now: () => now++ }, async (server) => {
      expect((await get(`${server.url}projects/nope/`)).json).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
      });
      // With a token: anonymous writes answer 401 before the method is looked at.
      expect((await get(`${server.url}projects/`, { method: 'DELETE', headers: { Authorization: 'Token wlu_w' } })).json).toEqual({
        type: 'client_error',
        errors: [{ code: 'method_not_allowed', detail: 'Method "DELETE" not allowed.', attr: null }],
      });
      expect((await get(`${server.url}changes/?page=9`)).json).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'Invalid page.', attr: null }],
      });
      const throttled = await get(`${server.url}projects/`);
      expect(throttled.status).toBe(429);
      expect(throttled.json).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled', attr: null }] });
    });
  });
});
