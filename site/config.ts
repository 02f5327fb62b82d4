/**
 * The site's settings: branding (title, logo, favicon, extra CSS, footer, extra public files),
 * indexing and interface language, from `tmsnap.config.json` or `tmsnap build` flags
 * (flags win). See docs/site.md, "Branding and settings".
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { uiLanguages, type UiLanguage } from '../site-model/page-settings.ts';

export { uiLanguages, type UiLanguage };

/** What a `tmsnap.config.json` may hold; paths are relative to the file's own folder. */
export const siteConfigSchema = z.strictObject({
  /** Replaces "<host> translation status" in the header and every page title. */
  title: z.string().min(1).max(200).optional(),
  /** An image shown before the title in the header. */
  logo: z.string().min(1).optional(),
  /** The site's icon (.svg, .png or .ico); a generated one otherwise. */
  favicon: z.string().min(1).optional(),
  /** A stylesheet linked after the site's own, to override its CSS variables. */
  css: z.string().min(1).optional(),
  /** A line of text added to every page's footer. */
  footer: z.string().max(1000).optional(),
  /** A folder copied as it is into the site's root (CNAME, verification files, images). */
  public: z.string().min(1).optional(),
  /** Where the site will be published, e.g. https://example.github.io/project/. */
  siteUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Base path the site is served under. */
  base: z.string().startsWith('/').optional(),
  /** Ask search engines to stay out: a `noindex` meta tag and a disallowing robots.txt. */
  noindex: z.boolean().optional(),
  /** The language of the site's own interface. */
  uiLang: z.enum(uiLanguages).optional(),
  hideAuthors: z.boolean().optional(),
  /** String histories from the archive on the string pages (default true). */
  history: z.boolean().optional(),
  /** Release levels, as `--levels` takes them (archive/levels.ts). */
  levels: z.string().optional(),
  /** Credits pages and downloads (`--credits`). */
  credits: z.boolean().optional(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const configFileName = 'tmsnap.config.json';

/** A config file that cannot be used: one line naming the file and the key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates a config file. `required` is false for the one found by default in the
 * working folder, which may be absent. File paths in it become absolute, from the file's folder.
 */
export async function loadSiteConfig(file: string, required: boolean): Promise<SiteConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = siteConfigSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || '(top level)';
      return `  ${key}: ${issue.message}`;
    });
    throw new ConfigError(`${file}: invalid settings\n${lines.join('\n')}`);
  }
  const folder = dirname(file);
  const config = { ...parsed.data };
  for (const key of ['logo', 'favicon', 'css', 'public'] as const) {
    const value = config[key];
    if (value !== undefined) config[key] = resolve(folder, value);
  }
  return config;
}
