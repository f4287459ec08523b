import type { Principal } from '#lib/http/index';
import { BUILT_IN_PERMISSIONS } from '#lib/shared/access';
import { describe, expect, it } from 'vitest';
import { lockedForSeconds, lockoutPolicy } from '#lib/access/lockout';
import { mayDeleteUser, mayReadUser } from '#lib/access/policy';
import { BUILT_IN_ROLES, roleIdOf } from '#lib/access/roles';
import { Conflict, Forbidden } from '#lib/shared/errors';

const principal = (username: string, role: 'admin' | 'viewer'): Principal => ({
  kind: 'user',
  username,
  role,
  permissions: BUILT_IN_PERMISSIONS[role],
  scope: [],
  tokenId: 't',
  expiresAt: 0,
});

describe('sign-in lockout', () => {
  const now = 1_000_000;

  it('defaults to 5 failures in 15 minutes', () => {
    expect(lockoutPolicy({})).toEqual({ maxFailures: 5, windowSeconds: 900 });
  });

  it('lets sign-in proceed below the limit', () => {
    expect(lockedForSeconds(undefined, 5, now)).toBe(0);
    expect(lockedForSeconds({ count: 4, expiresAt: now + 100 }, 5, now)).toBe(0);
  });

  it('locks until the window ends once the limit is reached', () => {
    expect(lockedForSeconds({ count: 5, expiresAt: now + 100 }, 5, now)).toBe(100);
  });

  it('forgets failures once the window has ended', () => {
    expect(lockedForSeconds({ count: 50, expiresAt: now }, 5, now)).toBe(0);
  });
});

describe('roles', () => {
  it('has the built-in admin, viewer and operator', () => {
    expect(BUILT_IN_ROLES.map((r) => r.roleid)).toEqual(['admin', 'viewer', 'operator']);
  });

  it.each([
    ['Ops Team', 'ops-team'],
    ['  Night_shift.2 ', 'night-shift-2'],
    ['ADMIN', 'admin'],
  ])('derives the role id of %j as %j', (name, id) => {
    expect(roleIdOf(name)).toBe(id);
  });
});

describe('who may do what', () => {
  it('lets an admin read anyone and a user read only themselves', () => {
    expect(() => mayReadUser(principal('root', 'admin'), 'bob')).not.toThrow();
    expect(() => mayReadUser(principal('bob', 'viewer'), 'bob')).not.toThrow();
    expect(() => mayReadUser(principal('bob', 'viewer'), 'alice')).toThrow(Forbidden);
  });

  it('never lets an admin delete their own account', () => {
    expect(() => mayDeleteUser(principal('root', 'admin'), 'root')).toThrow(Conflict);
    expect(() => mayDeleteUser(principal('root', 'admin'), 'bob')).not.toThrow();
  });
});
