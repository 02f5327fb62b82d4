/**
 * Runs the queue's tasks `concurrency` at a time, never starting a phase while an earlier one
 * is in flight, so that units and changes know every translation the structure phase found.
 */
import type { RequestQueue } from './queue/request-queue.ts';
import type { Task } from './queue/task.ts';

export interface Schedule {
  queue: RequestQueue;
  concurrency: number;
  /** Checked before each start: once true, nothing new starts and the running tasks finish. */
  stopped: () => boolean;
  /** Tasks not to start now (in flight, failed in this run, waiting for a sibling's answer). */
  skip: (task: Task) => boolean;
  run: (task: Task) => Promise<void>;
}

export async function drain(schedule: Schedule): Promise<void> {
  const running = new Map<string, { phase: number; promise: Promise<void> }>();
  for (;;) {
    const stopped = schedule.stopped();
    const lowestRunning = Math.min(...[...running.values()].map((entry) => entry.phase));
    const next =
      !stopped && running.size < schedule.concurrency ? schedule.queue.next(lowestRunning, (task) => running.has(task.url) || schedule.skip(task)) : undefined;
    if (next !== undefined) {
      const promise = schedule.run(next).finally(() => running.delete(next.url));
      running.set(next.url, { phase: next.phase, promise });
      continue;
    }
    if (running.size === 0) return;
    await Promise.race([...running.values()].map((entry) => entry.promise));
  }
}
