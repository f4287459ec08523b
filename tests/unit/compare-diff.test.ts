import { describe, expect, it } from 'vitest';
import { differences, headerDifferences, IdMap, textDifferences, type IdPair } from '../../bench/compare/diff';

// The noise rules of `npm run compare` (bench/compare/diff.ts): what they forgive, and what they must not.
const A = '8f7c5a1e-3b2d-4c6e-9f10-2a3b4c5d6e7f';
const B = '01a2233d-f490-7659-9061-0a6f41de032a';
const C = 'c0ffee00-1111-4222-8333-444455556666';

describe('compare: noise is forgiven', () => {
  it('ids, timestamps, tokens and local ports in the same places', () => {
    const base = { id: A, createdAt: '2026-11-28T17:30:00.000Z', url: 'ws://localhost:42865/?ticket=74vGbUcyDdCYAsg8sGv1fb7zvvYUVng1a5bWQF81tEc', message: `Watcher ${A} not found` };
    const other = { id: B, createdAt: '2026-11-28T17:31:12.345Z', url: 'ws://localhost:34111/?ticket=l87h-A4tH9crVTplxymnAPEJMHL8RE3Z0WxtankFLJU', message: `Watcher ${B} not found` };
    expect(differences(base, other)).toEqual([]);
  });

  it('durations the service measured between its own clock readings, within seconds', () => {
    expect(differences({ durationSeconds: 33 }, { durationSeconds: 34 })).toEqual([]);
    expect(differences({ durationSeconds: 33 }, { durationSeconds: 120 })).toHaveLength(1);
  });

  it('the order of items that differ only by their ids', () => {
    expect(differences([{ id: A, name: 'a' }, { id: C, name: 'c' }], [{ id: B, name: 'c' }, { id: C, name: 'a' }])).toEqual([]);
  });

  it('clock readings under time keys, and headers that are transport or clock', () => {
    expect(differences({ exp: 1795887931, expiresAtMs: 1795887931000 }, { exp: 1795887991, expiresAtMs: 1795887990000 })).toEqual([]);
    const headers = (date: string) => new Headers({ date, 'content-type': 'application/json', etag: `"${date}"` });
    expect(headerDifferences(headers('Sat, 28 Nov 2026 17:30:03 GMT'), headers('Sat, 28 Nov 2026 17:31:03 GMT'))).toEqual([]);
  });
});

describe('compare: a real difference is reported', () => {
  it('a changed message, status field or count', () => {
    expect(differences({ message: 'Location x has no profile' }, { message: 'Location x has no stored profile' })).toHaveLength(1);
    expect(differences({ devices: 92 }, { devices: 91 })).toHaveLength(1);
    expect(differences({ a: 1 }, { a: 1, b: 2 })).toHaveLength(1);
  });

  it('durations and settings that end in Seconds are compared exactly', () => {
    expect(differences({ pendingSeconds: 0, repeatIntervalSeconds: 3600 }, { pendingSeconds: 900, repeatIntervalSeconds: 3000 })).toHaveLength(2);
  });

  it('an item that differs in more than ids, whatever the order, named by the field that differs', () => {
    const found = differences([{ id: A, name: 'a' }, { id: C, name: 'c' }], [{ id: C, name: 'c' }, { id: B, name: 'b' }]);
    expect(found).toEqual([{ at: '$ (as a set)[0].name', base: 'a', other: 'b' }]);
  });

  it('an id that stands for one record on one side and for two on the other', () => {
    const ids = new IdMap();
    const pairs: IdPair[] = [];
    differences({ id: A }, { id: B }, '$', '', pairs);
    expect(ids.check(pairs)).toEqual([]);
    const later: IdPair[] = [];
    differences({ watcherId: A }, { watcherId: C }, '$', '', later);
    expect(ids.check(later)).toHaveLength(1);
  });

  it('an alarm id naming another watcher than before (an id inside a text)', () => {
    const ids = new IdMap();
    const pairs: IdPair[] = [];
    differences({ watcherId: A, alarm: `${A}:VD000002` }, { watcherId: B, alarm: `${C}:VD000002` }, '$', '', pairs);
    expect(ids.check(pairs)).toHaveLength(1);
  });

  it('CSV rows that differ in more than noise', () => {
    expect(textDifferences('id,name\n1,a', 'id,name\n1,b')).toHaveLength(1);
    expect(textDifferences(`id,at\n${A},2026-11-28T17:30:00Z`, `id,at\n${B},2026-11-28T17:32:00Z`)).toEqual([]);
  });
});
