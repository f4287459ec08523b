/**
 * A watcher and a scoped principal (DESIGN §5): the watcher stores its creator's scope and raises
 * only inside it (lib/watchers/conditions.ts `targets`); a scoped principal reaches only watchers
 * whose scope lies within its own, and its conditions may not name a place outside. Pure: the
 * rule itself is lib/shared/scopeWithin.ts.
 */
import type { AccessScope } from '#lib/shared/access';
import { locationNamedInAccessScope, regionNamedInAccessScope, accessScopeWithin } from '#lib/shared/scopeWithin';
import { inCandidates } from './conditions';
import type { Condition, Operations, WatcherRecord } from './types';

/** The place names a condition pins: `==` one, `in` its candidates; `!=` and `contains` pin none. */
const namedBy = (condition: Condition): string[] => {
  if (condition.operator === '==') return [condition.value];
  if (condition.operator === 'in') return inCandidates(condition.value);
  return [];
};

/** Whether a condition names only places the scope reaches (rooms lie in every location: always). */
const conditionWithin = (scope: AccessScope, condition: Condition): boolean => {
  if (condition.element === 'details.region') return namedBy(condition).every((region) => regionNamedInAccessScope(scope, region));
  if (condition.element === 'details.location') return namedBy(condition).every((location) => locationNamedInAccessScope(scope, location));
  return true;
};

/** The fields (`body.operations.conditions[i]`) of the conditions that name a region or location outside the scope. */
export const conditionsOutside = (scope: AccessScope, operations: Pick<Operations, 'conditions'>): string[] =>
  operations.conditions.flatMap((condition, i) => (conditionWithin(scope, condition) ? [] : [`body.operations.conditions[${i}]`]));

/** Whether a principal of `scope` reaches the watcher: its stored scope lies within (an unscoped watcher: only the unscoped). */
export const watcherWithinAccessScope = (watcher: Pick<WatcherRecord, 'scope'>, scope: AccessScope): boolean =>
  accessScopeWithin(watcher.scope ?? [], scope);
