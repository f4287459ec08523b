import { describe, expect, it } from 'vitest';
import { initialHealth, nextHealth, phaseOf, staleAfterMs, type Health, type HealthEvent } from '../../board/src/health';

const POLL = 5000;
const run = (...events: HealthEvent[]): Health => events.reduce(nextHealth, initialHealth());

describe('status board health: whether it may show figures', () => {
  it('is loading until the API first answers, never showing a picture it does not have', () => {
    expect(phaseOf(initialHealth(), 0, POLL)).toBe('loading');
    expect(phaseOf(run({ type: 'socket', open: true }), 0, POLL)).toBe('loading');
  });

  it('is live with the socket up and reconnecting with it down, while the API answers within the poll interval', () => {
    const heard = run({ type: 'heard', at: 1000 });
    expect(phaseOf(heard, 1000, POLL)).toBe('reconnecting');
    expect(phaseOf(nextHealth(heard, { type: 'socket', open: true }), 1000 + POLL, POLL)).toBe('live');
  });

  it('is stale once nothing has been heard for longer than the poll interval (and the time one call takes)', () => {
    const live = run({ type: 'socket', open: true }, { type: 'heard', at: 0 });
    expect(phaseOf(live, staleAfterMs(POLL), POLL)).toBe('live');
    expect(phaseOf(live, staleAfterMs(POLL) + 1, POLL)).toBe('stale');
    // the next beat's call may take up to an interval (at most 5 s) to answer
    expect(staleAfterMs(POLL)).toBe(2 * POLL);
    expect(staleAfterMs(1000)).toBe(2000);
    expect(staleAfterMs(60_000)).toBe(65_000);
    // a push or an answer makes it fresh again
    expect(phaseOf(nextHealth(live, { type: 'heard', at: 10_000 }), 10_000, POLL)).toBe('live');
  });

  it('is unreachable after a failed call, whatever it showed before, until the API answers again', () => {
    const failed = run({ type: 'socket', open: true }, { type: 'heard', at: 0 }, { type: 'failed', kind: 'unreachable', detail: 'Failed to fetch', at: 100 });
    expect(phaseOf(failed, 100, POLL)).toBe('unreachable');
    expect(failed.heardAt).toBe(0);
    expect(failed.failure?.detail).toBe('Failed to fetch');
    expect(phaseOf(nextHealth(failed, { type: 'heard', at: 200 }), 200, POLL)).toBe('live');
  });

  it('is unauthorised when the API refuses the caller, which wins over an unreachable call', () => {
    const refused = run({ type: 'heard', at: 0 }, { type: 'failed', kind: 'unauthorised', detail: 'Sign in', at: 1 });
    expect(phaseOf(refused, 1, POLL)).toBe('unauthorised');
    expect(phaseOf(nextHealth(refused, { type: 'failed', kind: 'unauthorised', detail: 'again', at: 2 }), 2, POLL)).toBe('unauthorised');
    expect(phaseOf(run({ type: 'failed', kind: 'unauthorised', detail: 'x', at: 0 }), 0, POLL)).toBe('unauthorised');
  });

  it('is loading again after a reset (a new scope), however fresh the old picture was', () => {
    const reset = run({ type: 'socket', open: true }, { type: 'heard', at: 0 }, { type: 'reset' });
    expect(phaseOf(reset, 1, POLL)).toBe('loading');
    expect(reset.socketOpen).toBe(true);
  });

  it('never lets an older answer move the last update back', () => {
    expect(run({ type: 'heard', at: 500 }, { type: 'heard', at: 100 }).heardAt).toBe(500);
  });

  it('ignores a failure of a call sent before the newest answer (it failed late, the API answers now)', () => {
    const late = run({ type: 'socket', open: true }, { type: 'heard', at: 2000 }, { type: 'failed', kind: 'unreachable', detail: 'timed out', at: 1000 });
    expect(phaseOf(late, 2000, POLL)).toBe('live');
    expect(late.failure).toBeUndefined();
  });
});
