import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

/*
 * Attacks on access and the audit log (issue 26), found by probing as a hostile client: each test
 * failed before the fix its commit carries.
 */
const keyPair = generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
Object.assign(process.env, { JWT_PRIVATE_KEY: keyPair.privateKey, JWT_PUBLIC_KEY: keyPair.publicKey, PASSWORD_SCRYPT_LOG_N: '12' });

const { registerService } = await import('#lib/auth/serviceAccounts');
const { UNKNOWN_SERVICE } = await import('#lib/auth/serviceToken');
const audit = await import('#lib/db/audit');
const { handler: serviceToken } = await import('../../functions/services/token');
const { jsonEvent, lambdaContext } = await import('../support/events');

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
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
