/**
 * The task handlers, one module per type of task (plan.ts lists the types): each fetches what
 * its task names, stores it through the context, and answers the minimum number of requests
 * the task implies. The run (crawl.ts) schedules them and maps their errors to outcomes.
 */
import type { Task } from '../queue/task.ts';
import type { TaskContext } from './context.ts';
import { fetchFile } from './file.ts';
import { fetchListPage } from './list-page.ts';
import { fetchRecord } from './record.ts';
import { fetchResource } from './resource.ts';

export { TaskContext } from './context.ts';
export { fetchUnitsAgain } from './units-again.ts';

export function runTask(task: Task, context: TaskContext): Promise<number> {
  switch (task.type) {
    case 'root':
    case 'record':
      return fetchRecord(task, context);
    case 'file':
      return fetchFile(task, context);
    case 'resource':
      return fetchResource(task, context);
    case 'list':
    case 'units':
    case 'changes':
      return fetchListPage(task, context);
  }
}
