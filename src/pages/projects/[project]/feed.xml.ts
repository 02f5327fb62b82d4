import type { APIRoute, GetStaticPaths } from 'astro';
import { sitePaths } from '../../../../site/paths.ts';
import { feedEntries, latestChangesBySubject } from '../../../data/changes.ts';
import { changesFeed } from '../../../data/feeds.ts';
import { projectStaticPaths, type ProjectEntry } from '../../../data/tree.ts';

/** The latest changes of one project: `projects/<project>/feed.xml`. */
export const getStaticPaths = projectStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const project = props.project as ProjectEntry;
  const { byProject } = await latestChangesBySubject();
  return changesFeed(
    sitePaths.projectFeed(project.slug),
    { id: `project-${project.slug}`, title: project.record.name },
    (byProject.get(project.slug) ?? []).slice(0, feedEntries),
  );
};
