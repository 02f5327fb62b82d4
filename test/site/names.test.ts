/**
 * Safe names (docs/site.md, "Safe names"): generated hostile slugs never become a Windows
 * device name, a name ending in a dot or space, or a name equal to another but for case;
 * every other slug keeps its plain folder name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { registerSegments, safeFileName, safeSegment, sitePaths } from '../../site-model/paths.ts';
import { unsafeName } from '../../site/name-check.ts';

const devices = ['con', 'prn', 'aux', 'nul', ...Array.from({ length: 9 }, (_, i) => `com${i + 1}`), ...Array.from({ length: 9 }, (_, i) => `lpt${i + 1}`)];

/** Every device name in three casings, bare and with extensions, plus trailing dots and spaces. */
function hostileSlugs(): string[] {
  const slugs: string[] = [];
  for (const device of devices) {
    for (const casing of [device, device.toUpperCase(), device[0]!.toUpperCase() + device.slice(1)]) {
      slugs.push(casing, `${casing}.txt`, `${casing}.tar.gz`, `${casing}.`, `${casing} `, `${casing}..`);
    }
  }
  slugs.push('.', '..', 'a.', 'b ', ' ', 'Demo', 'demo', 'DEMO', 'pt_BR', 'pt_br');
  return slugs;
}

/** The file names a slug becomes: its folder, and its badge files (`<slug>.svg`, `<slug>.json`). */
function namesOf(slug: string): string[] {
  const segment = safeSegment(slug);
  return [segment, sitePaths.projectBadge(slug).split('/').at(-1)!, sitePaths.projectBadge(slug, 'json').split('/').at(-1)!];
}

afterEach(() => registerSegments([]));

describe('safe names', () => {
  it('never gives a Windows device name, a trailing dot or space, or two names equal but for case', () => {
    const slugs = hostileSlugs();
    registerSegments(slugs);
    const folded = new Map<string, string>();
    for (const slug of slugs) {
      for (const name of namesOf(slug)) expect(unsafeName(name), `${JSON.stringify(slug)} → ${name}`).toBeUndefined();
      const segment = safeSegment(slug);
      const other = folded.get(segment.toLowerCase());
      expect(other === undefined || other === slug, `${JSON.stringify(slug)} and ${JSON.stringify(other)} share ${segment}`).toBe(true);
      folded.set(segment.toLowerCase(), slug);
    }
  });

  it('keeps the plain names of every other slug, uppercase ones included when nothing collides', () => {
    registerSegments(['demo', 'pt_BR', 'zh_Hans', 'core', 'console', 'com10', 'lpt0', 'auxiliary']);
    for (const slug of ['demo', 'pt_BR', 'zh_Hans', 'core', 'console', 'com10', 'lpt0', 'auxiliary']) expect(safeSegment(slug)).toBe(slug);
  });

  it('encodes device names and names equal but for case, deterministically', () => {
    registerSegments(['Demo', 'demo']);
    expect(safeSegment('con')).toMatch(/^con-[0-9a-f]{10}$/);
    expect(safeSegment('NUL')).toMatch(/^NUL-[0-9a-f]{10}$/);
    expect(safeSegment('Demo')).not.toBe('Demo');
    expect(safeSegment('demo')).not.toBe('demo');
    expect(safeSegment('Demo').toLowerCase()).not.toBe(safeSegment('demo').toLowerCase());
    expect(safeSegment('con')).toBe(safeSegment('con'));
  });

  it('gives raw files with a device name as their stem another name', () => {
    expect(safeFileName('po/aux.po')).toMatch(/^aux-po-[0-9a-f]{10}\.txt$/);
    expect(safeFileName('po/de.po')).toBe('de.po');
  });
});
