import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { Unauthorized } from '#lib/errors';
import { ACCESS_TOKEN_SECONDS, ALGORITHM, AUDIENCE, CLOCK_TOLERANCE_SECONDS, ISSUER, TOKEN_TYPE } from '#lib/auth/tokens';
import { verifyAccessToken } from '#lib/auth/verify';

/*
 * The token verifier checks tokens with node's own Ed25519 instead of jose (docs/adr/0501): it must
 * accept exactly the tokens jose's jwtVerify accepted with the options it was given, and answer
 * the same claims. Every token below goes through both.
 */
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const now = Date.now();
const nowSeconds = Math.floor(now / 1000);

/** The verifier as it was: jose's jwtVerify, then the same claim checks. */
const byJose = async (key: KeyObject, token: string): Promise<unknown> => {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      typ: TOKEN_TYPE,
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    });
    const { sub, jti, iat, exp, role, inc, knd } = payload;
    const text = (v: unknown) => typeof v === 'string' && v.length > 0;
    const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
    if (!text(sub) || !text(jti) || !text(role) || !num(iat) || !num(exp) || !text(inc)) return 'refused';
    if (!((iat as number) <= nowSeconds + CLOCK_TOLERANCE_SECONDS && (exp as number) - (iat as number) <= ACCESS_TOKEN_SECONDS)) return 'refused';
    if (knd !== undefined && knd !== 'service') return 'refused';
    return { sub, jti, iat, exp, role, inc, ...(knd === 'service' ? { kind: 'service' } : {}) };
  } catch (error) {
    if (error instanceof errors.JOSEError) return 'refused';
    return `threw ${String(error)}`;
  }
};

const ours = async (key: KeyObject, token: string): Promise<unknown> => {
  try {
    return await verifyAccessToken(key, token, now);
  } catch (error) {
    return error instanceof Unauthorized ? 'refused' : `threw ${String(error)}`;
  }
};

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64url');
const claims = { sub: 'alice', jti: 'j-1', iat: nowSeconds, exp: nowSeconds + 60, iss: ISSUER, aud: AUDIENCE, role: 'admin', inc: 'inc-1' };
const json = (value: unknown) => JSON.stringify(value);

/** A compact JWS of raw header and payload texts, signed with Ed25519 (`key`). */
const signed = (header: string, payload: string, key: KeyObject = privateKey) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
};
const head = (fields: Record<string, unknown> = {}) => json({ alg: 'EdDSA', typ: 'at+jwt', ...fields });
const body = (fields: Record<string, unknown> = {}) => json({ ...claims, ...fields });
const without = (name: keyof typeof claims) => json(Object.fromEntries(Object.entries(claims).filter(([k]) => k !== name)));
const valid = signed(head(), body());
const [h, p, s] = valid.split('.') as [string, string, string];

