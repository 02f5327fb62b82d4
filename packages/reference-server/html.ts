/** The HTML pages a real server answers outside the JSON API. Every interpolated string is escaped. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/** Django's 404 page for a path no view handles, `/api/...` included. */
export function notFoundPage(path: string): string {
  return `<!doctype html>\n<html lang="en">\n<head><title>Not Found</title></head>\n<body>\n  <h1>Not Found</h1><p>The requested resource ${escapeHtml(path)} was not found on this server.</p>\n</body>\n</html>\n`;
}

const reasons: Record<number, string> = { 500: 'Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Time-out' };

/** What Django (500) or a reverse proxy (502–504) sends on a server-side failure. */
export function serverErrorPage(status: number): string {
  const reason = reasons[status] ?? 'Error';
  return `<html>\n<head><title>${status} ${reason}</title></head>\n<body>\n<center><h1>${status} ${reason}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`;
}

/** Django REST framework's browsable API, reduced to what a client mistaking it for JSON would meet. */
export function browsablePage(title: string, status: number, headers: Record<string, string>, json: string): string {
  const headerLines = Object.entries(headers)
    .map(([name, value]) => `<b>${escapeHtml(name)}:</b> ${escapeHtml(value)}`)
    .join('\n');
  return `<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>${escapeHtml(title)} | Weblate REST API</title></head>\n<body>\n<div class="response-info"><pre class="prettyprint"><span class="meta nocode"><b>HTTP ${status}</b>\n${headerLines}\n\n</span>${escapeHtml(json)}</pre></div>\n</body>\n</html>\n`;
}

/**
 * What a bot protection in front of Weblate answers in place of the API (WeblateOrg/weblate#17085):
 * Anubis's proof-of-work page (status 200, or whatever its policy says), Cloudflare's managed
 * challenge (403 with `cf-mitigated: challenge`). Reduced to what identifies each; no script runs.
 */
export function challengePage(page: 'anubis' | 'cloudflare'): { headers: Record<string, string>; body: string } {
  if (page === 'cloudflare') {
    return {
      headers: { 'cf-mitigated': 'challenge', 'Cache-Control': 'private, max-age=0, no-store, no-cache, must-revalidate' },
      body: `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta name="robots" content="noindex,nofollow"></head>\n<body><noscript>Enable JavaScript and cookies to continue</noscript>\n<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>\n`,
    };
  }
  return {
    headers: {},
    body: `<!doctype html>\n<html lang="en"><head><title>Making sure you&#39;re not a bot!</title>\n<script id="anubis_challenge" type="application/json">{"rules":{"algorithm":"fast","difficulty":4},"challenge":"0f2c"}</script>\n<script async type="module" src="/.within.website/x/cmd/anubis/static/js/main.mjs"></script></head>\n<body><main><h1 id="title">Making sure you&#39;re not a bot!</h1><p>Protected by Anubis, a proof-of-work check against AI scrapers.</p></main></body></html>\n`,
  };
}
