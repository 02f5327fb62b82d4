import type { APIRoute, GetStaticPaths } from 'astro';
import { projectSubject, subjectFeed } from '../../../data/changes-subject.ts';
import { projectStaticPaths, type ProjectEntry } from '../../../data/tree.ts';

/** The latest changes of one project: `projects/<project>/feed.xml`. */
export const getStaticPaths = projectStaticPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => subjectFeed(await projectSubject(props.project as ProjectEntry));
