import { describe, expect, it } from 'vitest';
import { silenceWithinAccessScope } from '#lib/alarms/pure/silences';
import type { AccessScope } from '#lib/shared/access';
import { areaWithinAccessScope, locationNamedInAccessScope, regionNamedInAccessScope, accessScopeWithin } from '#lib/shared/scopeWithin';
import { targets } from '#lib/watchers/conditions';
import { conditionsOutside, watcherWithinAccessScope } from '#lib/watchers/scope';
import type { Condition } from '#lib/watchers/types';

const emea: AccessScope = [{ region: 'EMEA' }];
const austin: AccessScope = [{ region: 'AMER', location: 'Austin' }];
const mixed: AccessScope = [{ region: 'EMEA' }, { region: 'AMER', location: 'Austin' }];

describe('areaWithinAccessScope', () => {
  it('puts every area, the whole fleet too, within the unscoped', () => {
    expect(areaWithinAccessScope([], {})).toBe(true);
    expect(areaWithinAccessScope([], { region: 'APAC', location: 'Tokyo' })).toBe(true);
  });

  it('puts a region and each of its locations within a scope holding the region whole', () => {
    expect(areaWithinAccessScope(emea, { region: 'EMEA' })).toBe(true);
    expect(areaWithinAccessScope(emea, { region: 'EMEA', location: 'London' })).toBe(true);
  });

  it('puts only the named location within a scope holding one location of a region', () => {
    expect(areaWithinAccessScope(austin, { region: 'AMER', location: 'Austin' })).toBe(true);
    expect(areaWithinAccessScope(austin, { region: 'AMER', location: 'Boston' })).toBe(false);
    expect(areaWithinAccessScope(austin, { region: 'AMER' })).toBe(false);
  });

  it('puts neither another region, the whole fleet, nor a location without its region within a narrowed scope', () => {
    expect(areaWithinAccessScope(emea, { region: 'APAC' })).toBe(false);
    expect(areaWithinAccessScope(emea, {})).toBe(false);
    expect(areaWithinAccessScope(austin, { location: 'Austin' })).toBe(false);
  });

  it('compares names exactly, case included', () => {
    expect(areaWithinAccessScope(emea, { region: 'emea' })).toBe(false);
  });
});

describe('accessScopeWithin', () => {
  it('puts every scope within the unscoped, and the unscoped within no narrowed scope', () => {
    expect(accessScopeWithin(mixed, [])).toBe(true);
    expect(accessScopeWithin([], [])).toBe(true);
    expect(accessScopeWithin([], emea)).toBe(false);
  });

  it('needs every entry of the inner scope within the outer', () => {
    expect(accessScopeWithin([{ region: 'EMEA', location: 'London' }], emea)).toBe(true);
    expect(accessScopeWithin(austin, mixed)).toBe(true);
    expect(accessScopeWithin(mixed, emea)).toBe(false);
    expect(accessScopeWithin([{ region: 'AMER' }], austin)).toBe(false);
  });
});

describe('places a rule names', () => {
  it('accepts a region the scope holds whole or through one of its locations', () => {
    expect(regionNamedInAccessScope(austin, 'AMER')).toBe(true);
    expect(regionNamedInAccessScope(emea, 'EMEA')).toBe(true);
    expect(regionNamedInAccessScope(emea, 'AMER')).toBe(false);
    expect(regionNamedInAccessScope([], 'AMER')).toBe(true);
  });

  it('accepts any location name where the scope holds a region whole, else only its own locations', () => {
    expect(locationNamedInAccessScope(emea, 'Austin')).toBe(true);
    expect(locationNamedInAccessScope(austin, 'Austin')).toBe(true);
    expect(locationNamedInAccessScope(austin, 'Boston')).toBe(false);
  });
});

describe('silenceWithinAccessScope', () => {
  it('needs the matchers to pin a region of the scope, and a location where the scope holds only locations', () => {
    expect(silenceWithinAccessScope({ matchers: { region: 'EMEA' } }, emea)).toBe(true);
    expect(silenceWithinAccessScope({ matchers: { region: 'EMEA', location: 'London', room: 'A' } }, emea)).toBe(true);
    expect(silenceWithinAccessScope({ matchers: { region: 'AMER', location: 'Austin' } }, mixed)).toBe(true);
    expect(silenceWithinAccessScope({ matchers: { region: 'AMER' } }, mixed)).toBe(false);
    expect(silenceWithinAccessScope({ matchers: { region: 'APAC' } }, emea)).toBe(false);
  });

  it('puts a silence that pins no region (a device, a watcher, a room) within no narrowed scope', () => {
    expect(silenceWithinAccessScope({ matchers: { devicesn: 'SN-1' } }, emea)).toBe(false);
    expect(silenceWithinAccessScope({ matchers: { watcherId: 'w1', location: 'London' } }, emea)).toBe(false);
    expect(silenceWithinAccessScope({ matchers: { devicesn: 'SN-1' } }, [])).toBe(true);
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
    expect(watcherWithinAccessScope({ scope: [{ region: 'EMEA' }] }, mixed)).toBe(true);
    expect(watcherWithinAccessScope({ scope: [{ region: 'EMEA' }] }, austin)).toBe(false);
    expect(watcherWithinAccessScope({}, emea)).toBe(false);
    expect(watcherWithinAccessScope({}, [])).toBe(true);
    expect(watcherWithinAccessScope({ scope: [...austin] }, [])).toBe(true);
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
