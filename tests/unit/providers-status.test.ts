import { describe, expect, it } from 'vitest';
import { backingOff, pagingBackoffMs, removalVerdict, sanitise, staleSince } from '#lib/inventory/pure/providerStatus';
import { MAX_PAGES, PAGE_FLOOR, pageBudget } from '#lib/inventory/provider/paging';
import { DEFAULT_REGIONS, parseNameMap, regionOfCountry } from '#lib/inventory/provider/regions';
import { configuredNames } from '#lib/inventory/provider/index';

const now = '2026-05-04T10:00:00.000Z';
const serials = (n: number) => Array.from({ length: n }, (_, i) => `SN${i}`);

describe('removal guard', () => {
  it('removes at once what stays within SYNC_MAX_REMOVAL_PERCENT', () => {
    expect(removalVerdict({ removing: serials(20), known: 100, maxPercent: 20, pending: undefined, now })).toEqual({ apply: true });
  });

  it('holds more, and applies the same removals on the third sync in a row', () => {
    const first = removalVerdict({ removing: serials(21), known: 100, maxPercent: 20, pending: undefined, now });
    expect(first).toMatchObject({ apply: false, held: { count: 21, seen: 1, since: now } });
    const second = removalVerdict({ removing: serials(21), known: 100, maxPercent: 20, pending: first.held, now: 'later' });
    expect(second).toMatchObject({ apply: false, held: { seen: 2, since: now } });
    expect(removalVerdict({ removing: serials(21), known: 100, maxPercent: 20, pending: second.held, now })).toEqual({ apply: true });
  });

  it('starts counting again when the removals differ', () => {
    const first = removalVerdict({ removing: serials(30), known: 100, maxPercent: 20, pending: undefined, now });
    const other = removalVerdict({ removing: serials(31), known: 100, maxPercent: 20, pending: first.held, now });
    expect(other.held?.seen).toBe(1);
  });

  it('holds removals of a provider with no devices known (all of them would go)', () => {
    expect(removalVerdict({ removing: serials(3), known: 0, maxPercent: 20, pending: undefined, now }).apply).toBe(false);
  });
});

describe('provider settings', () => {
  it('groups countries by continent by default, a configured map first', () => {
    expect(['US', 'MX', 'ES', 'ZA', 'JP', 'AU'].map((code) => regionOfCountry(new Map(), code))).toEqual(['Americas', 'LATAM', 'EMEA', 'EMEA', 'APAC', 'APAC']);
    expect(regionOfCountry(parseNameMap('WEBEX_REGION_MAP', '{"ES":"Iberia"}'), 'es')).toBe('Iberia');
    expect(regionOfCountry(new Map(), undefined)).toBe('Unknown');
    expect(DEFAULT_REGIONS.size).toBeGreaterThan(200);
    expect(() => parseNameMap('WEBEX_REGION_MAP', '["ES"]')).toThrow(/WEBEX_REGION_MAP/);
  });

  it('reads DEVICE_PROVIDERS, else DEVICE_PROVIDER, else none (never a simulated fallback)', () => {
    expect(configuredNames({ DEVICE_PROVIDERS: 'webex, zoom' })).toEqual(['webex', 'zoom']);
    expect(configuredNames({ DEVICE_PROVIDER: 'http' })).toEqual(['http']);
    expect(configuredNames({})).toEqual([]);
    expect(() => configuredNames({ DEVICE_PROVIDERS: 'webex,teams' })).toThrow(/teams/);
  });

  it('a provider failing since T is stale from T + PROVIDER_STALE_MINUTES', () => {
    const t = Date.parse(now);
    expect(staleSince(now, 30, t + 29 * 60_000)).toBeUndefined();
    expect(staleSince(now, 30, t + 31 * 60_000)).toBe('2026-05-04T10:30:00.000Z');
  });

  it('cuts anything shaped like a credential out of a stored error', () => {
    expect(sanitise('refused Bearer abc.def and access_token=xyz&x=1')).toBe('refused Bearer [redacted] and access_token=[redacted]&x=1');
  });
});

describe('paging bounds', () => {
  it('give a listing twice the pages the fleet held fills, at least PAGE_FLOOR, doubled per bound failure in a row, at most MAX_PAGES', () => {
    expect(pageBudget(1000, {})).toBe(PAGE_FLOOR);
    expect(pageBudget(1000, { fleet: 49_000 })).toBe(PAGE_FLOOR);
    expect(pageBudget(1000, { fleet: 150_001 })).toBe(302);
    expect(pageBudget(30, { fleet: 4_500, pagingFailures: 2 })).toBe(1_200);
    expect(pageBudget(1, { fleet: 1_000_000 })).toBe(MAX_PAGES);
    expect(pageBudget(1000, { pagingFailures: 60 })).toBe(MAX_PAGES);
  });

  it('back a provider off 5 minutes after its first bound failure, doubling, at most 4 hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => pagingBackoffMs(n) / 60_000)).toEqual([5, 10, 20, 40, 80, 160, 240, 240]);
    expect(backingOff({ backoffUntil: now }, Date.parse(now) - 1)).toBe(true);
    expect(backingOff({ backoffUntil: now }, Date.parse(now))).toBe(false);
    expect(backingOff({}, Date.parse(now))).toBe(false);
  });
});
