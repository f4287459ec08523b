/*
 * Whether the board may show figures at all: a small state machine, plain data in, plain data
 * out (unit-tested in tests/unit/board-health.test.ts). A monitoring screen that shows zeros
 * while it knows nothing reads as "all fine", the worst thing it can say; so until the API has
 * answered, after it stopped answering, when it refused the caller, or when nothing has been
 * heard for longer than the poll interval, the board names that state instead of its figures.
 */

/**
 * - `loading`: no picture yet (first load, or a new scope under way);
 * - `live`: the picture is fresh and the socket pushes changes;
 * - `reconnecting`: the picture is fresh, the socket is down and the board polls;
 * - `unreachable`: the last call failed (no answer, or an answer that is not a success);
 * - `unauthorised`: the API refused the caller (401: sign in; 403: not allowed);
 * - `stale`: nothing heard for longer than the poll interval (calls hang, the machine slept).
 */
export type Phase = 'loading' | 'live' | 'reconnecting' | 'unreachable' | 'unauthorised' | 'stale';

/** Phases in which the counts, tiles and alarms may show. */
export const FRESH: readonly Phase[] = ['live', 'reconnecting'];

export interface Health {
  /** When the board last heard from the API: the time the newest successful call was sent, ms since the epoch. */
  heardAt?: number;
  socketOpen: boolean;
  /** The newest failure since the board last heard from the API. */
  failure?: { kind: 'unreachable' | 'unauthorised'; detail: string; at: number };
}

export type HealthEvent =
  | { type: 'heard'; at: number }
  /** `at`: when the failed call was sent. */
  | { type: 'failed'; kind: 'unreachable' | 'unauthorised'; detail: string; at: number }
  | { type: 'socket'; open: boolean }
  /** A new scope or a new principal: the picture held is not the one asked for. */
  | { type: 'reset' };

export const initialHealth = (): Health => ({ socketOpen: false });

export const nextHealth = (health: Health, event: HealthEvent): Health => {
  switch (event.type) {
    case 'heard':
      return { ...health, heardAt: Math.max(health.heardAt ?? 0, event.at), failure: undefined };
    case 'failed':
      // a call that was sent before the newest answer and fails late says nothing about now
      if (health.heardAt !== undefined && event.at < health.heardAt) return health;
      return { ...health, failure: { kind: event.kind, detail: event.detail, at: event.at } };
    case 'socket':
      return { ...health, socketOpen: event.open };
    case 'reset':
      return { socketOpen: health.socketOpen };
  }
};

/**
 * How long the board may go without hearing from the API before it calls its picture stale:
 * the poll interval, plus the time the call of the next beat may take to answer (as long as
 * the interval, at most 5 s), so that a slow but answering API never makes the board blink.
 * `heardAt` is when the newest successful call was sent.
 */
export const staleAfterMs = (pollMs: number): number => pollMs + Math.min(5000, pollMs);

/** The phase at `now`: a refusal or a failure wins over an old picture, an old picture is stale. */
export const phaseOf = (health: Health, now: number, pollMs: number): Phase => {
  if (health.failure?.kind === 'unauthorised') return 'unauthorised';
  if (health.failure) return 'unreachable';
  if (health.heardAt === undefined) return 'loading';
  if (now - health.heardAt > staleAfterMs(pollMs)) return 'stale';
  return health.socketOpen ? 'live' : 'reconnecting';
};

/** What the banner says in each phase, in words (the board adds the detail and the last update). */
export const PHASE_WORDS: Record<Phase, string> = {
  loading: 'Loading: waiting for the first answer from the API',
  live: 'live',
  reconnecting: 'reconnecting… (polling)',
  unreachable: 'API unreachable: no figures to show',
  unauthorised: 'Not authorised: the API refused to show this board',
  stale: 'Stale: no update from the API for longer than the poll interval',
};
