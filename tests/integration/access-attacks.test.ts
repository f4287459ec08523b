import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import '../support/tokenKeys';
import { registerService, rotateSecret } from '#lib/access/serviceAccounts';
import { exchangeServiceSecret } from '#lib/access/serviceToken';
import { UNKNOWN_PRINCIPAL as UNKNOWN_SERVICE } from '#lib/access/audit/outcome';
import { secret as secretSource } from '#lib/adapters/secrets';
import { createWatcher } from '#lib/watchers/write';
import { handler as dashboards } from '../../functions/alarmConfigLists/dashboards';
import { handler as alarmServices } from '../../functions/alarmConfigLists/services';
import { handler as alarmTypes } from '../../functions/alarmConfigLists/types';
import { watcherInput } from '../support/fleet';
import { handler as me } from '../../functions/users/me';
import { handler as changeOwnPassword } from '../../functions/users/changeOwnPassword';
import { SERVICE_HAS_NO_ACCOUNT } from '#lib/access/policy';
import { createUser } from '#lib/access/accounts';
import { signIn } from '#lib/access/signin';
import { roleCatalog } from '#lib/access/roles';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { handler as createInterval } from '../../functions/intervals/create';
import { handler as listAudit } from '../../functions/audit/list';
import { handler as alarmHistory } from '../../functions/alarms/history';
import { handler as createSilence } from '../../functions/silences/create';
import * as audit from '#lib/access/audit/repository';
import { handler as serviceToken } from '../../functions/services/token';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

/*
 * Attacks on access and the audit log (issue 26), found by probing as a hostile client: each test
 * failed before the fix its commit carries.
 */

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
type Scope = { region: string; location?: string }[];
/** A bearer header of a registered service holding `role` within `scope`. */
const serviceBearer = async (role: string, scope?: Scope) => {
  const service = await registerService({ name: unique('svc'), url: 'https://svc.example.com/hook', role, ...(scope ? { scope } : {}) });
  return `Bearer ${(await exchangeServiceSecret(secretSource, service.id, service.secret)).accessToken}`;
};
const tokenRequest = (body: unknown) =>
  jsonEvent(body, { httpMethod: 'POST', resource: '/api/authService/service/token', requestContext: { requestId: randomUUID() } as never });

describe('the service token exchange in the audit log', () => {
  it('records an id that names no service as (unknown): a secret sent in the id field never reaches the log', async () => {
    const service = await registerService({ name: unique('svc'), url: 'https://svc.example.com/hook' });
    // the two fields swapped, as a client mixing them up sends them
    const res = await serviceToken(tokenRequest({ id: service.secret, secret: service.id }), lambdaContext());
    expect(res.statusCode).toBe(401);
    const refused = (await audit.query({ event: 'service-token-refused', actor: UNKNOWN_SERVICE }, 100)).items;
    expect(refused.length).toBeGreaterThan(0);
    const everything = (await audit.query({ event: 'service-token-refused' }, 1000)).items;
    expect(JSON.stringify(everything)).not.toContain(service.secret);
  });

  it('still records a known service refused (wrong secret) under its id', async () => {
    const service = await registerService({ name: unique('svc'), url: 'https://svc.example.com/hook' });
    const res = await serviceToken(tokenRequest({ id: service.id, secret: 'not-the-secret' }), lambdaContext());
    expect(res.statusCode).toBe(401);
    const refused = (await audit.query({ event: 'service-token-refused', targetId: service.id }, 10)).items;
    expect(refused.map((record) => record.actor)).toEqual([{ kind: 'service', id: service.id }]);
  });
});

describe('the alarm configuration lists (GET /filter/dashboards, alarmservices, alarmtypes) of a scoped caller', () => {
  it("name only the watchers it reaches, never another region's nor an unscoped watcher's", async () => {
    const [mine, other] = [unique('R-MINE'), unique('R-OTHER')];
    const named = (tag: string) => ({ dashboard: `dash-${tag}`, service: `svc-${tag}`, type: `type-${tag}` });
    const [inside, outside, everywhere] = [unique('inside'), unique('outside'), unique('unscoped')];
    await createWatcher(watcherInput(named(inside)), [{ region: mine }]);
    await createWatcher(watcherInput(named(outside)), [{ region: other }]);
    await createWatcher(watcherInput(named(everywhere)));
    const read = async (authorization: string) => {
      const answers = await Promise.all(
        [dashboards, alarmServices, alarmTypes].map((handler) => handler(apiEvent({ httpMethod: 'GET', headers: { authorization } }), lambdaContext())),
      );
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      return answers.map((res) => JSON.parse(res.body) as string[]);
    };
    const [scopedDashboards, scopedServices, scopedTypes] = await read(await serviceBearer('viewer', [{ region: mine }]));
    expect(scopedDashboards).toContain(`dash-${inside}`);
    expect(scopedServices).toContain(`svc-${inside}`);
    expect(scopedTypes).toContain(`type-${inside}`);
    const seen = JSON.stringify([scopedDashboards, scopedServices, scopedTypes]);
    expect(seen).not.toContain(outside);
    expect(seen).not.toContain(everywhere);
    // the unscoped read every watcher's, as before scopes
    const unscoped = JSON.stringify(await read(await serviceBearer('viewer')));
    for (const tag of [inside, outside, everywhere]) expect(unscoped).toContain(`dash-${tag}`);
  });
});

