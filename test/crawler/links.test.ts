import { describe, expect, it } from 'vitest';
import { apiPath, findLinks, parseApiRoot, rebasePageLink, resolveLink, serverBase, withParameters } from '../../crawler/links.ts';

const root = parseApiRoot('https://weblate.example.org/weblate/api/');

describe('parseApiRoot', () => {
  it('adds the trailing slash and drops query and fragment', () => {
    expect(parseApiRoot('http://127.0.0.1:8080/api?format=api#x').href).toBe('http://127.0.0.1:8080/api/');
  });

  it('refuses what is not an http(s) URL, or one carrying credentials, saying why', () => {
    expect(() => parseApiRoot('weblate.example.org/api/')).toThrow('is not an absolute URL; expected e.g. https://weblate.example.org/api/');
    expect(() => parseApiRoot('ftp://weblate.example.org/api/')).toThrow('must be an http or https URL');
    expect(() => parseApiRoot('https://user:wlu_x@weblate.example.org/api/')).toThrow('WEBLATE_TOKEN');
  });

  it('derives the server base under a path prefix', () => {
    expect(serverBase(root)).toBe('https://weblate.example.org/weblate/');
  });
});

describe('resolveLink', () => {
  it('follows links under the API root, without format=api, query sorted', () => {
    expect(resolveLink('https://weblate.example.org/weblate/api/projects/foo/?format=api', root)).toBe('https://weblate.example.org/weblate/api/projects/foo/');
    expect(resolveLink('https://weblate.example.org/weblate/api/units/?q=x&format=api&page=2', root)).toBe(
      'https://weblate.example.org/weblate/api/units/?page=2&q=x',
    );
  });

  it('keeps double-encoded category slugs as the server wrote them', () => {
    expect(resolveLink('https://weblate.example.org/weblate/api/components/p/cat%252Fcomp/', root)).toBe(
      'https://weblate.example.org/weblate/api/components/p/cat%252Fcomp/',
    );
  });

  it('refuses other origins, schemes, ports, paths outside the API and relative strings', () => {
    for (const text of [
      'https://evil.example.net/weblate/api/projects/',
      'http://weblate.example.org/weblate/api/projects/',
      'https://weblate.example.org:8443/weblate/api/projects/',
      'https://weblate.example.org/weblate/projects/foo/',
      'https://weblate.example.org/api/projects/',
      'https://weblate.example.org/weblate/api/../admin/',
      'https://weblate.example.org.evil.net/weblate/api/',
      'https://x@weblate.example.org/weblate/api/',
      'javascript:alert(1)',
      '/weblate/api/projects/',
      'projects/',
    ]) {
      expect(resolveLink(text, root), text).toBeUndefined();
    }
  });
});

describe('rebasePageLink', () => {
  it('moves next links from another scheme or host onto the configured origin', () => {
    expect(rebasePageLink('http://internal:8000/weblate/api/units/?page=2&page_size=1000&format=api', root)).toBe(
      'https://weblate.example.org/weblate/api/units/?page=2&page_size=1000',
    );
  });

  it('refuses a next link whose path leaves the API', () => {
    expect(rebasePageLink('https://evil.example.net/steal/?page=2', root)).toBeUndefined();
  });
});

describe('findLinks', () => {
  it('finds link fields at any depth, in unknown fields, once each, and nothing off-origin', () => {
    const record = {
      url: 'https://weblate.example.org/weblate/api/projects/foo/?format=api',
      web: 'https://foo.example.com/',
      web_url: 'https://weblate.example.org/weblate/projects/foo/',
      nested: { deeper: ['https://weblate.example.org/weblate/api/projects/foo/statistics/?format=api'] },
      brand_new_link: 'https://weblate.example.org/weblate/api/projects/foo/labels/',
      again: 'https://weblate.example.org/weblate/api/projects/foo/',
      hostile: 'http://127.0.0.1:9/api/projects/',
      id: 3,
      nothing: null,
    };
    expect(findLinks(record, root)).toEqual([
      'https://weblate.example.org/weblate/api/projects/foo/',
      'https://weblate.example.org/weblate/api/projects/foo/statistics/',
      'https://weblate.example.org/weblate/api/projects/foo/labels/',
    ]);
  });
});

describe('apiPath and withParameters', () => {
  it('gives the path relative to the API root and sets query parameters canonically', () => {
    const link = withParameters('https://weblate.example.org/weblate/api/changes/?format=api', { timestamp_before: '2026-01-01T00:00:00Z', page_size: '1000' });
    expect(link).toBe('https://weblate.example.org/weblate/api/changes/?page_size=1000&timestamp_before=2026-01-01T00%3A00%3A00Z');
    expect(apiPath(link, root)).toBe('changes/?page_size=1000&timestamp_before=2026-01-01T00%3A00%3A00Z');
  });
});
