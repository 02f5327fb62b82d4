import { describe, expect, it } from 'vitest';
import { phases, planLink, withoutAbsentFile } from '../../crawler/plan.ts';

const whole = {};
const scoped = { projects: new Set(['hello']) };

describe('planLink', () => {
  it('fetches the instance-wide lists once in a whole crawl and skips the lists derived from them', () => {
    expect(planLink('', whole)).toEqual({ type: 'root', phase: phases.root });
    for (const path of ['languages/', 'projects/', 'components/', 'translations/', 'users/']) expect(planLink(path, whole)?.type, path).toBe('list');
    expect(planLink('units/', whole)).toEqual({ type: 'units', phase: phases.bulk });
    expect(planLink('changes/', whole)).toEqual({ type: 'changes', phase: phases.bulk });
    for (const path of [
      'projects/hello/components/',
      'projects/hello/changes/',
      'components/hello/ui/translations/',
      'components/hello/ui/changes/',
      'translations/hello/ui/de/units/',
      'translations/hello/ui/de/changes/',
      'projects/hello/',
      'components/hello/ui/',
      'translations/hello/ui/de/',
      'units/12/',
      'changes/12/',
      'users/admin/',
      'languages/de/',
      'groups/3/',
    ]) {
      expect(planLink(path, whole), path).toBeUndefined();
    }
  });

  it('fetches every sub-resource, known or not, and files raw', () => {
    for (const path of [
      'projects/hello/statistics/',
      'projects/hello/languages/',
      'projects/hello/repository/',
      'projects/hello/labels/',
      'components/hello/ui/lock/',
      'components/hello/ui/links/',
      'users/admin/notifications/',
      'groups/',
      'screenshots/',
      'brand-new-collection/',
      'groups/3/roles/',
    ]) {
      expect(planLink(path, whole), path).toEqual({ type: 'resource', phase: phases.structure });
    }
    expect(planLink('translations/hello/ui/de/file/', whole)).toEqual({ type: 'file', phase: phases.downloads });
    // After the structure phase, when the crawl knows which languages a translation uses.
    expect(planLink('languages/de/statistics/', whole)).toEqual({ type: 'resource', phase: phases.bulk });
    // A component's statistics/ holds each translation's: one request, after the translations are known.
    expect(planLink('components/hello/ui/statistics/', whole)).toEqual({ type: 'resource', phase: phases.bulk });
    expect(planLink('translations/hello/ui/de/statistics/', whole)).toBeUndefined();
  });

  it('in a scoped crawl walks down from the projects in scope and nowhere else', () => {
    expect(planLink('projects/', scoped)?.type).toBe('list');
    expect(planLink('languages/', scoped)?.type).toBe('list');
    expect(planLink('projects/hello/components/', scoped)?.type).toBe('list');
    expect(planLink('components/hello/ui/translations/', scoped)?.type).toBe('list');
    expect(planLink('projects/hello/changes/', scoped)).toEqual({ type: 'changes', phase: phases.bulk });
    expect(planLink('users/admin/', scoped)).toEqual({ type: 'record', phase: phases.stragglers });
    for (const path of [
      'components/',
      'translations/',
      'units/',
      'changes/',
      'users/',
      'groups/',
      'languages/de/statistics/',
      'projects/other/statistics/',
      'components/other/ui/lock/',
      'translations/other/ui/de/file/',
    ]) {
      expect(planLink(path, scoped), path).toBeUndefined();
    }
  });
});

describe('what a real Weblate 5.14.3 serves that is not data (test/weblate)', () => {
  it('skips credits reports, machine-translation settings and whole-project or screenshot files', () => {
    for (const path of [
      'projects/hello/credits/',
      'components/hello/ui/credits/',
      'projects/hello/machinery_settings/',
      'projects/hello/file/',
      'components/hello/ui/file/',
      'screenshots/1/file/',
    ]) {
      expect(planLink(path, whole), path).toBeUndefined();
    }
    expect(planLink('translations/hello/ui/de/file/', whole)?.type).toBe('file');
    expect(planLink('screenshots/1/units/', whole)?.type).toBe('resource');
  });

  it('drops the file link of a translation without a file, and only of such a one', () => {
    const glossarySource = { filename: '', file_url: 'http://w/api/translations/p/glossary/en/file/', url: 'http://w/api/translations/p/glossary/en/' };
    expect(withoutAbsentFile(glossarySource)).toEqual({ filename: '', url: glossarySource.url });
    const translation = { ...glossarySource, filename: 'po/de.po' };
    expect(withoutAbsentFile(translation)).toBe(translation);
  });
});