describe("a registered service's token on a user's own-account routes", () => {
  it('is 403 on GET auth/me and POST auth/me/password, never taken for a user named as the service id', async () => {
    const service = await registerService({ name: unique('svc'), url: 'https://svc.example.com/hook', role: 'admin' });
    const authorization = `Bearer ${(await exchangeServiceSecret(secretSource, service.id, service.secret)).accessToken}`;
    // a user whose name is the service's id (an admin may create one: ids are listed to every signed-in caller)
    const password = 'correct horse battery staple 7';
    await createUser({ username: service.id, email: 'twin@example.com', name: 'Twin', role: 'viewer' }, password);
    const read = await me(apiEvent({ httpMethod: 'GET', headers: { authorization } }), lambdaContext());
    expect(read.statusCode).toBe(403);
    expect(JSON.parse(read.body)).toEqual({ message: SERVICE_HAS_NO_ACCOUNT });
    // six wrong guesses through the service's token: none may spend the user's budget
    for (let i = 0; i < 6; i++) {
      const change = await changeOwnPassword(
        jsonEvent({ currentPassword: `wrong guess ${i}`, newPassword: 'another long passphrase 8' }, { headers: { authorization, 'Content-Type': 'application/json' } }),
        lambdaContext(),
      );
      expect(change.statusCode).toBe(403);
    }
    expect((await signIn(secretSource, service.id, password)).user.username).toBe(service.id);
  });
});

describe('Idempotency-Key: the first result is answered again to its own caller only', () => {
  const intervals = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, 30]));
  /** POST /intervals with `key`, as the API key `apiKeyId` sent it, with a bearer token when given. */
  const create = async (key: string, apiKeyId: string, authorization?: string) => {
    const event = jsonEvent(intervals, {
      httpMethod: 'POST',
      resource: '/intervals',
      requestContext: { requestId: randomUUID(), identity: { apiKeyId } } as never,
    });
    event.headers = { ...event.headers, 'idempotency-key': key, ...(authorization ? { authorization } : {}) };
    const res = await createInterval(event, lambdaContext());
    expect(res.statusCode).toBe(200);
    return { id: (JSON.parse(res.body) as { id: number }).id, replayed: res.headers?.['idempotent-replayed'] === 'true' };
  };

  it('another application (API key) sending the same key and body creates its own record', async () => {
    const key = randomUUID();
    const first = await create(key, 'app-a');
    expect(await create(key, 'app-a')).toEqual({ ...first, replayed: true });
    const other = await create(key, 'app-b');
    expect(other.replayed).toBe(false);
    expect(other.id).not.toBe(first.id);
  });

  it("a user named api-key is not the API key: it never gets the API key's result", async () => {
    const roleid = unique('config');
    await roleCatalog.create({ roleid, name: roleid, description: '', permissions: ['config:write'] });
    const password = 'correct horse battery staple 9';
    const username = 'api-key';
    await createUser({ username, email: 'namesake@example.com', name: 'Namesake', role: roleid }, password).catch(() => undefined); // one per store
    const authorization = `Bearer ${(await signIn(secretSource, username, password)).accessToken}`;
    const key = randomUUID();
    const byKey = await create(key, 'app-a');
    const byUser = await create(key, 'app-a', authorization);
    expect(byUser.replayed).toBe(false);
    expect(byUser.id).not.toBe(byKey.id);
  });
});

describe('a leap second (RFC 3339 allows 23:59:60, JavaScript does not)', () => {
  const LEAP = '2026-06-30T23:59:60Z';
  it('is refused as invalid input naming the field, never a 500, wherever a date-time is read', async () => {
    const authorization = await serviceBearer('admin');
    const get = (handler: typeof listAudit, queryStringParameters: Record<string, string>) =>
      handler(apiEvent({ httpMethod: 'GET', headers: { authorization }, queryStringParameters }), lambdaContext());
    const audit = await get(listAudit, { from: LEAP });
    const history = await get(alarmHistory, { to: LEAP });
    const silence = await createSilence(
      jsonEvent({ matchers: { region: 'EMEA' }, endsAt: LEAP, comment: 'leap' }, { headers: { authorization, 'Content-Type': 'application/json' } }),
      lambdaContext(),
    );
    expect([audit.statusCode, history.statusCode, silence.statusCode]).toEqual([422, 422, 400]);
    expect(audit.body).toContain('queryStringParameters.from');
    expect(history.body).toContain('queryStringParameters.to');
    expect(silence.body).toContain('body.endsAt');
  });
});

describe('parallel rotations of one service (docs/guide/rules/access.md "Parallel rotations of one service: the last one stored wins")', () => {
  it('answer a secret each; exactly one of them, the last stored, exchanges for a token, the first secret none', async () => {
    const service = await registerService({ name: unique('svc'), url: 'https://svc.example.com/hook' });
    const rotated = await Promise.all(Array.from({ length: 6 }, () => rotateSecret(service.id)));
    const works = async (secret: string) =>
      exchangeServiceSecret(secretSource, service.id, secret).then(
        () => true,
        () => false,
      );
    const outcomes = await Promise.all([service.secret, ...rotated.map((answer) => answer.secret)].map(works));
    expect(outcomes[0]).toBe(false);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });
});
