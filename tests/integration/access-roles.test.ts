import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import '../support/tokenKeys';
import { createUser } from '#lib/access/accounts';
import { signIn } from '#lib/access/signin';
import { secret } from '#lib/adapters/secrets';
import { authorize, principalOfToken } from '#lib/access/authenticate';
import { roleCatalog as roles } from '#lib/access/roles';
import { Conflict, Forbidden, NotFound } from '#lib/shared/errors';
import { apiEvent } from '../support/events';

// Roles with real permissions (DESIGN §5, issue 26 item 2), against the embedded store.

const PASSWORD = 'Quiet-harbour-lantern-47';
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: unknown) => error);
const holderOf = async (permissions: string[]) => {
  const roleid = unique('role');
  await roles.create({ roleid, name: roleid, description: '', permissions });
  const username = unique('user');
  await createUser({ username, email: `${username}@example.com`, name: 'Holder', role: roleid }, PASSWORD);
  const { accessToken } = await signIn(secret, username, PASSWORD);
  return { roleid, event: apiEvent({ headers: { authorization: `Bearer ${accessToken}` } }) };
};

describe('changing a created role (PUT role/{roleid})', () => {
  it("takes effect on its holders' next request, on the tokens they already hold", async () => {
    const { roleid, event } = await holderOf(['fleet:read']);
    expect(await refusal(authorize('alarms:ack')(event))).toBeInstanceOf(Forbidden);
    await roles.update(roleid, { permissions: ['fleet:read', 'alarms:ack'] });
    expect((await authorize('alarms:ack')(event)).permissions).toEqual(['fleet:read', 'alarms:ack']);
    await roles.update(roleid, { permissions: [] });
    expect(await refusal(authorize('fleet:read')(event))).toBeInstanceOf(Forbidden);
  });

  it('changes only the fields sent and answers the role', async () => {
    const { roleid } = await holderOf(['fleet:read']);
    expect(await roles.update(roleid, { description: 'nights' })).toMatchObject({ roleid, description: 'nights', permissions: ['fleet:read'] });
    expect(await roles.update(roleid, { permissions: ['alarms:ack'] })).toMatchObject({ description: 'nights', permissions: ['alarms:ack'] });
  });

  it('refuses to change a built-in role (409) and an unknown one (404)', async () => {
    expect(await refusal(roles.update('operator', { permissions: ['admin'] }))).toBeInstanceOf(Conflict);
    expect(await refusal(roles.update(unique('none'), { description: 'x' }))).toBeInstanceOf(NotFound);
    expect((await roles.get('operator')).permissions).toEqual(['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write']);
  });

  it('lets a stored permission outside the vocabulary grant nothing', async () => {
    // as roles were stored before the vocabulary: free-form names
    const { event } = await holderOf(['read', 'accounts:manage', 'fleet:read']);
    expect((await principalOfToken(event.headers.authorization)).permissions).toEqual(['fleet:read']);
  });
});
