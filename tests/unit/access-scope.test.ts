import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inFilterScope } from '#lib/devices/deviceScope';
import { narrowToAccessScope, placeInAccessScope, type PlaceFilter, type AccessScopeEntry } from '#lib/shared/access';
import { withinCondition } from '#lib/store/within';

const EMEA = { region: 'EMEA' };
const austin = { region: 'AMER', location: 'Austin' };
const place = (region: string, location: string, room: string) => ({ region, location, room });

describe('narrowToAccessScope (a filter within a scope)', () => {
  it('an unscoped caller reads the filter itself', () => {
    expect(narrowToAccessScope({}, [])).toEqual([{}]);
    expect(narrowToAccessScope({ region: 'EMEA', room: 'Room 1' }, [])).toEqual([{ region: 'EMEA', room: 'Room 1' }]);
  });

  it('everything within a scope is each of its entries', () => {
    expect(narrowToAccessScope({}, [EMEA, austin])).toEqual([{ region: 'AMER', location: 'Austin' }, { region: 'EMEA' }]);
  });

  it('a filter narrower than an entry stays as narrow as it was', () => {
    expect(narrowToAccessScope({ region: 'EMEA', location: 'Berlin', room: 'Room 1' }, [EMEA])).toEqual([{ region: 'EMEA', location: 'Berlin', room: 'Room 1' }]);
    expect(narrowToAccessScope({ room: 'Room 1' }, [EMEA, austin])).toEqual([
      { region: 'AMER', location: 'Austin', room: 'Room 1' },
      { region: 'EMEA', room: 'Room 1' },
    ]);
  });

  it('a filter wider than an entry narrows to the entry', () => {
    expect(narrowToAccessScope({ region: 'AMER' }, [austin])).toEqual([{ region: 'AMER', location: 'Austin' }]);
    expect(narrowToAccessScope({ location: 'Austin' }, [austin, EMEA])).toEqual([{ region: 'AMER', location: 'Austin' }, { region: 'EMEA', location: 'Austin' }]);
  });

  it('a filter outside the scope narrows to nothing', () => {
    expect(narrowToAccessScope({ region: 'APAC' }, [EMEA, austin])).toEqual([]);
    expect(narrowToAccessScope({ region: 'AMER', location: 'Denver' }, [austin])).toEqual([]);
  });

  it('a location entry inside a region entry of the same scope adds nothing (no room is read twice)', () => {
    expect(narrowToAccessScope({}, [{ region: 'EMEA', location: 'Berlin' }, EMEA, EMEA])).toEqual([{ region: 'EMEA' }]);
  });

  it('the narrowed filters hold exactly the places both hold, each in one of them only', () => {
    const names = fc.constantFrom('A', 'B', 'C');
    const maybe = fc.option(names, { nil: undefined });
    const entry: fc.Arbitrary<AccessScopeEntry> = fc.record({ region: names, location: maybe }).map((e) => (e.location === undefined ? { region: e.region } : { region: e.region, location: e.location }));
    const filterOf: fc.Arbitrary<PlaceFilter> = fc.record({ region: maybe, location: maybe, room: maybe }).map((f) =>
      Object.fromEntries(Object.entries(f).filter(([, value]) => value !== undefined)),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), filterOf, names, names, names, (scope, filter, region, location, room) => {
        const where = place(region, location, room);
        const narrowed = narrowToAccessScope(filter, scope);
        const holding = narrowed.filter((part) => inFilterScope(part, where)).length;
        expect(holding).toBe(placeInAccessScope(scope, where) && inFilterScope(filter, where) ? 1 : 0);
        expect(narrowed.length).toBeLessThanOrEqual(scope.length);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('withinCondition (the same places as a FilterExpression term)', () => {
  it('one alternative per place, each naming only the names it fixes', () => {
    expect(withinCondition([{ region: 'EMEA' }, { region: 'AMER', location: 'Austin' }])).toEqual({
      expression: '(#wregion = :w0region OR (#wregion = :w1region AND #wlocation = :w1location))',
      names: { '#wregion': 'region', '#wlocation': 'location' },
      values: { ':w0region': 'EMEA', ':w1region': 'AMER', ':w1location': 'Austin' },
    });
  });

  it('no redundant parentheses, which DynamoDB refuses', () => {
    expect(withinCondition([{ region: 'EMEA' }])?.expression).toBe('#wregion = :w0region');
    expect(withinCondition([{ region: 'AMER', location: 'Austin' }])?.expression).toBe('#wregion = :w0region AND #wlocation = :w0location');
  });

  it('no term when some place fixes nothing (everything is in it)', () => {
    expect(withinCondition([{}])).toBeUndefined();
  });

  it('refuses to describe no place at all: a read of nothing must not reach the store', () => {
    expect(() => withinCondition([])).toThrow();
  });
});
