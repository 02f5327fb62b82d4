/**
 * What a failed task means for the crawl, decided by the error's class (crawler/errors.ts says
 * what each class is; this says what the crawl does with it), as crawlee's error classes do.
 */
import type { Problem } from '../snapshot/index.ts';
import {
  AccessDeniedError,
  BotChallengeError,
  ConnectionRefusedError,
  ContentTypeError,
  CrawlError,
  CrawlStoppedError,
  HttpStatusError,
  KeyRefusedError,
  RateLimitError,
  RequestCapError,
  stopCodes,
} from './errors.ts';
import type { NewTask } from './queue/task.ts';

export type Outcome =
  /** The crawl cannot go on; resumable with the same command. */
  | { type: 'stop'; stop: CrawlStoppedError }
  /** The credentials may not read this resource pattern (`access.ts`). */
  | { type: 'denied'; error: AccessDeniedError }
  /** An answer, not a failure: the server will say the same next time. Done, with a problem of the data if any. */
  | { type: 'answered'; problem: Problem | undefined }
  /** Retries used up or no connection: left pending for the next run. */
  | { type: 'failed'; error: CrawlError };

/**
 * `token` is the crawl's API key, only ever tested for presence: a stop for a long wait says how
 * to give one when there is none.
 */
export function outcomeOf(task: NewTask, error: unknown, pending: number, token?: string): Outcome {
  if (error instanceof CrawlStoppedError) return { type: 'stop', stop: error };
  if (error instanceof RequestCapError) return { type: 'stop', stop: requestCapStop(pending) };
  if (!(error instanceof CrawlError)) throw error;
  const hint = error instanceof RateLimitError ? anonymousHint(error.waitSeconds, token) : '';
  const stop = (message: string): Outcome => ({ type: 'stop', stop: new CrawlStoppedError(stopCodes.answer, message + hint, { cause: error }) });
  // Each says all there is to say in its one line, wherever in the crawl it happens.
  if (error instanceof BotChallengeError || error instanceof KeyRefusedError || error instanceof ConnectionRefusedError) return stop(error.message);
  if (task.type === 'root') return stop(rootAdvice(error));
  if (error instanceof RateLimitError) return stop(`${error.message}. About ${pending} requests remain; re-run the same command after that to resume.`);
  if (error instanceof AccessDeniedError) return { type: 'denied', error };
  if (error instanceof HttpStatusError && error.status < 500) {
    // A page past the end answers 404 when a list shrank during the crawl: nothing is missing.
    const pastTheEnd = task.page === true && error.status === 404;
    return { type: 'answered', problem: pastTheEnd ? undefined : { url: task.url, field: '', reason: error.message } };
  }
  if (error instanceof ContentTypeError) return { type: 'answered', problem: { url: task.url, field: '', reason: error.message } };
  return { type: 'failed', error };
}

/** The stop once `--max-requests` were made: resumable like the deadline's. */
export function requestCapStop(pending: number): CrawlStoppedError {
  return new CrawlStoppedError(
    stopCodes.requests,
    `this run made the requests --max-requests allows, with ${pending} request(s) to go. Re-run the same command to resume.`,
  );
}

/**
 * A wait of an hour or more without a token is most likely the budget of anonymous clients
 * (Weblate's default: 100 requests a day, which the reference server copies): say how to give one.
 */
export function anonymousHint(waitSeconds: number, token: string | undefined): string {
  if (token !== undefined || waitSeconds < 3600) return '';
  return ' The server throttles anonymous clients: put an API token in WEBLATE_TOKEN (Weblate: your profile, API access; `tmsnap reference-server --token KEY` accepts KEY).';
}

/** What to do when the API root itself cannot be read: nothing else can be crawled. One sentence each (issue 28). */
function rootAdvice(error: CrawlError): string {
  // A server's detail ends in a full stop ("Not found."): one sentence goes on after it.
  const said = error.message.replace(/[.]$/, '');
  if (error instanceof AccessDeniedError) return `${said}: the server wants an API key; put it in the WEBLATE_TOKEN environment variable.`;
  if (error instanceof ContentTypeError) return `${said}: is --url the API root of a Weblate server (it ends in /api/)?`;
  return `${said}; check that --url is the API root of a Weblate server (it ends in /api/).`;
}
