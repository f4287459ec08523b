import { describe, expect, it } from 'vitest';
import { configWithin } from '#lib/config/filterConfigs/scope';
import { failureSeenBy, WITHHELD_FAILURE } from '#lib/shared/access';

// Reads that were not narrowed by a scope (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope"): filter configurations name places; vendor failures may.

const config = { id: 7, region: 'EMEA', locations: [{ locationName: 'London', rooms: [] }, { locationName: 'Paris', rooms: [] }] };

describe('a filter configuration as a scoped caller reads it', () => {
  it('is whole to an unscoped caller and to one scoped to its region', () => {
    expect(configWithin(config, [])).toEqual(config);
    expect(configWithin(config, [{ region: 'EMEA' }])).toEqual(config);
  });

  it('keeps only the locations of a location-scoped caller, and is absent to one scoped elsewhere', () => {
    expect(configWithin(config, [{ region: 'EMEA', location: 'London' }])).toEqual({ ...config, locations: [{ locationName: 'London', rooms: [] }] });
    expect(configWithin(config, [{ region: 'EMEA', location: 'Berlin' }])).toBeUndefined();
    expect(configWithin(config, [{ region: 'APAC' }])).toBeUndefined();
  });
});

describe("a provider's last failure as a scoped caller reads it", () => {
  const failure = { at: '2026-11-28T10:00:00.000Z', message: 'device SN-1 in EMEA / London / Room 3: 500 from api.example.com', status: 500, trackingId: 't-1' };

  it('is whole to an unscoped caller', () => {
    expect(failureSeenBy(failure, [])).toEqual(failure);
  });

  it("keeps when and the vendor's status, not the vendor's words, for a scoped caller", () => {
    expect(failureSeenBy(failure, [{ region: 'APAC' }])).toEqual({ at: failure.at, message: WITHHELD_FAILURE, status: 500 });
    expect(failureSeenBy({ at: failure.at, message: 'timeout' }, [{ region: 'APAC' }])).toEqual({ at: failure.at, message: WITHHELD_FAILURE });
  });
});
