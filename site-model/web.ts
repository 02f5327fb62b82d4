/**
 * The web's basics around the pages: public URLs of pages, sitemap.xml, robots.txt and the
 * generated favicon (docs/site.md, "For search engines and browsers").
 */

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[char]};`);
}

/** The site URL with a trailing slash, so that relative paths resolve under it. */
function siteRoot(siteUrl: string): string {
  return siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
}

/** The address of a page once published: `projects/demo/index.html` → `https://…/projects/demo/`. */
export function publicUrl(siteUrl: string, path: string): string {
  const tidy = path === 'index.html' ? '' : path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
  return new URL(tidy, siteRoot(siteUrl)).href;
}

/** Search engines read at most 50,000 URLs from one sitemap file (sitemaps.org). */
export const sitemapLimit = 50_000;

/** `sitemap.xml`, plus `sitemap-<n>.xml` files under a sitemap index when there are more pages than one file may hold. */
export function sitemapFiles(siteUrl: string, pages: readonly string[]): Array<[string, string]> {
  const urlset = (paths: readonly string[]) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths.map((path) => `<url><loc>${escapeXml(publicUrl(siteUrl, path))}</loc></url>\n`).join('')}</urlset>\n`;
  if (pages.length <= sitemapLimit) return [['sitemap.xml', urlset(pages)]];
  const files: Array<[string, string]> = [];
  for (let at = 0; at < pages.length; at += sitemapLimit) files.push([`sitemap-${files.length + 1}.xml`, urlset(pages.slice(at, at + sitemapLimit))]);
  const index = `<?xml version="1.0" encoding="utf-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files.map(([name]) => `<sitemap><loc>${escapeXml(publicUrl(siteUrl, name))}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
  return [['sitemap.xml', index], ...files];
}

/**
 * robots.txt: disallowing everything with `--noindex`, naming the sitemap with `--site-url`,
 * none otherwise. Crawlers read it only at a host's root: a site under a base path needs the
 * host's own robots.txt to say the same (docs/site.md).
 */
export function robotsTxt(siteUrl: string | undefined, noindex: boolean): string | undefined {
  if (noindex) return 'User-agent: *\nDisallow: /\n';
  if (siteUrl === undefined) return undefined;
  return `User-agent: *\nAllow: /\n\nSitemap: ${publicUrl(siteUrl, 'sitemap.xml')}\n`;
}

/** A square with the title's first letter, so that browsers stop asking for a missing /favicon.ico. */
export function generatedFavicon(title: string): string {
  const letter = [...title.trim()][0]?.toUpperCase() ?? 't';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0b57b0"/><text x="32" y="45" font-family="Verdana,DejaVu Sans,sans-serif" font-size="38" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(letter)}</text></svg>\n`;
}
