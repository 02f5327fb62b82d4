/**
 * Whether an answer is a bot-protection page standing in for the API: Weblate 2026.11's own
 * proof-of-work check for anonymous clients, or Anubis or Cloudflare in front of the server
 * (WeblateOrg/weblate#17085; docs/weblate-api.md, "Weblate 2026"). Such a page is never data:
 * the crawl stops on it (crawler/outcomes.ts). Pure.
 */

export interface ChallengeAnswer {
  status: number;
  contentType: string;
  /** Response headers, names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

/** Statuses such pages come with: Anubis 200 (or its policy's), Cloudflare 403 (older: 503), rate-based rules 429. */
const challengeStatuses = new Set([200, 403, 429, 503]);

/** What names the page's maker: Anubis's challenge script and paths, Cloudflare's challenge platform. */
const makers: readonly [string, RegExp][] = [
  ['Anubis', /anubis_challenge|\/\.within\.website\/|\banubis\b/i],
  ['Cloudflare', /\/cdn-cgi\/challenge-platform\/|\bcf[-_]chl/i],
];

/** Words a proof-of-work or captcha page of another maker shows; only trusted where JSON was asked for. */
const genericMarkers = /proof[- ]of[- ]work|not a (ro)?bot|captcha|checking your browser|verify you are human/i;

/**
 * The maker of the bot-protection page `answer` is (`Anubis`, `Cloudflare`, or `a proof-of-work
 * check`), or undefined when it is not one. `jsonAsked`: the request wanted JSON, so any HTML
 * page with a challenge's words is one; a file download (which may itself be HTML) needs a maker's
 * own marks.
 */
export function botChallenge(answer: ChallengeAnswer, jsonAsked: boolean): string | undefined {
  if (!challengeStatuses.has(answer.status) || !/^text\/html\b/i.test(answer.contentType)) return undefined;
  if (answer.headers['cf-mitigated']?.toLowerCase() === 'challenge') return 'Cloudflare';
  const head = answer.body.slice(0, 64 * 1024);
  for (const [maker, marks] of makers) if (marks.test(head)) return maker;
  return jsonAsked && genericMarkers.test(head) ? 'a proof-of-work check' : undefined;
}
