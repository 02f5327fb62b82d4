import { counted } from './count.ts';
import {
  type Behaviours,
  DEFAULT_PROFILE,
  type Faults,
  type Model,
  type ProfileName,
  type RateLimit,
  activityNames,
  isProfileName,
  profileNames,
  profiles,
  startReferenceServer,
  weblateRateLimit,
} from '@tmsnap/reference-server';
import { DATASET_HELP, DatasetError, loadDataset } from '@tmsnap/reference-server/datasets';
import { type Command, UsageError, exitCodes, parseCommandLine, parsePort } from './command.ts';
import { untilInterrupted } from './signals.ts';

const help = `tmsnap reference-server: a read-only Weblate API over bundled or synthetic data

Usage: tmsnap reference-server [options]

Options:
  --port P                 port to listen on (default 0: a free one; the URL is printed)
  --host H                 address to listen on (default 127.0.0.1)
  --data D                 ${DATASET_HELP} (default bundled)
  --profile P              which server to be: ${profileNames.join(', ')} (default ${DEFAULT_PROFILE});
                           weblate-* answer like that Weblate version, ideal like the API description

Behaviours laid over the profile (weblate-* profiles already have the first two and throttling on):
  --changes-newest-first   order changes lists newest first, as real servers do
  --browsable-api          ?format=api answers the HTML browsable API
  --path-prefix P          serve the API under P, e.g. /weblate → http://host/weblate/api/
  --page-link-origin O     next/previous links carry origin O (e.g. https://127.0.0.1:8443)
  --token KEY              accept this API key (repeatable); private projects then 404 for anonymous clients
  --rate-limit SPEC        sliding-window limit, anonymous=N,authenticated=N,window=SECONDS
                           (each optional; defaults ${weblateRateLimit.anonymous} a day, ${weblateRateLimit.authenticated} an hour;
                           window=S sets both windows)
  --faults SPEC            seed=S,error=F,drop=F,slow=F,slow-ms=MS: fractions of API requests that
                           answer 5xx, drop the connection, or answer after MS
  --legacy-pagination      servers up to 4.15: 20 per page, page_size ignored
  --structured-errors      the 5.10+ error body {type, errors: [{code, detail, attr}]}
  --activity               accept POST /_activity/<action> (JSON body) to simulate translators;
                           actions: ${activityNames.join(', ')}

Ctrl-C stops the server.`;

/** `key=value,key=value` into a map, refusing keys outside `allowed`. */
function keyValues(flag: string, text: string, allowed: readonly string[]): Map<string, number> {
  const values = new Map<string, number>();
  for (const pair of text.split(',').filter(Boolean)) {
    const [key = '', raw = ''] = pair.split('=');
    if (!allowed.includes(key)) throw new UsageError(`${flag}: unknown key "${key}" in "${text}"; keys: ${allowed.join(', ')}`);
    const value = Number(raw);
    if (raw === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`${flag}: "${key}" needs a non-negative number, got "${raw}"`);
    values.set(key, value);
  }
  return values;
}

export function parseRateLimit(text: string): RateLimit {
  const values = keyValues('--rate-limit', text, ['anonymous', 'authenticated', 'window']);
  const window = values.get('window');
  return {
    anonymous: values.get('anonymous') ?? weblateRateLimit.anonymous,
    authenticated: values.get('authenticated') ?? weblateRateLimit.authenticated,
    windowSeconds: window ?? weblateRateLimit.windowSeconds,
    ...(window === undefined && weblateRateLimit.anonymousWindowSeconds !== undefined
      ? { anonymousWindowSeconds: weblateRateLimit.anonymousWindowSeconds }
      : {}),
  };
}

export function parseProfile(text: string): ProfileName {
  if (!isProfileName(text)) throw new UsageError(`--profile: "${text}" is not a profile; profiles: ${profileNames.join(', ')}`);
  return text;
}

export function parseFaults(text: string): Faults {
  const values = keyValues('--faults', text, ['seed', 'error', 'drop', 'slow', 'slow-ms']);
  for (const key of ['error', 'drop', 'slow']) {
    if ((values.get(key) ?? 0) > 1) throw new UsageError(`--faults: "${key}" is a fraction of requests, from 0 to 1`);
  }
  return {
    seed: values.get('seed') ?? 1,
    errorRate: values.get('error') ?? 0,
    dropRate: values.get('drop') ?? 0,
    slowRate: values.get('slow') ?? 0,
    slowMs: values.get('slow-ms') ?? 1000,
  };
}

