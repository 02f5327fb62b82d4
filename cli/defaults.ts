/**
 * Defaults taken from the environment, so a cron line or a workflow can stay short:
 * `WEBLATE_URL` and `WEBLATE_TOKEN` first, then wlc's own `WLC_URL` and `WLC_KEY`, then wlc's
 * configuration file (its `[weblate] url` and the `[keys]` entry for that URL), then
 * `TMSNAP_CONTENT` for `--content`. A flag always wins. `tmsnap <command> --help` prints which
 * source won (never the token itself). See docs/publishing.md, "Settings from the environment".
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { contentDefault } from './command.ts';

export interface Setting {
  value: string;
  /** Where it came from, e.g. `WEBLATE_URL` or `~/.config/weblate [weblate] url`. */
  source: string;
}

/** An INI file as wlc reads it (Python's RawConfigParser with `=` only): sections of lower-cased keys. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      const name = section[1]!.trim();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    // RawConfigParser splits on the first `=`; a URL key holds `:` and `/`, never `=`.
    const at = line.indexOf('=');
    if (current === undefined || at === -1 || /^\s/.test(raw)) continue;
    current.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return sections;
}

/**
 * wlc's user configuration file: `weblate` or `weblate.ini` in `$XDG_CONFIG_HOME` (default
 * `~/.config`), then in each of `$XDG_CONFIG_DIRS` (default `/etc/xdg`), the first that exists.
 */
export function wlcConfigPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  const dirs = [home, ...(env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean)];
  for (const dir of dirs) {
    for (const name of ['weblate', 'weblate.ini']) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

function readWlcConfig(env: NodeJS.ProcessEnv): { path: string; ini: Map<string, Map<string, string>> } | undefined {
  const path = wlcConfigPath(env);
  if (path === undefined) return undefined;
  try {
    return { path, ini: parseIni(readFileSync(path, 'utf8')) };
  } catch {
    return undefined;
  }
}

/** The server's API root: `WEBLATE_URL`, then `WLC_URL`, then wlc's `[weblate] url`. */
export function urlDefault(env: NodeJS.ProcessEnv = process.env): Setting | undefined {
  for (const name of ['WEBLATE_URL', 'WLC_URL']) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  const config = readWlcConfig(env);
  const value = config?.ini.get('weblate')?.get('url');
  return config && value ? { value, source: `${config.path} [weblate] url` } : undefined;
}

/**
 * The API token for `url`: `WEBLATE_TOKEN`, then `WLC_KEY`, then wlc's `[keys]` entry for that
 * very URL (wlc scopes stored keys to a URL, so a key is never sent to another server).
 */
export function tokenDefault(url: string | undefined, env: NodeJS.ProcessEnv = process.env): Setting | undefined {
  for (const name of ['WEBLATE_TOKEN', 'WLC_KEY']) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  if (url === undefined) return undefined;
  const config = readWlcConfig(env);
  const value = config?.ini.get('keys')?.get(url.toLowerCase());
  return config && value ? { value, source: `${config.path} [keys] ${url}` } : undefined;
}

/** The "which one won" lines `--help` appends for the settings a command's help mentions. */
export function defaultsInEffect(help: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const lines: string[] = [];
  if (help.includes('--content')) {
    const content = contentDefault(env);
    lines.push(`  --content   ${content.value}  (${content.source})`);
  }
  if (help.includes('WEBLATE_URL')) {
    const url = urlDefault(env);
    lines.push(`  --url       ${url ? `${url.value}  (${url.source})` : 'not set (give --url, or set WEBLATE_URL)'}`);
    const token = tokenDefault(url?.value, env);
    lines.push(`  token       ${token ? `set  (${token.source})` : 'none: the crawl is anonymous'}`);
  }
  return lines.length > 0 ? ['', 'Defaults in effect now (a flag overrides them):', ...lines] : [];
}
