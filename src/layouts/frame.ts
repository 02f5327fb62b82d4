/**
 * The frame of every page, as strings: `lang` and `dir` of the interface language on <html>
 * (the server's strings carry their own, docs/site.md "Interface languages"), skip link, header
 * with the site's name (or logo) and search box, breadcrumbs, footer naming the snapshot;
 * description, Open Graph and canonical link when the site URL is known, `noindex` when asked.
 *
 * One frame for both ways a page is written: `Base.astro` puts its parts around Astro's slot,
 * and the bulk writer (site/bulk-pages.ts) wraps the unit and string pages it renders outside
 * Astro in `framedPage` (docs/site.md, "Pages written outside Astro"). The markup is what
 * Astro's compressed output of the former `Base.astro` was, byte for byte: the same spaces
 * between tags, and attribute values escaped as Astro escapes them (`attr`), so a page reads the
 * same whichever way it was written.
 *
 * Links are relative to the page's own file (`path`, site-model/paths.ts); the 404 page, served at any
 * depth, resolves them from the base path instead (docs/site.md, "For search engines and browsers").
 */
import { relativeHref, rootPrefix, sitePaths, type SitePath } from '../../site-model/paths.ts';
import type { PageSettings } from '../../site-model/page-settings.ts';
import { publicUrl } from '../../site-model/web.ts';
import type { Manifest } from '../../snapshot/index.ts';
import { siteTree } from '../data/tree.ts';
import { serverHost, siteName, settings } from '../data/settings.ts';
import { ui, type PageUi } from '../i18n/page.ts';
import { html, Html } from '../utils/html.ts';
import type { Breadcrumb } from './trail.ts';

/** What a page tells its frame. */
export interface FramePage {
  path: SitePath;
  title: string;
  breadcrumbs?: readonly Breadcrumb[] | undefined;
  /** One sentence for search results and link previews. */
  description?: string | undefined;
  /** Atom feeds of this page's subject, besides the global one. */
  feeds?: ReadonlyArray<{ title: string; path: SitePath }> | undefined;
  /**
   * A page of those that grow with the strings (unit, string and list pages, tens of thousands
   * at 1M): no Open Graph and no feed link, 460 B a page that link previews and feed readers
   * take from `<title>`, the description (its title) and the other pages (docs/site.md, "For search engines
   * and browsers").
   */
  lean?: boolean | undefined;
}

/** What every page of one build shares: read once per build, not per page. */
export interface FrameContext {
  manifest: Pick<Manifest, 'id' | 'complete' | 'finished' | 'server'>;
  siteUrl: string | undefined;
  settings: PageSettings;
  ui: PageUi;
  /** The site's name: `--title`, or "<host> translation status". */
  name: string;
}

/** The build's frame context, from the snapshot and settings of the build input (src/data/build-input.ts). */
export async function frameContext(): Promise<FrameContext> {
  const { snapshot, siteUrl } = await siteTree();
  const { manifest } = snapshot;
  return { manifest, siteUrl, settings: settings(), ui: ui(), name: siteName(manifest.server.base_url) };
}

/**
 * ` name="value"` as Astro writes a dynamic attribute: `&` and `"` as `&#38;` and `&#34;`, an
 * empty value as the bare name, nothing for undefined, and an http(s) URL holding `&` as it is.
 */
