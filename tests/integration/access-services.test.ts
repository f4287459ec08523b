import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceEntity } from '#lib/access/entities';
import { capturedLines } from '../support/logs';
import '../support/tokenKeys';
import { handler as createServiceRoute } from '../../functions/services/create';
import { handler as serviceTokenRoute } from '../../functions/services/token';
import { handler as rotateSecretRoute } from '../../functions/services/rotateSecret';
import { registerService, rotateSecret } from '#lib/access/serviceAccounts';
import { exchangeServiceSecret } from '#lib/access/serviceToken';
import { hashServiceSecret } from '#lib/access/serviceSecrets';
import { changeService, deleteRole, removeService } from '#lib/access/membership';
import { authorize, principalOfToken } from '#lib/access/authenticate';
import { roleCatalog as roles } from '#lib/access/roles';
import { secret as secretSource } from '#lib/adapters/secrets';
import { services } from '#lib/access/repository/services';
import { doc, tableName } from '#lib/store/client';
import { logger } from '#lib/shared/log';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '#lib/shared/errors';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

// Registered services as principals (DESIGN §5, issue 26 item 4), against the embedded store.

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const register = (fields: { role?: string; scope?: { region: string; location?: string }[]; active?: boolean } = {}) =>
  registerService({ name: unique('svc'), url: 'https://svc.example.com/hook', ...fields });
const tokenOf = async (id: string, secret: string) => (await exchangeServiceSecret(secretSource, id, secret)).accessToken;
const bearer = (token: string) => `Bearer ${token}`;
const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: unknown) => error);
const newRole = async (permissions: string[]) => {
  const roleid = unique('role');
  await roles.create({ roleid, name: roleid, description: '', permissions });
  return roleid;
};

afterEach(() => vi.restoreAllMocks());

describe('registering a service', () => {
  it('answers its secret once and stores only a SHA-256 hash of it', async () => {
    const service = await register();
    expect(service.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: ServiceEntity.key(service.id) }));
    expect(Item?.secretHash).toBe(hashServiceSecret(service.secret));
    expect(JSON.stringify(Item)).not.toContain(service.secret);
    expect(await services.get(service.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(await services.list())).not.toContain(service.secret);
  });

  it('defaults to the viewer role, unscoped; takes another role and a scope', async () => {
    expect(await register()).toMatchObject({ role: 'viewer', scope: [] });
    expect(await register({ role: 'operator', scope: [{ region: 'EMEA' }, { region: 'EMEA', location: 'Oslo' }] })).toMatchObject({
      role: 'operator',
      scope: [{ region: 'EMEA' }],
    });
  });

  it('refuses an unknown role, naming body.role, and stores nothing', async () => {
    const before = (await services.list()).length;
    const error = await refusal(register({ role: unique('none') }));
    expect(error).toBeInstanceOf(Invalid);
    expect((error as InstanceType<typeof Invalid>).details?.[0]?.field).toBe('body.role');
    expect((await services.list()).length).toBe(before);
  });
});

describe('the token exchange', () => {
  it("answers a token acting as the service, with its role's permissions and its scope", async () => {
    const service = await register({ role: 'operator', scope: [{ region: 'AMER', location: 'Austin' }] });
    const answer = await exchangeServiceSecret(secretSource, service.id, service.secret);
    expect(answer).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(await principalOfToken(bearer(answer.accessToken))).toMatchObject({
      kind: 'service',
      username: service.id,
      role: 'operator',
      permissions: ['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write'],
      scope: [{ region: 'AMER', location: 'Austin' }],
    });
  });

  it('refuses a wrong secret, an unknown id and an inactive service with the same 401', async () => {
    const service = await register();
    const inactive = await register({ active: false });
    const refusals = await Promise.all([
      refusal(exchangeServiceSecret(secretSource, service.id, inactive.secret)),
      refusal(exchangeServiceSecret(secretSource, randomUUID(), service.secret)),
      refusal(exchangeServiceSecret(secretSource, 'not-even-a-uuid', service.secret)),
      refusal(exchangeServiceSecret(secretSource, inactive.id, inactive.secret)),
    ]);
    for (const error of refusals) {
      expect(error).toBeInstanceOf(Unauthorized);
      expect((error as Error).message).toBe('Invalid service id or secret');
    }
  });

  it('refuses a service stored before secrets existed until it is rotated', async () => {
    const old = await services.create({ name: 'old', url: 'https://old.example' });
    expect(await refusal(exchangeServiceSecret(secretSource, old.id, ''))).toBeInstanceOf(Unauthorized);
    const { secret } = await rotateSecret(old.id);
    expect((await principalOfToken(bearer(await tokenOf(old.id, secret)))).username).toBe(old.id);
  });
});

