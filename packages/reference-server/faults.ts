import { seededRandom } from './data/random.ts';
/** Injected misbehaviour, each a fraction of API requests, drawn from a seeded generator. */
export interface Faults {
  seed: number;
  /** Answer 500, 502, 503 or 504 (HTML bodies, as Django and proxies send). */
  errorRate?: number;
  /** Close the connection without answering. */
  dropRate?: number;
  /** Answer normally after `slowMs`. */
  slowRate?: number;
  slowMs?: number;
}

export type Fault = { kind: 'none' } | { kind: 'drop' } | { kind: 'error'; status: number } | { kind: 'slow'; ms: number };

const errorStatuses = [500, 502, 503, 504];

/** The fault for each successive request: the same seed gives the same sequence. */
export function faultSequence(faults: Faults): () => Fault {
  const random = seededRandom(faults.seed).next;
  const drop = faults.dropRate ?? 0;
  const error = drop + (faults.errorRate ?? 0);
  const slow = error + (faults.slowRate ?? 0);
  return () => {
    const draw = random();
    if (draw < drop) return { kind: 'drop' };
    if (draw < error) return { kind: 'error', status: errorStatuses[Math.floor(random() * errorStatuses.length)]! };
    if (draw < slow) return { kind: 'slow', ms: faults.slowMs ?? 1000 };
    return { kind: 'none' };
  };
}
