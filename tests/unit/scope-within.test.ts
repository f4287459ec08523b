import { describe, expect, it } from 'vitest';
import { silenceWithinScope } from '#lib/alarms/pure/silences';
import type { AccessScope } from '#lib/shared/access';
import { areaWithinScope, locationNamedInScope, regionNamedInScope, scopeWithinScope } from '#lib/shared/scopeWithin';
import { targets } from '#lib/watchers/conditions';
import { conditionsOutside, watcherWithinScope } from '#lib/watchers/scope';
import type { Condition } from '#lib/watchers/types';

const emea: AccessScope = [{ region: 'EMEA' }];
const austin: AccessScope = [{ region: 'AMER', location: 'Austin' }];
const mixed: AccessScope = [{ region: 'EMEA' }, { region: 'AMER', location: 'Austin' }];

describe('areaWithinScope', () => {
  it('puts every area, the whole fleet too, within the unscoped', () => {
    expect(areaWithinScope([], {})).toBe(true);
    expect(areaWithinScope([], { region: 'APAC', location: 'Tokyo' })).toBe(true);
  });

  it('puts a region and each of its locations within a scope holding the region whole', () => {
    expect(areaWithinScope(emea, { region: 'EMEA' })).toBe(true);
    expect(areaWithinScope(emea, { region: 'EMEA', location: 'London' })).toBe(true);
  });

  it('puts only the named location within a scope holding one location of a region', () => {
    expect(areaWithinScope(austin, { region: 'AMER', location: 'Austin' })).toBe(true);
    expect(areaWithinScope(austin, { region: 'AMER', location: 'Boston' })).toBe(false);
    expect(areaWithinScope(austin, { region: 'AMER' })).toBe(false);
  });

  it('puts neither another region, the whole fleet, nor a location without its region within a narrowed scope', () => {
    expect(areaWithinScope(emea, { region: 'APAC' })).toBe(false);
    expect(areaWithinScope(emea, {})).toBe(false);
    expect(areaWithinScope(austin, { location: 'Austin' })).toBe(false);
  });

  it('compares names exactly, case included', () => {
    expect(areaWithinScope(emea, { region: 'emea' })).toBe(false);
  });
});

describe('scopeWithinScope', () => {
  it('puts every scope within the unscoped, and the unscoped within no narrowed scope', () => {
    expect(scopeWithinScope(mixed, [])).toBe(true);
    expect(scopeWithinScope([], [])).toBe(true);
    expect(scopeWithinScope([], emea)).toBe(false);
  });

  it('needs every entry of the inner scope within the outer', () => {
    expect(scopeWithinScope([{ region: 'EMEA', location: 'London' }], emea)).toBe(true);
    expect(scopeWithinScope(austin, mixed)).toBe(true);
    expect(scopeWithinScope(mixed, emea)).toBe(false);
    expect(scopeWithinScope([{ region: 'AMER' }], austin)).toBe(false);
  });
});

describe('places a rule names', () => {
  it('accepts a region the scope holds whole or through one of its locations', () => {
    expect(regionNamedInScope(austin, 'AMER')).toBe(true);
    expect(regionNamedInScope(emea, 'EMEA')).toBe(true);
    expect(regionNamedInScope(emea, 'AMER')).toBe(false);
    expect(regionNamedInScope([], 'AMER')).toBe(true);
  });

  it('accepts any location name where the scope holds a region whole, else only its own locations', () => {
    expect(locationNamedInScope(emea, 'Austin')).toBe(true);
    expect(locationNamedInScope(austin, 'Austin')).toBe(true);
    expect(locationNamedInScope(austin, 'Boston')).toBe(false);
  });
});

describe('silenceWithinScope', () => {
  it('needs the matchers to pin a region of the scope, and a location where the scope holds only locations', () => {
    expect(silenceWithinScope({ matchers: { region: 'EMEA' } }, emea)).toBe(true);
    expect(silenceWithinScope({ matchers: { region: 'EMEA', location: 'London', room: 'A' } }, emea)).toBe(true);
    expect(silenceWithinScope({ matchers: { region: 'AMER', location: 'Austin' } }, mixed)).toBe(true);
    expect(silenceWithinScope({ matchers: { region: 'AMER' } }, mixed)).toBe(false);
    expect(silenceWithinScope({ matchers: { region: 'APAC' } }, emea)).toBe(false);
  });

  it('puts a silence that pins no region (a device, a watcher, a room) within no narrowed scope', () => {
    expect(silenceWithinScope({ matchers: { devicesn: 'SN-1' } }, emea)).toBe(false);
    expect(silenceWithinScope({ matchers: { watcherId: 'w1', location: 'London' } }, emea)).toBe(false);
    expect(silenceWithinScope({ matchers: { devicesn: 'SN-1' } }, [])).toBe(true);
  });
});

describe('watchers and scopes', () => {
  const condition = (element: Condition['element'], operator: Condition['operator'], value: string): Condition => ({ element, operator, value });

  it('names each condition that pins a region or location outside the scope, and no other', () => {
    const conditions = [
      condition('status.connected', '==', 'false'),
      condition('details.region', '==', 'EMEA'),
      condition('details.region', 'in', 'EMEA, APAC'),
      condition('details.location', '==', 'Boston'),
      condition('details.location', 'in', 'Austin'),
      condition('details.room', '==', 'Anywhere'),
    ];
    expect(conditionsOutside(austin, { conditions })).toEqual(['body.operations.conditions[1]', 'body.operations.conditions[2]', 'body.operations.conditions[3]']);
    expect(conditionsOutside(mixed, { conditions })).toEqual(['body.operations.conditions[2]']);
    expect(conditionsOutside([], { conditions })).toEqual([]);
  });

  it('lets "!=" and "contains" through: they pin no place, and the watcher raises only inside its scope anyway', () => {
    expect(conditionsOutside(emea, { conditions: [condition('details.region', '!=', 'APAC'), condition('details.location', 'contains', 'o')] })).toEqual([]);
  });

  it('reaches a watcher whose scope lies within the caller\'s; an unscoped watcher only from the unscoped', () => {
    expect(watcherWithinScope({ scope: [{ region: 'EMEA' }] }, mixed)).toBe(true);
    expect(watcherWithinScope({ scope: [{ region: 'EMEA' }] }, austin)).toBe(false);
    expect(watcherWithinScope({}, emea)).toBe(false);
    expect(watcherWithinScope({}, [])).toBe(true);
    expect(watcherWithinScope({ scope: [...austin] }, [])).toBe(true);
  });

  const device = (region: string, location: string) => ({ deviceid: `id-${region}-${location}`, devicesn: `SN-${region}-${location}`, details: { region, location, room: 'A' } });

  it('targets, for a scoped watcher of all devices, every device inside its scope and none outside', () => {
    const watcher = { allDevices: true, devicesId: [], scope: [...mixed] };
    expect(targets(watcher, device('EMEA', 'London'))).toBe(true);
    expect(targets(watcher, device('AMER', 'Austin'))).toBe(true);
    expect(targets(watcher, device('AMER', 'Boston'))).toBe(false);
    expect(targets(watcher, device('APAC', 'Tokyo'))).toBe(false);
  });

  it('targets a listed device only while it lies inside the scope', () => {
    const inside = device('EMEA', 'London');
    const outside = device('APAC', 'Tokyo');
    const watcher = { allDevices: false, devicesId: [inside.devicesn, outside.deviceid], scope: [...emea] };
    expect(targets(watcher, inside)).toBe(true);
    expect(targets(watcher, outside)).toBe(false);
    expect(targets({ ...watcher, scope: undefined }, outside)).toBe(true);
  });
});
