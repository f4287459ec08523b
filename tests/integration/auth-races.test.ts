import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CreatedRoleEntity } from '#lib/access/entities';
import '../support/tokenKeys';
import { changeOwnPassword, createUser } from '#lib/access/accounts';
import { deleteRole, removeUser } from '#lib/access/membership';
import { ensureFirstAdmin, signIn } from '#lib/access/signin';
import { secret } from '#lib/adapters/secrets';
import { dynamo, doc, tableName } from '#lib/store/client';
import { roleCatalog as roles } from '#lib/access/roles';
import { ensureTable } from '#lib/store/definition';
import * as users from '#lib/access/repository/users';
import { TooManyRequests, Unauthorized } from '#lib/shared/errors';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { registerService } from '#lib/access/serviceAccounts';
import { exchangeServiceSecret } from '#lib/access/serviceToken';
import { principalOfToken } from '#lib/access/authenticate';

// Issue 12: the account group under real parallel calls against the embedded store.

const PASSWORD = 'Quiet-harbour-lantern-47';
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const newUser = async (role = 'viewer') => {
  const username = unique('user');
  await createUser({ username, email: `${username}@example.com`, name: 'Race', role }, PASSWORD);
  return username;
};
/** Settles every call and tells how each ended: 'ok', or the error's class name. */
const outcomes = async (calls: Promise<unknown>[]) =>
  (await Promise.allSettled(calls)).map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).constructor.name));
const tally = (results: string[]) => results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {});

