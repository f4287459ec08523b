/**
 * Whether what a scoped principal writes lies within its scope, so a scoped principal cannot reach past its places (DESIGN §5).
 * One rule for the three writers: acknowledging an alarm (its device's place), a silence (its
 * matchers), a watcher (its stored scope and the places its conditions name). Pure.
 *
 * An area is the whole fleet (no region), one region, or one location of a region. Location
 * names repeat across regions, so a location without its region is no narrower than the fleet.
 */
import { isUnscoped, type AccessScope } from './access';

/** What a write reaches: a region, a location of it, or (neither) the whole fleet. */
interface Area {
  region?: string | undefined;
  location?: string | undefined;
}

/**
 * Whether an area lies within the scope. Every area lies within the unscoped; in a narrowed
 * scope a region lies within only when the scope holds it whole, a location when the scope holds
 * its region whole or that location of it, and the whole fleet never.
 */
export const areaWithinAccessScope = (scope: AccessScope, area: Area): boolean =>
  isUnscoped(scope) ||
  (area.region !== undefined && scope.some((entry) => entry.region === area.region && (entry.location === undefined || entry.location === area.location)));

/**
 * Whether one scope lies within another: each entry of `inner` within `outer`. The unscoped
 * (the whole fleet) lies within the unscoped only.
 */
export const accessScopeWithin = (inner: AccessScope, outer: AccessScope): boolean =>
  isUnscoped(outer) || (!isUnscoped(inner) && inner.every((entry) => areaWithinAccessScope(outer, entry)));

/** Whether a region a rule names is one the scope reaches, whole or through one of its locations. */
export const regionNamedInAccessScope = (scope: AccessScope, region: string): boolean =>
  isUnscoped(scope) || scope.some((entry) => entry.region === region);

/**
 * Whether a location a rule names (without its region) may lie in the scope: a region the scope
 * holds whole may hold a location of any name; otherwise one of its location entries bears it.
 */
export const locationNamedInAccessScope = (scope: AccessScope, location: string): boolean =>
  isUnscoped(scope) || scope.some((entry) => entry.location === undefined || entry.location === location);
