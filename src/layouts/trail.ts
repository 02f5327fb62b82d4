/** Breadcrumbs shared by the pages below a project or a component (Base.astro's `breadcrumbs`). */
import { sitePaths, type SitePath } from '../../site-model/paths.ts';
import type { ComponentEntry, ProjectEntry } from '../data/tree.ts';
import { ui } from '../i18n/page.ts';

export interface Breadcrumb {
  label: string;
  path: SitePath;
}

/** Projects, then the project: the trail of its components' pages. */
export function projectTrail(project: ProjectEntry): Breadcrumb[] {
  return [
    { label: ui().t('nav.projects'), path: sitePaths.home() },
    { label: project.record.name, path: sitePaths.project(project.slug) },
  ];
}

/** Projects, the project, then the component: the trail of its translations' pages. */
export function componentTrail(component: ComponentEntry): Breadcrumb[] {
  return [...projectTrail(component.project), { label: component.record.name, path: sitePaths.component(component.project.slug, component.slug) }];
}
