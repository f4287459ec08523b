import { describe, expect, it } from 'vitest';
import { addUp } from '#lib/shared/tally';

describe('addUp', () => {
  it('adds counts, keeps a flag only when both hold it, and does so in nested tallies', () => {
    const a = { raised: 2, complete: true, notifications: { mailed: 1, complete: true } };
    const b = { raised: 3, complete: true, notifications: { mailed: 4, complete: false } };
    expect(addUp(a, b)).toEqual({ raised: 5, complete: true, notifications: { mailed: 5, complete: false } });
  });
});