export function attr(name: string, value: string | undefined): Html {
  if (value === undefined) return html``;
  if (value === '') return new Html(` ${name}`);
  if (value.includes('&') && /^https?:\/\//i.test(value)) return new Html(` ${name}="${value}"`);
  return new Html(` ${name}="${value.replace(/&/g, '&#38;').replace(/"/g, '&#34;')}"`);
}

/** The frame around a page's own content: `head` goes inside <head>, the content between `top` and `bottom` inside <body>. */
export interface FrameParts {
  lang: string;
  dir: 'ltr' | 'rtl';
  head: string;
  top: string;
  bottom: string;
}

export function frameParts(page: FramePage, context: FrameContext): FrameParts {
  const { path, title, breadcrumbs = [], description, feeds = [], lean = false } = page;
  const { manifest, siteUrl, settings: site, ui: pageUi, name } = context;
  const { t } = pageUi;
  // The 404 page is served for any missing path: its links start from the base path.
  const notFound = path === sitePaths.notFound();
  const link = (to: SitePath) => (notFound ? to : relativeHref(path, to));
  // A lean page's description is its title, as a string page's: 100 B a page (docs/site.md).
  const summary = description ?? (lean ? title : t('layout.description', { title, host: serverHost(manifest.server.base_url), snapshot: manifest.id }));
  const canonical = siteUrl && !notFound ? publicUrl(siteUrl, path) : undefined;
  const allFeeds = lean ? feeds : [...feeds, { title: t('nav.changes'), path: sitePaths.feed() }];
  const root = notFound ? '' : rootPrefix(path);
  const head = html`<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${notFound && html`<base${attr('href', site.base)}>`}<meta name="color-scheme" content="light dark"><meta name="generator" content="tmsnap"><title>${documentTitle(title, name)}</title><meta name="description"${attr('content', summary)}>${site.noindex && html`<meta name="robots" content="noindex, nofollow">`}${!lean && html`<meta property="og:type" content="website"><meta property="og:site_name"${attr('content', name)}><meta property="og:title"${attr('content', title)}><meta property="og:description"${attr('content', summary)}>`}${canonical && html`${!lean && html`<meta property="og:url"${attr('content', canonical)}>`}<link rel="canonical"${attr('href', canonical)}>`}<link rel="icon"${attr('href', link(site.favicon))}><link rel="stylesheet"${attr('href', link(sitePaths.stylesheet()))}>${site.css && html`<link rel="stylesheet"${attr('href', link(site.css))}>`}${allFeeds.map((feed) => html`<link rel="alternate" type="application/atom+xml"${attr('title', feed.title)}${attr('href', link(feed.path))}>`)}<script${attr('src', link(sitePaths.script()))} defer></script>`;
  const crumbs =
    breadcrumbs.length > 0 &&
    html`<nav class="breadcrumbs"${attr('aria-label', t('layout.breadcrumb'))}> <ol> ${breadcrumbs.map((crumb) => html`<li> <a${attr('href', link(crumb.path))}>${crumb.label}</a> </li>`)} </ol> </nav>`;
  const top = html` <a class="skip" href="#main">${t('layout.skip')}</a> <header class="site"> <a class="brand"${attr('href', link(sitePaths.home()))}>${site.logo && html`<img class="logo"${attr('src', link(site.logo))} alt="" height="32">`}${name}</a> <nav${attr('aria-label', t('layout.siteNav'))}> <ul> <li><a${attr('href', link(sitePaths.home()))}>${t('nav.projects')}</a></li> <li><a${attr('href', link(sitePaths.languages()))}>${t('nav.languages')}</a></li> <li><a${attr('href', link(sitePaths.changes(1)))}>${t('nav.changes')}</a></li> </ul> </nav> ${searchBox(root, pageUi)}  </header> <main id="main"> ${crumbs} <h1>${title}</h1> `;
  const footerText = pageUi.parts(manifest.complete ? 'layout.footer' : 'layout.footerIncomplete', {
    id: html`<code>${manifest.id}</code>`,
    server: html`<code>${manifest.server.base_url}</code>`,
    time: pageUi.timeHtml(manifest.finished),
  });
  const bottom = html` </main> <footer class="site"> ${site.footer && html`<p class="custom">${site.footer}</p>`} ${footerText} <a${attr('href', link(sitePaths.status()))}>${t('layout.json')}</a>.\n</footer> `;
  return { lang: pageUi.lang, dir: pageUi.dir, head: head.value, top: top.value, bottom: bottom.value };
}

/**
 * The document title: the page's title, then the site's name, once. A page whose title the
 * name already says (the home page's "Translation status" in "<host> translation status") gets
 * the name alone.
 */
export function documentTitle(title: string, name: string): string {
  return name.toLocaleLowerCase().includes(title.toLocaleLowerCase()) ? name : `${title} · ${name}`;
}

/**
 * The search box every page shows. A plain GET form, so it works without JavaScript and from
 * `file://`: it lands on the search page with `?q=…`, which runs the query. `root` is the
 * relative path from the page to the site root (`../../`, empty at the root).
 */
function searchBox(root: string, pageUi: PageUi): Html {
  const { t } = pageUi;
  return html`<form class="search-box" role="search" method="get"${attr('action', `${root}search/index.html`)}> <label for="site-search-q" class="visually-hidden">${t('search.label')}</label> <input id="site-search-q" type="search" name="q"${attr('placeholder', t('search.placeholder'))} autocomplete="off"> <button type="submit">${t('search.submit')}</button> </form>`;
}

/** A whole page written outside Astro: the document `Base.astro` makes of the same parts around `body`. */
export function framedPage(page: FramePage, context: FrameContext, body: string): string {
  const parts = frameParts(page, context);
  return `<!DOCTYPE html><html lang="${parts.lang}" dir="${parts.dir}"> <head>${parts.head}</head> <body>${parts.top}${body}${parts.bottom}</body></html>`;
}
