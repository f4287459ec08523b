import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { stageSecret } from '#lib/store/cursor';
import * as keys from '#lib/http/idempotencyKeys';
import { HttpError } from '#lib/shared/errors';
import type { IdempotencyClaim, IdempotencyStore, IdempotentReplay, IdempotentRequest } from '#lib/http/contract';
import type { HttpResult } from '#lib/http/respond';

/*
 * Where idempotent creates keep their first result (lib/http/idempotency.ts asks;
 * docs/adr/0161-idempotent-creates.md). The table holds no key and no readable answer: the item is named by a
 * hash of (route, caller, key), the request by an HMAC of what it asked, and the answer (which may
 * carry a secret shown once: a webhook's, a service's) is sealed with AES-256-GCM under a key
 * derived from the stage's secret and the client's Idempotency-Key.
 */

/** How long a key answers its first result. */
const KEY_TTL_SECONDS = 24 * 60 * 60;
/** How long a claim is its request's: longer than any route's timeout (29 s), then a retry may run again. */
const CLAIM_LEASE_MS = 60_000;

const recordId = ({ route, caller, key }: IdempotentRequest) => createHash('sha256').update(`${route}\n${caller}\n${key}`).digest('hex');
const fingerprintOf = ({ route, request }: IdempotentRequest) =>
  createHmac('sha256', stageSecret()).update(`idempotency-request\n${route}\n${JSON.stringify(request)}`).digest('base64url');
const sealKey = (id: string, key: string) => createHmac('sha256', stageSecret()).update(`idempotency-result\n${id}\n${key}`).digest();

const seal = (id: string, key: string, result: HttpResult): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(id, key), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(result), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
};

const open = (id: string, key: string, sealed: string): HttpResult => {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(id, key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as HttpResult;
};

const reused = () =>
  new HttpError(422, 'This Idempotency-Key was used for a different request; send a new key for a new request', {
    details: [{ field: 'headers.idempotency-key', message: 'Idempotency-Key was already used with another body, path or query' }],
  });
const inProgress = () =>
  new HttpError(409, 'A request with this Idempotency-Key is still being processed; retry shortly', { headers: { 'retry-after': '1' } });

const begin = async (request: IdempotentRequest): Promise<IdempotencyClaim | IdempotentReplay> => {
  const id = recordId(request);
  const fingerprint = fingerprintOf(request);
  const token = randomUUID();
  const expiresAt = Math.floor(Date.now() / 1000) + KEY_TTL_SECONDS;
  // a record that vanishes between the failed claim and the read (expired, released) is claimed again
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await keys.claim(id, { fingerprint, token, state: 'pending', leaseUntil: Date.now() + CLAIM_LEASE_MS }, expiresAt)) {
      return {
        finish: async (result, options) => {
          if (result.statusCode >= 200 && result.statusCode < 300) await keys.complete(id, token, seal(id, request.key, result), options?.auditPending === true);
          else await keys.release(id, token);
        },
        abandon: () => keys.release(id, token),
      };
    }
    const held = await keys.read(id);
    if (!held) continue;
    if (held.fingerprint !== fingerprint) throw reused();
    if (held.state === 'done' && held.result) {
      const replay = open(id, request.key, held.result);
      return held.auditPending ? { replay, auditPending: true, audited: () => keys.audited(id) } : { replay };
    }
    throw inProgress();
  }
  throw inProgress();
};

export const idempotency: IdempotencyStore = { begin };
