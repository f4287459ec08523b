import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserEntity } from '#lib/access/entities';
import { migrate } from '../../scripts/migrate';
import { capturedLines } from '../support/logs';
import '../support/tokenKeys';
import { handler as signinRoute } from '../../functions/sessions/signin';
import { handler as createUserRoute } from '../../functions/users/create';
import { handler as changeOwnPasswordRoute } from '../../functions/users/changeOwnPassword';
import { changeOwnPassword, createUser, setPassword } from '#lib/access/accounts';
import { deleteRole, removeUser } from '#lib/access/membership';
import { signIn } from '#lib/access/signin';
import { secret } from '#lib/adapters/secrets';
import { authorize } from '#lib/access/authenticate';
import { roleCatalog as roles } from '#lib/access/roles';
import { revokedTokens } from '#lib/access/repository/sessions';
import { services } from '#lib/access/repository/services';
import * as users from '#lib/access/repository/users';
import { logger } from '#lib/shared/log';
import { doc, tableName } from '#lib/store/client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized } from '#lib/shared/errors';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const PASSWORD = 'integration-password-1';
const newUser = async (role = 'viewer') => {
  const username = unique('user');
  await createUser({ username, email: `${username}@example.com`, name: 'Test User', role }, PASSWORD);
  return username;
};
const bearer = (token: string) => apiEvent({ headers: { authorization: `Bearer ${token}` } });

afterEach(() => vi.restoreAllMocks());

describe('users', () => {
  it('creates a user whose record never shows the hash', async () => {
    const username = await newUser();
    const user = await users.get(username);
    expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'name', 'role', 'updatedAt', 'username']);
    expect((await users.list()).map((u) => u.username)).toContain(username);
  });

  it('refuses a second user with the same name', async () => {
    const username = await newUser();
    await expect(createUser({ username, email: 'x@example.com', name: 'X', role: 'viewer' }, PASSWORD)).rejects.toBeInstanceOf(Conflict);
  });

  it('refuses a user with an unknown role, naming the field', async () => {
    const error = await createUser({ username: unique('u'), email: 'x@example.com', name: 'X', role: 'no-such-role' }, PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as InstanceType<typeof Invalid>).details?.[0]?.field).toBe('body.role');
  });

  it.each([
    ['creating a user', (username: string) => createUser({ username: unique('weak'), email: 'w@example.com', name: 'W', role: 'viewer' }, 'password1234'), 'body.password'],
    ['changing the own password', (username: string) => changeOwnPassword(username, PASSWORD, `x-${username}-x`), 'body.newPassword'],
    ['an admin setting it', (username: string) => setPassword(username, 'aaaaaaaaaaaa'), 'body.newPassword'],
  ])('refuses a weak password when %s, naming the field and the rule, and stores nothing', async (_case, act, field) => {
    const username = await newUser();
    const error = await act(username).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as InstanceType<typeof Invalid>).details?.[0]?.field).toBe(field);
    expect((error as Error).message).toMatch(new RegExp(`^${field.replace('.', '\\.')} (is a commonly used password|must not contain the username|must use at least 5 different characters)$`));
    await expect(signIn(secret, username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('answers NotFound for an unknown user', async () => {
    await expect(users.get('nobody-here')).rejects.toBeInstanceOf(NotFound);
    await expect(removeUser('nobody-here')).rejects.toBeInstanceOf(NotFound);
    await expect(setPassword('nobody-here', 'another-password')).rejects.toBeInstanceOf(NotFound);
  });
});

describe('sign-in', () => {
  it('answers a bearer token for the right password', async () => {
    const username = await newUser();
    const answer = await signIn(secret, username, PASSWORD);
    expect(answer).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, user: { username, role: 'viewer' } });
    expect((await authorize('signed-in')(bearer(answer.accessToken))).username).toBe(username);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const username = await newUser();
    const wrong = await signIn(secret, username, 'wrong-password-xx').catch((e: unknown) => e);
    const unknown = await signIn(secret, unique('ghost'), PASSWORD).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(Unauthorized);
    expect(unknown).toBeInstanceOf(Unauthorized);
    expect((wrong as Error).message).toBe('Invalid username or password');
    expect((unknown as Error).message).toBe((wrong as Error).message);
  });

  it('locks a username for the rest of the window after 5 failures, even for the right password', async () => {
    const username = await newUser();
    for (let i = 0; i < 5; i++) await expect(signIn(secret, username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    const locked = await signIn(secret, username, PASSWORD).catch((e: unknown) => e);
    expect(locked).toBeInstanceOf(TooManyRequests);
    expect(Number((locked as InstanceType<typeof TooManyRequests>).headers?.['retry-after'])).toBeGreaterThan(800);
  });
});

