import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiJson } from './json.ts';
import { ActivityRequestError, runActivity } from './activity.ts';
import { type ApiRequest, type ApiResult, type Route, ApiError, notAuthenticated } from './api.ts';
import { instanceOf } from './instance.ts';
import { type Faults, faultSequence } from './faults.ts';
import { browsablePage, challengePage, notFoundPage, serverErrorPage } from './html.ts';
import { ActivityError, isActivityModel } from './memory-model.ts';
import type { Model } from './model.ts';
import { DEFAULT_PROFILE, type ProfileBehaviours, type ProfileName, resolveBehaviours } from './profiles.ts';
import { type RateDecision, SlidingWindowLimiter } from './rate-limit.ts';
import { linksFor } from './render.ts';
import { routes as changeRoutes } from './routes/changes.ts';
import { routes as componentRoutes } from './routes/components.ts';
import { routes as extraRoutes } from './routes/extras.ts';
import { routes as languageRoutes } from './routes/languages.ts';
import { routes as projectRoutes } from './routes/projects.ts';
import { routes as recentRoutes } from './routes/recent.ts';
import { routes as rootRoutes } from './routes/root.ts';
import { routes as translationRoutes } from './routes/translations.ts';
import { routes as unitRoutes } from './routes/units.ts';
import { routes as userRoutes } from './routes/users.ts';
import { routes as v514Routes } from './routes/v514.ts';

/**
 * Behaviours the caller sets itself, laid over the profile's (`profiles.ts`, which documents
 * each): e.g. `{rateLimit: raisedRateLimit}` keeps a 5.4 server but lets a test go fast.
 */
export interface Behaviours extends Partial<ProfileBehaviours> {
  /** Serve under a path: `/weblate` puts the API root at `http://host/weblate/api/`. */
  pathPrefix?: string;
  /** `next`/`previous` links carry this origin (e.g. `https://…` behind a TLS proxy) instead of the request's. */
  pageLinkOrigin?: string;
  /**
   * API keys the server accepts; a request without one is anonymous. With `anonymousLimits`
   * (real servers) anonymous clients never see private projects; without it (`ideal`) they are
   * hidden only once tokens are configured.
   */
  tokens?: string[];
  /** A seeded fraction of API requests fail: 5xx, slow answers, dropped connections. */
  faults?: Faults;
  /** Accept `POST /_activity/<action>` (outside `/api/`) to simulate translators. */
  activity?: boolean;
}

export interface ReferenceServerOptions {
  model: Model;
  /** Which server to be (`profiles.ts`); `weblate-5.4` unless given. */
  profile?: ProfileName;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  behaviours?: Behaviours;
  /** Milliseconds clock of the rate limiter, so tests slide its window without waiting. */
  now?: () => number;
}

export interface ReferenceServer {
  /** The API root, e.g. `http://127.0.0.1:40123/api/`. */
  url: string;
  origin: string;
  model: Model;
  /** Requests received so far, any path. */
  readonly requests: number;
  close(): Promise<void>;
}

const routes: Route[] = [
  ...rootRoutes,
  ...languageRoutes,
  ...projectRoutes,
  ...componentRoutes,
  ...translationRoutes,
  ...unitRoutes,
  ...changeRoutes,
  ...userRoutes,
  ...extraRoutes,
  ...recentRoutes,
  ...v514Routes,
];

function match(segments: string[]): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = route.pattern.every((part, index) => {
      const value = segments[index]!;
      if (part.startsWith(':')) {
        params[part.slice(1)] = value;
        return value !== '';
      }
      return part === value;
    });
    if (fits) return { route, params };
  }
  return undefined;
}

/** Path segments after `/api/`, still percent-encoded; null when the path has no trailing slash. */
function apiSegments(pathname: string, prefix: string): string[] | null {
  const root = `${prefix}/api/`;
  if (!pathname.startsWith(root) || !pathname.endsWith('/')) return null;
  const rest = pathname.slice(root.length, -1);
  return rest === '' ? [] : rest.split('/');
}

function tokenOf(header: string | undefined): string | null {
  // Older servers treat a malformed header (no space after the keyword) as anonymous.
  const match = /^(?:Token|Bearer) (\S+)$/.exec(header ?? '');
  return match ? match[1]! : null;
}

/** 2026.10 answers 401 to any scheme but these, even where no credentials are needed (docs/weblate-api.md, Access). */
function unsupportedScheme(header: string | undefined): boolean {
  if (header === undefined) return false;
  return !/^(?:token|bearer)$/i.test(header.trim().split(/\s+/)[0] ?? '');
}

function normalizePrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const { model } = options;
  const behaviours = resolveBehaviours(options.profile ?? DEFAULT_PROFILE, options.behaviours ?? {});
  const prefix = normalizePrefix(behaviours.pathPrefix);
  const tokens = new Set(behaviours.tokens ?? []);
  const limiter = behaviours.rateLimit ? new SlidingWindowLimiter(behaviours.rateLimit, options.now) : undefined;
  const nextFault = behaviours.faults ? faultSequence(behaviours.faults) : undefined;
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;

  const errorBody = (error: ApiError): unknown => {
    if (behaviours.structuredErrors) {
      const type = error.status >= 500 ? 'server_error' : error.attr !== null ? 'validation_error' : 'client_error';
      return { type, errors: [{ code: error.code, detail: error.detail, attr: error.attr }] };
    }
    // Before 5.10 a validation error is keyed by its field (Django REST framework's serializer errors).
    if (error.attr !== null) return behaviours.fieldErrors ? { [error.attr]: [error.detail] } : { detail: `${error.attr}: ${error.detail}` };
    return { detail: error.detail };
  };

  function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string, head: boolean): void {
    response.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
    response.end(head ? undefined : body);
  }

  function sendJson(request: IncomingMessage, response: ServerResponse, url: URL, status: number, headers: Record<string, string>, json: unknown): void {
    const text = apiJson(json, undefined, behaviours.floatPercents);
    const head = request.method === 'HEAD';
    if (behaviours.browsableApi && url.searchParams.get('format') === 'api') {
      const page = browsablePage(url.pathname, status, { ...headers, 'Content-Type': 'application/json' }, apiJson(json, 4, behaviours.floatPercents));
      send(response, status, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }, page, head);
      return;
    }
    send(response, status, { ...headers, 'Content-Type': 'application/json' }, text, head);
  }

  /** The `format` API links carry: `api` on the description's server; on a real one none, or the request's `json`. */
  function linkFormat(format: string | null): 'api' | 'json' | null {
    if (!behaviours.plainLinks) return 'api';
    return format === 'json' ? 'json' : null;
  }

  function rateHeaders(decision: RateDecision | undefined): Record<string, string> {
    if (!decision) return {};
    return {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(decision.resetSeconds),
    };
  }

  function handleApi(request: IncomingMessage, response: ServerResponse, url: URL, segments: string[]): void {
    const head = request.method === 'HEAD';
    const found = match(segments);
    if (!found) {
      send(response, 404, { 'Content-Type': 'text/html; charset=utf-8' }, notFoundPage(url.pathname), head);
      return;
    }
    const { route, params } = found;
    const base = { Vary: 'Accept', Allow: typeof route.allow === 'string' ? route.allow : route.allow(behaviours) };
    const fail = (error: ApiError, extra: Record<string, string> = {}) =>
      sendJson(request, response, url, error.status, { ...base, ...extra, ...error.headers }, errorBody(error));

    const authorization = request.headers.authorization;
    if (behaviours.strictAuthorization && unsupportedScheme(authorization)) {
      fail(new ApiError(401, 'authentication_failed', 'Unsupported authorization scheme; use "Token <key>".'), { 'WWW-Authenticate': 'Token' });
      return;
    }
    const token = tokenOf(authorization);
    // Authentication comes before throttling in Django REST framework: this 401 carries no X-RateLimit-*.
    if (tokens.size > 0 && token !== null && !tokens.has(token)) {
      fail(new ApiError(401, 'authentication_failed', 'Invalid token.'), { 'WWW-Authenticate': 'Token' });
      return;
    }
    const authenticated = tokens.size > 0 && token !== null;
    if (route.tokenFirst?.(behaviours) && behaviours.anonymousLimits && !authenticated) {
      fail(notAuthenticated());
      return;
    }
    const decision = limiter?.hit(authenticated ? `token:${token}` : `anonymous:${request.socket.remoteAddress}`, authenticated);
    const limits = rateHeaders(decision);
    if (decision && !decision.allowed) {
      fail(new ApiError(429, 'throttled', `Request was throttled. Expected available in ${decision.resetSeconds} seconds.`), {
        ...limits,
        'Retry-After': String(decision.resetSeconds),
      });
      return;
    }
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') {
      sendJson(
        request,
        response,
        url,
        200,
        { ...base, ...limits },
        {
          name: 'Weblate REST API',
          description: '',
          renders: ['application/json', 'text/html'],
          parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        },
      );
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      // A read-only server: writes are refused, anonymous ones as a real server refuses them.
      fail(
        behaviours.anonymousLimits && !authenticated ? notAuthenticated() : new ApiError(405, 'method_not_allowed', `Method "${method}" not allowed.`),
        limits,
      );
      return;
    }
    const format = url.searchParams.get('format');
    const apiRequest: ApiRequest = {
      url,
      pageUrl: behaviours.pageLinkOrigin ? new URL(`${url.pathname}${url.search}`, behaviours.pageLinkOrigin) : url,
      headers: request.headers,
      instance: instanceOf(model),
      links: linksFor(url.origin, prefix, linkFormat(format), behaviours.weblateFields, {
        recentFields: behaviours.recentFields,
        newUnitStates: behaviours.newUnitStates,
        fields514: behaviours.fields514,
        statistics514: behaviours.statistics514,
        djangoPaths: behaviours.djangoPaths,
      }),
      canSee: (project) => !project.private || authenticated || (!behaviours.anonymousLimits && tokens.size === 0),
      legacyPagination: behaviours.legacyPagination,
      changesNewestFirst: behaviours.changesNewestFirst,
      behaviours,
      authenticated,
    };
    let result: ApiResult;
    try {
      // Django REST framework knows the `json` and `api` renderers; any other format is a 404.
      if (format !== null && format !== 'json' && format !== 'api' && !route.formatIsConversion) throw new ApiError(404, 'not_found', 'Not found.');
      result = route.handle(apiRequest, params);
    } catch (error) {
      if (error instanceof ApiError) {
        fail(error, limits);
        return;
      }
      throw error;
    }
    if ('json' in result) sendJson(request, response, url, result.status, { ...base, ...limits }, result.json);
    else send(response, result.status, { ...base, ...limits, ...result.headers }, result.status === 304 ? '' : result.raw, head);
  }

  async function handleActivity(request: IncomingMessage, response: ServerResponse, action: string): Promise<void> {
    const reply = (status: number, json: unknown) => send(response, status, { 'Content-Type': 'application/json' }, apiJson(json), false);
    if (request.method !== 'POST') {
      reply(405, { detail: `Use POST for /_activity/${action}` });
      return;
    }
    if (!isActivityModel(model)) {
      reply(409, { detail: 'This dataset is read-only (synthetic data is generated, not stored): start the server with --data bundled to simulate activity.' });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      reply(400, { detail: `The body of /_activity/${action} is not JSON.` });
      return;
    }
    try {
      const changes = runActivity(model, action, body);
      reply(200, { changes: changes.map((change) => change.id) });
    } catch (error) {
      if (error instanceof ActivityError || error instanceof ActivityRequestError) reply(400, { detail: error.message });
      else throw error;
    }
  }

  /**
   * Requests to the API without an `Authorization` header, past the first `botChallenge.after`,
   * meet the bot protection, which stands before Weblate; API clients pass by their header (a
   * key Weblate refuses then answers 401 as usual).
   */
  let anonymousApiRequests = 0;
  function challenged(request: IncomingMessage, url: URL): boolean {
    if (!behaviours.botChallenge || !url.pathname.startsWith(`${prefix}/api/`) || request.headers.authorization !== undefined) return false;
    anonymousApiRequests++;
    return anonymousApiRequests > behaviours.botChallenge.after;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    requests++;
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? `${host}:${port}`}`);
    const head = request.method === 'HEAD';
    const activity = /^\/_activity\/([\w-]+)$/.exec(url.pathname);
    if (behaviours.activity && activity) {
      await handleActivity(request, response, activity[1]!);
      return;
    }
    if (challenged(request, url)) {
      const { headers, body } = challengePage(behaviours.botChallenge!.page);
      send(response, behaviours.botChallenge!.status, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }, body, head);
      return;
    }
    const segments = apiSegments(url.pathname, prefix);
    const slashed = segments === null ? apiSegments(`${url.pathname}/`, prefix) : null;
    if (slashed && match(slashed)) {
      // Django's APPEND_SLASH: a known path missing its trailing slash is redirected.
      send(response, 301, { Location: `${url.pathname}/${url.search}` }, '', head);
      return;
    }
    if (segments === null) {
      send(response, 404, { 'Content-Type': 'text/html; charset=utf-8' }, notFoundPage(url.pathname), head);
      return;
    }
    const fault = nextFault?.() ?? { kind: 'none' };
    if (fault.kind === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault.kind === 'error') {
      send(response, fault.status, { 'Content-Type': 'text/html' }, serverErrorPage(fault.status), head);
      return;
    }
    if (fault.kind === 'slow') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, fault.ms);
        timers.add(timer);
      });
      if (response.destroyed) return;
    }
    handleApi(request, response, url, segments);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A bug in the server itself: answer like Django with DEBUG off, and say what broke on stderr.
      console.error(`reference server: ${request.method} ${request.url} failed:`, error);
      if (!response.headersSent) send(response, 500, { 'Content-Type': 'text/html' }, serverErrorPage(500), false);
      else response.destroy();
    });
  });
  // nginx's keep-alive (65 s) rather than Node's 5 s: with 5 s, a busy client reusing a pooled
  // connection just as the server drops it gets ECONNRESET, a race no real deployment shows.
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${prefix}/api/`,
    origin,
    model,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
