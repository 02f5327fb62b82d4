/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM, so long-running commands can close cleanly. */
export function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * A first Ctrl-C (or SIGTERM) aborts the signal, so that a long job (a crawl) stops starting
 * work and winds down; `say` tells the user so. A second one ends the process at once with
 * `exitCode`, after `say`ing `lastWords`. `dispose` removes the handlers.
 */
export function interruptible(say: (text: string) => void, messages: { first: string; lastWords: string }, exitCode: number) {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) {
      say(messages.lastWords);
      process.exit(exitCode);
    }
    controller.abort();
    say(messages.first);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