describe('token checks', () => {
  it('refuses a revoked token', async () => {
    const { accessToken } = await signIn(secret, await newUser(), PASSWORD);
    const principal = await authorize('signed-in')(bearer(accessToken));
    await revokedTokens.revoke(principal.tokenId!, principal.expiresAt!);
    await expect(authorize('signed-in')(bearer(accessToken))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses tokens issued before a password change, and accepts a new sign-in right after', async () => {
    const username = await newUser();
    const before = (await signIn(secret, username, PASSWORD)).accessToken;
    await changeOwnPassword(username, PASSWORD, 'changed-password-1');
    await expect(authorize('signed-in')(bearer(before))).rejects.toBeInstanceOf(Unauthorized);
    const after = (await signIn(secret, username, 'changed-password-1')).accessToken;
    expect((await authorize('signed-in')(bearer(after))).username).toBe(username);
  });

  it('refuses a password change with the wrong current password', async () => {
    const username = await newUser();
    await expect(changeOwnPassword(username, 'not-the-password', 'changed-password-1')).rejects.toBeInstanceOf(Unauthorized);
    await expect(signIn(secret, username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('refuses the token of a deleted user', async () => {
    const username = await newUser();
    const { accessToken } = await signIn(secret, username, PASSWORD);
    await removeUser(username);
    await expect(authorize('signed-in')(bearer(accessToken))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses the token of a deleted user after the same username is created again, even as admin', async () => {
    const username = await newUser('viewer');
    const { accessToken } = await signIn(secret, username, PASSWORD);
    await removeUser(username);
    await createUser({ username, email: `${username}@example.com`, name: 'Reborn', role: 'admin' }, PASSWORD);
    await expect(authorize('signed-in')(bearer(accessToken))).rejects.toBeInstanceOf(Unauthorized);
    await expect(authorize('admin')(bearer(accessToken))).rejects.toBeInstanceOf(Unauthorized);
    const fresh = (await signIn(secret, username, PASSWORD)).accessToken;
    expect((await authorize('admin')(bearer(fresh))).role).toBe('admin');
  });

  it('refuses a token signed in with the old password while an admin set a new one', async () => {
    const username = await newUser();
    const before = (await signIn(secret, username, PASSWORD)).accessToken;
    await setPassword(username, 'set-by-the-admin-1');
    await expect(authorize('signed-in')(bearer(before))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('gives a user record from before incarnations one (npm run migrate); its tokens then work', async () => {
    const username = await newUser();
    await doc.send(new UpdateCommand({ TableName: tableName(), Key: UserEntity.key(username), UpdateExpression: 'REMOVE incarnation' }));
    await migrate();
    const { accessToken } = await signIn(secret, username, PASSWORD);
    expect((await users.credentials(username))?.incarnation).toMatch(/^[0-9a-f-]{36}$/);
    expect((await authorize('signed-in')(bearer(accessToken))).username).toBe(username);
  });

  it('answers Forbidden to a valid non-admin token where admin is required', async () => {
    const { accessToken } = await signIn(secret, await newUser(), PASSWORD);
    await expect(authorize('admin')(bearer(accessToken))).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('roles', () => {
  it('lists the built-ins first and finds them without any stored item', async () => {
    const list = await roles.list();
    expect(list.slice(0, 2).map((r) => r.roleid)).toEqual(['admin', 'viewer']);
    expect((await roles.get('viewer')).builtIn).toBe(true);
  });

  it('refuses to delete a role a user still holds, then deletes it once free', async () => {
    const roleid = unique('role');
    await roles.create({ roleid, name: roleid, description: '', permissions: ['read'] });
    const username = await newUser(roleid);
    await expect(deleteRole(roleid)).rejects.toBeInstanceOf(Conflict);
    await removeUser(username);
    await deleteRole(roleid);
    await expect(roles.get(roleid)).rejects.toBeInstanceOf(NotFound);
  });

  it('refuses to delete or recreate a built-in role', async () => {
    await expect(deleteRole('admin')).rejects.toBeInstanceOf(Conflict);
    await expect(roles.create({ roleid: 'viewer', name: 'Viewer', description: '', permissions: [] })).rejects.toBeInstanceOf(Conflict);
  });
});

describe('services', () => {
  it('updates only the fields sent', async () => {
    const created = await services.create({ name: 'svc', url: 'https://a.example' });
    expect(created).toMatchObject({ active: true, description: '' });
    const updated = await services.update(created.id, { active: false });
    expect(updated).toEqual({ ...created, active: false, updatedAt: updated.updatedAt });
  });

  it('answers NotFound for an unknown id without creating it', async () => {
    const id = randomUUID();
    await expect(services.update(id, { name: 'x' })).rejects.toBeInstanceOf(NotFound);
    await expect(services.get(id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('logs of the account handlers', () => {
  it('never carry a password, a hash or a token', async () => {
    const lines = capturedLines(logger);
    const adminName = unique('admin');
    await createUser({ username: adminName, email: `${adminName}@example.com`, name: 'Admin', role: 'admin' }, 'log-test-admin-pass');
    const post = (body: unknown, token?: string) =>
      jsonEvent(body, { headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });

    const adminAnswer = await signinRoute(post({ username: adminName, password: 'log-test-admin-pass' }), lambdaContext());
    const token = JSON.parse(adminAnswer.body).accessToken as string;
    const username = unique('logged');
    await createUserRoute(post({ username, password: 'logged-user-password', email: 'l@example.com', name: 'L', role: 'viewer' }, token), lambdaContext());
    await signinRoute(post({ username, password: 'a-wrong-password!' }), lambdaContext());
    await changeOwnPasswordRoute(post({ currentPassword: 'a-wrong-password!', newPassword: 'never-set-password' }, token), lambdaContext());
    await changeOwnPasswordRoute(post({ currentPassword: 'log-test-admin-pass', newPassword: 'new-admin-password' }, token), lambdaContext());

    expect(lines.length).toBeGreaterThanOrEqual(5);
    const hash = (await users.credentials(username))!.passwordHash;
    for (const secret of ['log-test-admin-pass', 'logged-user-password', 'a-wrong-password!', 'never-set-password', 'new-admin-password', hash, 'scrypt$', token]) {
      expect(lines.join('\n')).not.toContain(secret);
    }
  });
});
