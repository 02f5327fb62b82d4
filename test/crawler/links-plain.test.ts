/**
 * `resolveLink` and `rootPath` skip URL parsing for a link that is the API root followed by a
 * plain path (crawler/links.ts): they must answer exactly what parsing answers, for any string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveLink, rootPath } from '../../crawler/links.ts';

const roots = ['https://weblate.example.org/api/', 'http://127.0.0.1:18714/weblate/api/'].map((text) => new URL(text));

/** What parsing gives: the link under the root, `format` dropped, the query sorted, no fragment. */
function parsed(text: string, root: URL): string | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return undefined;
  url.hash = '';
  url.searchParams.delete('format');
  url.searchParams.sort();
  return url.href;
}

/** Paths built from the pieces that make a path plain or not. */
const pieces = ['units', '12', 'a-b', 'x_y', '~t', 'c.d', '.', '..', '.hidden', '', '%2e', '%41', 'É', 'A B', '?q=1', '#f', '?format=api', '//'];
const path = fc.array(fc.constantFrom(...pieces), { maxLength: 6 }).map((parts) => parts.join('/'));

describe('links below the root that need no parsing', () => {
  it.each(roots.map((root) => [root.href, root]))('give what parsing gives, below %s', (_, root) => {
    fc.assert(
      fc.property(path, fc.boolean(), (rest, slash) => {
        const text = `${root.href}${rest}${slash ? '/' : ''}`;
        const expected = parsed(text, root);
        expect(resolveLink(text, root)).toBe(expected);
        if (expected !== undefined) expect(rootPath(expected, root)).toBe(new URL(expected).pathname.slice(root.pathname.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('leave a dot segment, an empty one or an escape to parsing', () => {
    const root = roots[0]!;
    expect(resolveLink(`${root.href}projects/a/../b/`, root)).toBe(`${root.href}projects/b/`);
    expect(resolveLink(`${root.href}projects/./b/`, root)).toBe(`${root.href}projects/b/`);
    expect(resolveLink(`${root.href}../other/`, root)).toBeUndefined();
    expect(resolveLink(`${root.href}projects/%2e%2e/b/`, root)).toBe(`${root.href}b/`);
    expect(resolveLink(`${root.href}units/12/`, root)).toBe(`${root.href}units/12/`);
  });
});
