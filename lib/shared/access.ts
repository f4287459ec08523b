/**
 * Who may do what, where (DESIGN §5): the fixed permission vocabulary, the built-in roles'
 * permissions, and scopes. Pure: contracts, the authorizer and the handlers share it.
 */

/** Every permission a role may hold; anything else is refused (400) when a role is written. */
export const PERMISSIONS = [
  'fleet:read',
  'alarms:ack',
  'silences:write',
  'watchers:write',
  'channels:write',
  'config:write',
  'admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

/** Channels, config and administration act on the whole fleet: a scoped principal never holds them (403). */
export const UNSCOPED_ONLY: readonly Permission[] = ['channels:write', 'config:write', 'admin'];

/**
 * What a route needs: a permission; `signed-in` (a bearer token of any principal: me, logout,
 * own password); `public` (the API key only, in every mode: sign-in, service token exchange).
 */
export type Requirement = Permission | 'signed-in' | 'public';

/** The permissions of the built-in roles, by role id. */
export const BUILT_IN_PERMISSIONS = {
  admin: [...PERMISSIONS],
  operator: ['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write'],
  viewer: ['fleet:read'],
} as const satisfies Record<string, readonly Permission[]>;

/** The API key alone (ACCESS_MODE=key): every permission but `admin`, unscoped. */
export const API_KEY_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((permission) => permission !== 'admin');

/** One entry of a scope: a whole region, or one location of a region. */
export interface AccessScopeEntry {
  region: string;
  location?: string;
}

/** A principal's scope: empty means unscoped (the whole fleet). */
export type AccessScope = readonly AccessScopeEntry[];

export const isUnscoped = (scope: AccessScope): boolean => scope.length === 0;

/** Whether a place (region, location) lies inside a scope; every place lies in the empty (unscoped) one. */
export const placeInAccessScope = (scope: AccessScope, place: { region: string; location: string }): boolean =>
  scope.length === 0 || scope.some((entry) => entry.region === place.region && (entry.location === undefined || entry.location === place.location));

/**
 * A scope as stored and answered: entries deduplicated, a location entry dropped where its
 * whole region is in the scope too, sorted by region then location.
 */
export const normalizeAccessScope = (scope: readonly AccessScopeEntry[] | undefined): AccessScopeEntry[] => {
  const entries = scope ?? [];
  const regions = new Set(entries.filter((entry) => entry.location === undefined).map((entry) => entry.region));
  const seen = new Set<string>();
  const out: AccessScopeEntry[] = [];
  for (const entry of entries) {
    if (entry.location !== undefined && regions.has(entry.region)) continue;
    const key = JSON.stringify([entry.region, entry.location ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry.location === undefined ? { region: entry.region } : { region: entry.region, location: entry.location });
  }
  return out.sort((a, b) => a.region.localeCompare(b.region) || (a.location ?? '').localeCompare(b.location ?? ''));
};

/**
 * What a read asks for by place: each name narrows, an absent one means any (a device query's
 * `all`). Structurally a partial place (lib/devices/types), so every place filter fits.
 */
export interface PlaceFilter {
  region?: string;
  location?: string;
  room?: string;
}

/**
 * A filter within a scope, as the narrower filters a scoped read asks for instead: disjoint
 * (the entries of a normalized scope are, and narrowing keeps them so), and together exactly
 * the places the filter and the scope share, so counts over them add up without counting a
 * room twice. Unscoped: the filter itself. Scoped, where they do not meet: none. O(scope).
 */
export const narrowToAccessScope = (filter: PlaceFilter, scope: AccessScope): PlaceFilter[] => {
  if (isUnscoped(scope)) return [filter];
  const narrowed: PlaceFilter[] = [];
  for (const entry of normalizeAccessScope(scope)) {
    if (filter.region !== undefined && filter.region !== entry.region) continue;
    if (entry.location !== undefined && filter.location !== undefined && filter.location !== entry.location) continue;
    const location = entry.location ?? filter.location;
    narrowed.push({
      region: entry.region,
      ...(location === undefined ? {} : { location }),
      ...(filter.room === undefined ? {} : { room: filter.room }),
    });
  }
  return narrowed;
};

/** What a caller scoped to part of the fleet reads instead of a vendor's failure text. */
export const WITHHELD_FAILURE = 'withheld from callers scoped to part of the fleet';

/**
 * A vendor failure as `scope` reads it (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope"): an unscoped caller whole; a scoped one
 * when it happened and the vendor's status only, since the vendor's words may name devices,
 * rooms or hosts anywhere in the fleet.
 */
export const failureSeenBy = <F extends { at: string; message: string; status?: number }>(failure: F, scope: AccessScope): F | { at: string; message: string; status?: number } =>
  isUnscoped(scope) ? failure : { at: failure.at, message: WITHHELD_FAILURE, ...(failure.status === undefined ? {} : { status: failure.status }) };
