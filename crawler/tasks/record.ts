import { apiRoot } from '../../api/root.ts';
import { CrawlStoppedError, stopCodes } from '../errors.ts';
import type { Task } from '../queue/task.ts';
import type { TaskContext } from './context.ts';

/** The API root, or one record no list covers (or a list item short of its schema). Answers the requests needed. */
export async function fetchRecord(task: Task, context: TaskContext): Promise<number> {
  if (task.type === 'record' && context.writer.has(task.url)) return 0;
  const { body } = await context.client.getJson(task.url);
  if (task.type === 'root' && !apiRoot.safeParse(body).success) {
    throw new CrawlStoppedError(
      stopCodes.answer,
      `${task.url} answered JSON that is not a Weblate API root (no projects, components, units… links): is --url the API root, e.g. https://weblate.example.org/api/?`,
    );
  }
  await context.store(task.url, body);
  return 1;
}