export function parseBehaviours(values: Record<string, string | boolean | string[] | undefined>): Behaviours {
  const behaviours: Behaviours = {};
  if (values['changes-newest-first']) behaviours.changesNewestFirst = true;
  if (values['browsable-api']) behaviours.browsableApi = true;
  if (typeof values['path-prefix'] === 'string') behaviours.pathPrefix = values['path-prefix'];
  if (typeof values['page-link-origin'] === 'string') {
    const origin = values['page-link-origin'];
    if (!URL.canParse(origin)) throw new UsageError(`--page-link-origin: "${origin}" is not a URL such as https://127.0.0.1:8443`);
    behaviours.pageLinkOrigin = new URL(origin).origin;
  }
  if (Array.isArray(values.token)) behaviours.tokens = values.token;
  if (typeof values['rate-limit'] === 'string') behaviours.rateLimit = parseRateLimit(values['rate-limit']);
  if (typeof values.faults === 'string') behaviours.faults = parseFaults(values.faults);
  if (values['legacy-pagination']) behaviours.legacyPagination = true;
  if (values['structured-errors']) behaviours.structuredErrors = true;
  if (values.activity) behaviours.activity = true;
  return behaviours;
}

async function run(args: string[]): Promise<number> {
  const { values } = parseCommandLine(args, {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: 'bundled' },
    profile: { type: 'string', default: DEFAULT_PROFILE },
    'changes-newest-first': { type: 'boolean' },
    'browsable-api': { type: 'boolean' },
    'path-prefix': { type: 'string' },
    'page-link-origin': { type: 'string' },
    token: { type: 'string', multiple: true },
    'rate-limit': { type: 'string' },
    faults: { type: 'string' },
    'legacy-pagination': { type: 'boolean' },
    'structured-errors': { type: 'boolean' },
    activity: { type: 'boolean' },
  });
  const port = parsePort(values.port);
  const profile = parseProfile(values.profile);
  const behaviours = parseBehaviours(values);
  const model = await loadDatasetFlag(values.data);
  const server = await startReferenceServer({ model, port, host: values.host, profile, behaviours });
  console.log(server.url);
  console.error(
    `reference server: ${profile}, ${values.data}, ${counted(model.projects().length, 'project', 'projects')}, ${counted(model.components().length, 'component', 'components')}, ${counted(model.translations().length, 'translation', 'translations')}. Ctrl-C stops it.`,
  );
  const throttled = throttleNote(behaviours.rateLimit ?? profiles[profile].rateLimit, (behaviours.tokens ?? []).length > 0);
  if (throttled !== undefined) console.error(`reference server: ${throttled}`);
  await untilInterrupted();
  await server.close();
  return exitCodes.ok;
}

function per(seconds: number): string {
  return seconds === 86_400 ? 'a day' : seconds === 3600 ? 'an hour' : `per ${seconds} s`;
}

/**
 * The banner's word on throttling: a plain `tmsnap crawl` against it stopped after 17 requests
 * with "wait 86400 s" and no hint why (issue 24). Undefined when no limit applies.
 */
export function throttleNote(limit: RateLimit | undefined, tokens: boolean): string | undefined {
  if (limit === undefined) return undefined;
  const anonymous = `${limit.anonymous} requests ${per(limit.anonymousWindowSeconds ?? limit.windowSeconds)}`;
  const keyed = `${limit.authenticated} ${per(limit.windowSeconds)}`;
  if (tokens) return `anonymous clients get ${anonymous}; crawl with WEBLATE_TOKEN set to a --token key for ${keyed}.`;
  return (
    `anonymous clients get ${anonymous} (as Weblate), usually fewer than a crawl needs: start it with --token KEY and crawl ` +
    `with WEBLATE_TOKEN=KEY (${keyed}), or raise the limit with --rate-limit anonymous=N.`
  );
}

/** `--data`: the reference server's dataset, a bad value being bad usage (also for `tmsnap demo`). */
export async function loadDatasetFlag(value: string, options: { now?: () => Date } = {}): Promise<Model> {
  try {
    return await loadDataset(value, options);
  } catch (error) {
    if (error instanceof DatasetError) throw new UsageError(error.message);
    throw error;
  }
}

export const command: Command = {
  summary: 'serve a read-only Weblate API over bundled or synthetic data',
  help,
  run,
};