const tokens: [string, string][] = [
  ['valid', valid],
  ['valid, service', signed(head(), body({ knd: 'service' }))],
  ['knd other', signed(head(), body({ knd: 'user' }))],
  ['other key', signed(head(), body(), other.privateKey)],
  ['typ upper case', signed(head({ typ: 'AT+JWT' }), body())],
  ['typ application/at+jwt', signed(head({ typ: 'application/at+jwt' }), body())],
  ['typ Application/AT+JWT', signed(head({ typ: 'Application/AT+JWT' }), body())],
  ['typ jwt', signed(head({ typ: 'JWT' }), body())],
  ['typ missing', signed(json({ alg: 'EdDSA' }), body())],
  ['typ number', signed(head({ typ: 1 }), body())],
  ['alg Ed25519', signed(head({ alg: 'Ed25519' }), body())],
  ['alg none', signed(head({ alg: 'none' }), body())],
  ['alg empty', signed(head({ alg: '' }), body())],
  ['alg missing', signed(json({ typ: 'at+jwt' }), body())],
  ['kid in header', signed(head({ kid: 'k1' }), body())],
  ['crit b64 true', signed(head({ crit: ['b64'], b64: true }), body())],
  ['crit b64 twice', signed(head({ crit: ['b64', 'b64'], b64: true }), body())],
  ['crit b64 false', signed(head({ crit: ['b64'], b64: false }), body())],
  ['crit b64 text', signed(head({ crit: ['b64'], b64: 'true' }), body())],
  ['crit b64 missing', signed(head({ crit: ['b64'] }), body())],
  ['crit empty', signed(head({ crit: [] }), body())],
  ['crit unknown', signed(head({ crit: ['exp'], exp: 1 }), body())],
  ['crit not a list', signed(head({ crit: 'b64', b64: true }), body())],
  ['crit empty name', signed(head({ crit: [''] }), body())],
  ['b64 false without crit', signed(head({ b64: false }), body())],
  ['header a list', signed(json(['EdDSA']), body())],
  ['header null', signed('null', body())],
  ['header not JSON', signed('{alg', body())],
  ['header with BOM', signed(`\uFEFF${head()}`, body())],
  ['payload a list', signed(head(), json([claims]))],
  ['payload with BOM', signed(head(), `\uFEFF${body()}`)],
  ['payload not UTF-8', `${h}.${b64(Buffer.from([0xc3, 0x28]))}.${s}`],
  ['payload not JSON', signed(head(), 'claims')],
  ...(Object.keys(claims) as (keyof typeof claims)[]).map((name): [string, string] => [`${name} missing`, signed(head(), without(name))]),
  ['iss other', signed(head(), body({ iss: 'someone' }))],
  ['aud list holding ours', signed(head(), body({ aud: ['x', AUDIENCE] }))],
  ['aud list without ours', signed(head(), body({ aud: ['x'] }))],
  ['aud number', signed(head(), body({ aud: 1 }))],
  ['iat text', signed(head(), body({ iat: String(nowSeconds) }))],
  ['iat ahead within tolerance', signed(head(), body({ iat: nowSeconds + CLOCK_TOLERANCE_SECONDS - 1 }))],
  ['iat ahead beyond tolerance', signed(head(), body({ iat: nowSeconds + CLOCK_TOLERANCE_SECONDS + 1, exp: nowSeconds + 120 }))],
  ['nbf ahead within tolerance', signed(head(), body({ nbf: nowSeconds + CLOCK_TOLERANCE_SECONDS }))],
  ['nbf ahead beyond tolerance', signed(head(), body({ nbf: nowSeconds + CLOCK_TOLERANCE_SECONDS + 1 }))],
  ['nbf text', signed(head(), body({ nbf: 'now' }))],
  ['exp just within tolerance', signed(head(), body({ iat: nowSeconds - 60, exp: nowSeconds - CLOCK_TOLERANCE_SECONDS + 1 }))],
  ['exp at tolerance', signed(head(), body({ iat: nowSeconds - 60, exp: nowSeconds - CLOCK_TOLERANCE_SECONDS }))],
  ['exp text', signed(head(), body({ exp: 'later' }))],
  ['exp infinite', signed(head(), body().replace(/"exp":\d+/, '"exp":1e400'))],
  ['lifetime too long', signed(head(), body({ exp: nowSeconds + ACCESS_TOKEN_SECONDS + 1 }))],
  ['role missing', signed(head(), body({ role: undefined }))],
  ['inc a number', signed(head(), body({ inc: 1 }))],
  ['two segments', `${h}.${p}`],
  ['four segments', `${valid}.x`],
  ['empty', ''],
  ['signature cut', `${h}.${p}.${s.slice(0, -2)}`],
  ['signature padded', `${valid}==`],
  ['signature in base64', `${h}.${p}.${Buffer.from(s, 'base64url').toString('base64')}`],
  ['signature with a tilde', `${h}.${p}.${s.slice(0, -1)}~`],
  ['header padded', `${h}=.${p}.${s}`],
  ['payload with plus', `${h}.${p.replace(/-/g, '+')}.${s}`],
  ['payload altered', `${h}.${b64(body({ role: 'root' }))}.${s}`],
];

describe('the token verifier over node:crypto', () => {
  it.each(tokens)('answers as jose did: %s', async (_case, token) => {
    const expected = await byJose(publicKey, token);
    expect(await ours(publicKey, token)).toEqual(expected);
  });

  it('accepts the valid token and refuses a forged one (the corpus is not all refusals)', async () => {
    expect(await ours(publicKey, valid)).toMatchObject({ sub: 'alice', role: 'admin', inc: 'inc-1' });
    expect(await ours(publicKey, tokens[3]![1])).toBe('refused');
  });
});
