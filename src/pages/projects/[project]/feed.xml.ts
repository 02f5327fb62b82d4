import type { APIRoute, GetStaticPaths } from 'astro';
import { withLevelEntries } from '../../../data/level-feeds.ts';
import { projectSubject, subjectFeed } from '../../../data/changes-subject.ts';
import { projectStaticPaths, type ProjectEntry } from '../../../data/tree.ts';

/** The latest changes of one project: `projects/<project>/feed.xml`. */
export const getStaticPaths = projectStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const project = props.project as ProjectEntry;
  const subject = await projectSubject(project);
  return withLevelEntries(subjectFeed(subject), subject.feed, { project: project.slug });
};
