/**
 * Where the release manager's pages live in the built site (issue 26): release pages and their
 * badges, source drift per language, credits. Tag names are checked when tagged and read
 * (archive/tags.ts: letters, digits, `.`, `_`, `-`); one Windows reserves (`con`, `aux.1`)
 * still goes through `safeSegment`, as slugs do (docs/site.md, "Safe names").
 */
import { isWindowsReserved, safeSegment, type BadgeFormat, type SitePath } from './paths.ts';

const tagSegment = (tag: string) => (isWindowsReserved(tag) ? safeSegment(tag) : tag);

export const releasePaths = {
  releases: (): SitePath => 'releases/index.html',
  release: (tag: string): SitePath => `releases/${tagSegment(tag)}/index.html`,
  /** "at v2.3" badges: the whole site's (`project` absent) and each project's translated share at the release. */
  badge: (tag: string, project: string | undefined, format: BadgeFormat = 'svg'): SitePath =>
    `releases/${tagSegment(tag)}/badges/${project === undefined ? 'all' : `project-${safeSegment(project)}`}.${format}`,
  drift: (code: string): SitePath => `drift/${safeSegment(code)}/index.html`,
  credits: (): SitePath => 'credits/index.html',
  /** A credits download: `key` is a period's (archive/credits.ts `creditPeriods`), `all`, `12-months` or `since-<tag>`. */
  creditsFile: (key: string, format: 'md' | 'json'): SitePath => `credits/${key.startsWith('since-') ? `since-${tagSegment(key.slice(6))}` : key}.${format}`,
};
