import type { Task } from '../queue/task.ts';
import type { TaskContext } from './context.ts';

/** A translation's `file/`, archived raw with its content type. */
export async function fetchFile(task: Task, context: TaskContext): Promise<number> {
  const { body, contentType } = await context.client.getBytes(task.url);
  await context.writer.putFile(task.url.replace(/file\/$/, ''), body, contentType);
  return 1;
}