describe('ending a service token', () => {
  it('rotating the secret refuses the old token and the old secret at once; the new secret works', async () => {
    const service = await register();
    const old = await tokenOf(service.id, service.secret);
    const rotated = await rotateSecret(service.id);
    expect(rotated.secret).not.toBe(service.secret);
    expect(await refusal(principalOfToken(bearer(old)))).toBeInstanceOf(Unauthorized);
    expect(await refusal(exchangeServiceSecret(secretSource, service.id, service.secret))).toBeInstanceOf(Unauthorized);
    expect((await principalOfToken(bearer(await tokenOf(service.id, rotated.secret)))).username).toBe(service.id);
  });

  it('deactivating refuses its tokens at once, and activating again does not revive them', async () => {
    const service = await register();
    const old = await tokenOf(service.id, service.secret);
    await changeService(service.id, { active: false });
    expect(await refusal(principalOfToken(bearer(old)))).toBeInstanceOf(Unauthorized);
    await changeService(service.id, { active: true });
    expect(await refusal(principalOfToken(bearer(old)))).toBeInstanceOf(Unauthorized);
    expect((await principalOfToken(bearer(await tokenOf(service.id, service.secret)))).username).toBe(service.id);
  });

  it('deleting refuses its tokens; rotating an unknown service is 404', async () => {
    const service = await register();
    const old = await tokenOf(service.id, service.secret);
    await removeService(service.id);
    expect(await refusal(principalOfToken(bearer(old)))).toBeInstanceOf(Unauthorized);
    expect(await refusal(rotateSecret(service.id))).toBeInstanceOf(NotFound);
    expect(await refusal(removeService(service.id))).toBeInstanceOf(NotFound);
  });
});

describe('role and scope of a service', () => {
  it('PUT changes them; the next request acts with them, on the same token', async () => {
    const service = await register({ role: 'viewer' });
    const token = await tokenOf(service.id, service.secret);
    const event = apiEvent({ headers: { authorization: bearer(token) } });
    expect(await refusal(authorize('alarms:ack')(event))).toBeInstanceOf(Forbidden);
    const changed = await changeService(service.id, { role: 'operator', scope: [{ region: 'EMEA' }] });
    expect(changed).toMatchObject({ role: 'operator', scope: [{ region: 'EMEA' }] });
    expect(await authorize('alarms:ack')(event)).toMatchObject({ role: 'operator', scope: [{ region: 'EMEA' }] });
  });

  it('a role a service holds is not deleted (409) until the service moves away or is deleted', async () => {
    const roleid = await newRole(['fleet:read']);
    const first = await register({ role: roleid });
    expect(await refusal(deleteRole(roleid))).toBeInstanceOf(Conflict);
    await changeService(first.id, { role: 'viewer' });
    const second = await register();
    await changeService(second.id, { role: roleid });
    expect(await refusal(deleteRole(roleid))).toBeInstanceOf(Conflict);
    await removeService(second.id);
    await deleteRole(roleid);
    expect(await refusal(roles.get(roleid))).toBeInstanceOf(NotFound);
  });

  it('PUT to an unknown role is 400 naming body.role and changes nothing', async () => {
    const service = await register({ role: 'operator' });
    const error = await refusal(changeService(service.id, { role: unique('none'), name: 'renamed' }));
    expect((error as InstanceType<typeof Invalid>).details?.[0]?.field).toBe('body.role');
    expect(await services.get(service.id)).toMatchObject({ role: 'operator', name: service.name });
  });

  it('moving services between two roles in parallel keeps both counts right', async () => {
    const [a, b] = [await newRole(['fleet:read']), await newRole(['fleet:read', 'alarms:ack'])];
    const moved = await Promise.all(Array.from({ length: 6 }, () => register({ role: a })));
    await Promise.all(moved.flatMap((service) => [changeService(service.id, { role: b }), changeService(service.id, { role: b })]));
    await deleteRole(a);
    expect(await refusal(deleteRole(b))).toBeInstanceOf(Conflict);
    await Promise.all(moved.map((service) => removeService(service.id)));
    await deleteRole(b);
  });
});

describe('logs of the service handlers', () => {
  it('never carry a client secret or a token', async () => {
    const lines = capturedLines(logger);
    // an unscoped admin service acts as the admin the registering routes need
    const admin = await register({ role: 'admin' });
    const headers = { 'Content-Type': 'application/json', Authorization: bearer(await tokenOf(admin.id, admin.secret)) };
    const answered = await createServiceRoute(jsonEvent({ name: 'logged', url: 'https://l.example' }, { headers }), lambdaContext());
    const created = JSON.parse(answered.body) as { id: string; secret: string };
    const exchanged = await serviceTokenRoute(jsonEvent({ id: created.id, secret: created.secret }), lambdaContext());
    const wrong = await serviceTokenRoute(jsonEvent({ id: created.id, secret: `${created.secret}-wrong` }), lambdaContext());
    const rotation = await rotateSecretRoute(apiEvent({ headers, pathParameters: { id: created.id } }), lambdaContext());
    const rotated = JSON.parse(rotation.body) as { secret: string };

    expect([answered.statusCode, exchanged.statusCode, wrong.statusCode, rotation.statusCode]).toEqual([201, 200, 401, 200]);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const secret of [admin.secret, created.secret, rotated.secret, (JSON.parse(exchanged.body) as { accessToken: string }).accessToken, 'sha256$']) {
      expect(lines.join('\n')).not.toContain(secret);
    }
  });
});
