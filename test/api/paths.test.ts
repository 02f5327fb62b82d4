import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatApiPath, objectPath, parseApiPath, segmentOf, slugOf } from '../../api/paths.ts';

describe('parseApiPath', () => {
  it('names each object the description documents, with its keys as written', () => {
    expect(parseApiPath('')).toEqual({ kind: 'root', collection: '' });
    expect(parseApiPath('projects/')).toEqual({ kind: 'collection', collection: 'projects' });
    expect(parseApiPath('projects/hello/')).toEqual({ kind: 'project', collection: 'projects', project: 'hello' });
    expect(parseApiPath('projects/hello/components/')).toEqual({ kind: 'project', collection: 'projects', project: 'hello', sub: 'components' });
    expect(parseApiPath('components/hello/cat%252Fui/translations/')).toEqual({
      kind: 'component',
      collection: 'components',
      project: 'hello',
      component: 'cat%252Fui',
      sub: 'translations',
    });
    expect(parseApiPath('translations/hello/ui/pt_BR/units/')).toEqual({
      kind: 'translation',
      collection: 'translations',
      project: 'hello',
      component: 'ui',
      language: 'pt_BR',
      sub: 'units',
    });
    expect(parseApiPath('languages/de/statistics/')).toMatchObject({ kind: 'language', language: 'de', sub: 'statistics' });
    expect(parseApiPath('units/12/')).toMatchObject({ kind: 'unit', id: '12' });
    expect(parseApiPath('changes/7/')).toMatchObject({ kind: 'change', id: '7' });
    expect(parseApiPath('users/admin/notifications/')).toMatchObject({ kind: 'user', id: 'admin', sub: 'notifications' });
    expect(parseApiPath('groups/3/roles/')).toMatchObject({ kind: 'item', collection: 'groups', id: '3', sub: 'roles' });
    // Names of Object.prototype's members are collections like any other (found by the property below).
    expect(parseApiPath('valueOf/0/')).toMatchObject({ kind: 'item', collection: 'valueOf', id: '0' });
    expect(parseApiPath('__proto__/x/')).toMatchObject({ kind: 'item', collection: '__proto__', id: 'x' });
  });

  it('refuses what is not an API path: no trailing slash, empty segments, objects cut short', () => {
    for (const path of ['projects', 'projects//', '/projects/', 'components/hello/', 'translations/hello/ui/', 'projects/hello']) {
      expect(parseApiPath(path), path).toBeUndefined();
    }
  });

  it('gives the object a sub-resource belongs to', () => {
    expect(objectPath(parseApiPath('projects/hello/components/')!)).toBe('projects/hello/');
    expect(objectPath(parseApiPath('components/hello/ui/translations/')!)).toBe('components/hello/ui/');
    expect(objectPath(parseApiPath('translations/hello/ui/de/file/')!)).toBe('translations/hello/ui/de/');
  });

  it('is the exact inverse of formatApiPath for any path of non-empty segments', () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9%_.~-]{1,8}$/),
      fc.constantFrom('projects', 'components', 'translations', 'units', 'valueOf', '__proto__', 'constructor'),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 0, maxLength: 7 }), (segments) => {
        const path = segments.length === 0 ? '' : `${segments.join('/')}/`;
        const parsed = parseApiPath(path);
        if (parsed !== undefined) expect(formatApiPath(parsed)).toBe(path);
        else expect(segments.length).toBeGreaterThan(1);
      }),
    );
  });
});

describe('slugOf / segmentOf', () => {
  it('decode the double-escaped slash of components inside categories, and back', () => {
    expect(slugOf('cat%252Fcomp')).toBe('cat/comp');
    expect(segmentOf('cat/comp')).toBe('cat%252Fcomp');
    expect(slugOf('caf%C3%A9')).toBe('café');
    // A malformed escape is kept as written rather than thrown on: slugs are untrusted input.
    expect(slugOf('%E0%A4%A')).toBe('%E0%A4%A');
    // A slug holding the text `%2F` itself is the one Weblate's escaping cannot tell from a slash.
    const slug = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('%2F'));
    fc.assert(
      fc.property(slug, (text) => {
        expect(slugOf(segmentOf(text))).toBe(text);
      }),
    );
  });
});
