/**
 * Source locations linked through a component's `repoweb` template, e.g.
 * `https://github.com/o/r/blob/{{branch}}/{{filename}}#L{{line}}`. Weblate also accepts
 * spaces inside the braces.
 */
export interface SourceLocation {
  text: string;
  href?: string;
}

/** `src/a.c:12, src/b.c:3` → one entry per location. */
export function splitLocations(location: string): Array<{ text: string; filename: string; line: string }> {
  return location
    .split(/,\s*|\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((text) => {
      const match = /^(.*?):(\d+)$/.exec(text);
      return { text, filename: match?.[1] ?? text, line: match?.[2] ?? '' };
    });
}

export function locationLinks(location: string, repoweb: string | null | undefined, branch: string | null | undefined): SourceLocation[] {
  return splitLocations(location).map(({ text, filename, line }) => {
    if (!repoweb) return { text };
    const values: Record<string, string> = {
      branch: encodeURIComponent(branch ?? ''),
      filename: filename.split('/').map(encodeURIComponent).join('/'),
      line: line,
    };
    const href = repoweb.replace(/\{\{\s*(branch|filename|line)\s*\}\}/g, (_, name: string) => values[name] ?? '');
    return isHttpUrl(href) ? { text, href } : { text };
  });
}

/** Only http(s) URLs become links; a template or a field holding `javascript:` stays text. */
export function isHttpUrl(href: string): boolean {
  try {
    const parsed = new URL(href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