describe('guess budget of sign-in (item 2)', () => {
  it('evaluates exactly 5 of 25 parallel wrong passwords; the other 20 are 429', async () => {
    const username = await newUser();
    const results = await outcomes(Array.from({ length: 25 }, () => signIn(secret, username, 'wrong-password-xx')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 20 });
    await expect(signIn(secret, username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('a right password inside a parallel burst frees no slot for the wrong ones', async () => {
    const username = await newUser();
    const calls = Array.from({ length: 24 }, (_, i) => signIn(secret, username, i === 12 ? PASSWORD : 'wrong-password-xx'));
    const results = tally(await outcomes(calls));
    // wrong guesses keep their slots; the right one only gives back its own
    expect(results.Unauthorized ?? 0).toBeLessThanOrEqual(5);
    expect(results.TooManyRequests ?? 0).toBeGreaterThanOrEqual(18);
  });

  it('a right password neither clears the failures nor uses up the budget', async () => {
    const username = await newUser();
    for (let i = 0; i < 4; i++) await expect(signIn(secret, username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    await expect(signIn(secret, username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
    await expect(signIn(secret, username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
    await expect(signIn(secret, username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    await expect(signIn(secret, username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('counts guesses for unknown usernames the same way', async () => {
    const ghost = unique('ghost');
    const results = await outcomes(Array.from({ length: 12 }, () => signIn(secret, ghost, 'wrong-password-xx')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 7 });
  });
});

describe('guess budget of the own-password change (item 3)', () => {
  it('evaluates at most 5 of 20 parallel wrong current passwords; then even the right one is 429, and sign-in too', async () => {
    const username = await newUser();
    const results = await outcomes(Array.from({ length: 20 }, () => changeOwnPassword(username, 'wrong-password-xx', 'Brand-new-lantern-48')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 15 });
    await expect(changeOwnPassword(username, PASSWORD, 'Brand-new-lantern-48')).rejects.toBeInstanceOf(TooManyRequests);
    await expect(signIn(secret, username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('shares one budget with sign-in, sequentially too', async () => {
    const username = await newUser();
    for (let i = 0; i < 3; i++) await expect(signIn(secret, username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    for (let i = 0; i < 2; i++) {
      await expect(changeOwnPassword(username, 'wrong-password-xx', 'Brand-new-lantern-48')).rejects.toBeInstanceOf(Unauthorized);
    }
    await expect(changeOwnPassword(username, PASSWORD, 'Brand-new-lantern-48')).rejects.toBeInstanceOf(TooManyRequests);
  });
});

/** Runs `body` against a table of its own (a store that never had an admin), then goes back. */
const inFreshTable = async (body: () => Promise<void>) => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `test-${randomUUID()}`;
  try {
    await ensureTable(dynamo, tableName());
    await body();
  } finally {
    process.env.TABLE_NAME = previous;
  }
};
const storedAdmins = () => users.countWithRole('admin');

describe('at least one admin remains (item 4)', () => {
  it('two admins deleting each other in parallel: one is deleted, the other is 409, in each of 6 runs', async () => {
    for (let run = 0; run < 6; run++) {
      await inFreshTable(async () => {
        const [a, b] = [await newUser('admin'), await newUser('admin')];
        expect(tally(await outcomes([removeUser(a), removeUser(b)]))).toEqual({ ok: 1, Conflict: 1 });
        expect(await storedAdmins()).toBe(1);
      });
    }
  });

  it('deleting all of 6 admins in parallel deletes 5', async () => {
    await inFreshTable(async () => {
      const admins = await Promise.all(Array.from({ length: 6 }, () => newUser('admin')));
      expect(tally(await outcomes(admins.map((a) => removeUser(a))))).toEqual({ ok: 5, Conflict: 1 });
      expect(await storedAdmins()).toBe(1);
    });
  });

  it('two parallel deletes of the same admin delete it once and leave the count right', async () => {
    await inFreshTable(async () => {
      const [a, b, c] = [await newUser('admin'), await newUser('admin'), await newUser('admin')];
      expect(tally(await outcomes([removeUser(a), removeUser(a)]))).toEqual({ ok: 1, NotFound: 1 });
      await removeUser(b);
      await expect(removeUser(c)).rejects.toThrow('At least one admin must remain');
    });
  });

  it('admins created while others are deleted never let the last one go', async () => {
    await inFreshTable(async () => {
      const first = await newUser('admin');
      const results = await outcomes([removeUser(first), newUser('admin'), newUser('admin')]);
      expect(results.filter((r) => r !== 'ok' && r !== 'Conflict')).toEqual([]);
      expect(await storedAdmins()).toBeGreaterThanOrEqual(1);
    });
  });

  it('counts the admins of a store from before the count when first needed', async () => {
    await inFreshTable(async () => {
      // admins stored the way the code before the count did: no count item, no pending mark
      const hash = (await users.credentials(await newUser()))!.passwordHash;
      const [a, b] = [unique('old'), unique('old')];
      for (const username of [a, b]) await users.create({ username, email: `${username}@example.com`, name: 'Old', role: 'admin' }, hash);
      expect(tally(await outcomes([removeUser(a), removeUser(b)]))).toEqual({ ok: 1, Conflict: 1 });
    });
  });

  it('creates the configured first admin once, when the store has no admin at all', async () => {
    await inFreshTable(async () => {
      process.env.ADMIN_USERNAME = unique('first');
      process.env.ADMIN_PASSWORD = 'first-admin-lantern-42';
      expect(await ensureFirstAdmin(secret)).toBe('created');
      expect(await ensureFirstAdmin(secret)).toBe('exists');
      expect((await users.get(process.env.ADMIN_USERNAME)).role).toBe('admin');
    });
  });

  it('creates the first admin on its first sign-in when the store has no admin', async () => {
    await inFreshTable(async () => {
      process.env.ADMIN_USERNAME = unique('first');
      process.env.ADMIN_PASSWORD = 'lazy-admin-lantern-42';
      expect((await signIn(secret, process.env.ADMIN_USERNAME, 'lazy-admin-lantern-42')).user.role).toBe('admin');
    });
  });

  it('never creates the configured first admin again once it was deleted on purpose', async () => {
    await inFreshTable(async () => {
      const first = unique('first');
      Object.assign(process.env, { ADMIN_USERNAME: first, ADMIN_PASSWORD: 'startup-admin-lantern-42' });
      expect(await ensureFirstAdmin(secret)).toBe('created');
      await newUser('admin');
      await removeUser(first);
      await expect(signIn(secret, first, 'startup-admin-lantern-42')).rejects.toBeInstanceOf(Unauthorized);
      expect(await ensureFirstAdmin(secret)).toBe('exists');
      expect(await users.find(first)).toBeUndefined();
    });
  });
});

describe('a role a user holds is never deleted (item 5)', () => {
  const newRole = async () => {
    const roleid = unique('role');
    await roles.create({ roleid, name: roleid, description: '', permissions: [] });
    return roleid;
  };
  /** Whoever holds `roleid`, the role must still exist. */
  const consistent = async (roleid: string) => (await users.countWithRole(roleid)) === 0 || !!(await roles.find(roleid));

  it('creating users with a role while deleting it in parallel never leaves a user with a missing role (8 runs)', async () => {
    for (let run = 0; run < 8; run++) {
      const roleid = await newRole();
      const results = await outcomes([newUser(roleid), deleteRole(roleid), newUser(roleid)]);
      expect(results.filter((r) => !['ok', 'Conflict', 'Invalid'].includes(r))).toEqual([]);
      expect(await consistent(roleid)).toBe(true);
    }
  });

  it('a deleted holder frees the role; a failed creation does not hold it', async () => {
    const roleid = await newRole();
    const holder = await newUser(roleid);
    await expect(createUser({ username: holder, email: 'x@example.com', name: 'X', role: roleid }, PASSWORD)).rejects.toThrow('already exists');
    await expect(deleteRole(roleid)).rejects.toThrow('still assigned');
    await removeUser(holder);
    await deleteRole(roleid);
    await expect(roles.get(roleid)).rejects.toThrow('not found');
  });

  it('counts the holders of a role from before the count when first needed', async () => {
    const roleid = await newRole();
    await doc.send(new UpdateCommand({ TableName: tableName(), Key: CreatedRoleEntity.key(roleid), UpdateExpression: 'REMOVE holders' }));
    const hash = (await users.credentials(await newUser()))!.passwordHash;
    const old = unique('old');
    await users.create({ username: old, email: `${old}@example.com`, name: 'Old', role: roleid }, hash);
    await expect(deleteRole(roleid)).rejects.toThrow('still assigned');
    await removeUser(old);
    await deleteRole(roleid);
  });
});

describe('at least one unscoped admin remains (issue 26)', () => {
  const newAdmin = async (scope?: { region: string; location?: string }[]) => {
    const username = unique('admin');
    await createUser({ username, email: `${username}@example.com`, name: 'Race', role: 'admin', ...(scope ? { scope } : {}) }, PASSWORD);
    return username;
  };
  const unscopedAdmins = async () => (await users.list()).filter((user) => user.role === 'admin' && user.scope === undefined).length;

  it('the last unscoped admin and scoped admins deleted in parallel: the scoped ones go, the unscoped one is 409 (6 runs)', async () => {
    for (let run = 0; run < 6; run++) {
      await inFreshTable(async () => {
        const unscoped = await newAdmin();
        const scoped = await Promise.all([newAdmin([{ region: 'EMEA' }]), newAdmin([{ region: 'AMER', location: 'Austin' }]), newAdmin([{ region: 'APAC' }])]);
        const results = await outcomes([unscoped, ...scoped].map((username) => removeUser(username)));
        expect(results).toEqual(['Conflict', 'ok', 'ok', 'ok']);
        expect(await unscopedAdmins()).toBe(1);
      });
    }
  });

  it('two unscoped admins deleting each other while scoped admins are deleted: exactly one unscoped admin stays (6 runs)', async () => {
    for (let run = 0; run < 6; run++) {
      await inFreshTable(async () => {
        const [a, b] = [await newAdmin(), await newAdmin()];
        const scoped = await Promise.all([newAdmin([{ region: 'EMEA' }]), newAdmin([{ region: 'EMEA' }])]);
        const results = await outcomes([a, b, ...scoped].map((username) => removeUser(username)));
        expect(tally(results.slice(0, 2))).toEqual({ ok: 1, Conflict: 1 });
        expect(results.slice(2)).toEqual(['ok', 'ok']);
        expect(await unscopedAdmins()).toBe(1);
      });
    }
  });

  it('a scoped admin does not count: with it, the only unscoped admin is still the last one', async () => {
    await inFreshTable(async () => {
      const unscoped = await newAdmin();
      const scoped = await newAdmin([{ region: 'EMEA' }]);
      await expect(removeUser(unscoped)).rejects.toThrow('At least one admin must remain');
      await removeUser(scoped);
      expect(await users.find(scoped)).toBeUndefined();
    });
  });

  it('counts only the unscoped admins of a store from before the count when first needed', async () => {
    await inFreshTable(async () => {
      const hash = (await users.credentials(await newUser()))!.passwordHash;
      const [a, scoped] = [unique('old'), unique('old')];
      await users.create({ username: a, email: `${a}@example.com`, name: 'Old', role: 'admin' }, hash);
      await users.create({ username: scoped, email: `${scoped}@example.com`, name: 'Old', role: 'admin', scope: [{ region: 'EMEA' }] }, hash);
      expect(await outcomes([removeUser(a), removeUser(scoped)])).toEqual(['Conflict', 'ok']);
    });
  });
});

describe('a role changed while its holders act (issue 26)', () => {
  const OLD = ['fleet:read'];
  const NEW = ['fleet:read', 'alarms:ack'];

  it('every request of its users and services sees the old or the new permissions, never an error, and the next one after sees the last', async () => {
    const roleid = unique('role');
    await roles.create({ roleid, name: roleid, description: '', permissions: OLD });
    const username = await newUser(roleid);
    const userToken = (await signIn(secret, username, PASSWORD)).accessToken;
    const service = await registerService({ name: 'racer', url: 'https://racer.example', role: roleid });
    const serviceToken = (await exchangeServiceSecret(secret, service.id, service.secret)).accessToken;
    const tokens = [userToken, serviceToken];

    // four holders ask again and again for as long as the role keeps changing
    const seen: string[][] = [];
    let changing = true;
    const changes = (async () => {
      for (let i = 0; i < 24; i++) await roles.update(roleid, { permissions: i % 2 === 0 ? NEW : OLD });
      changing = false;
    })();
    const holder = async (token: string) => {
      do seen.push([...(await principalOfToken(`Bearer ${token}`)).permissions]);
      while (changing);
    };
    const results = await outcomes([changes, ...[...tokens, ...tokens].map(holder)]);
    expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);

    expect(seen.length).toBeGreaterThanOrEqual(8);
    for (const permissions of seen) expect([OLD, NEW]).toContainEqual(permissions);
    expect(new Set(seen.map(String)).size).toBe(2);
    await roles.update(roleid, { permissions: NEW });
    for (const token of tokens) expect((await principalOfToken(`Bearer ${token}`)).permissions).toEqual(NEW);
  });
});
