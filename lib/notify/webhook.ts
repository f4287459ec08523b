import { targetProblem, type Lookup } from './address';
import type { AttemptOutcome } from './retry';
import { signatureOf } from './signature';

/** A webhook receiver gets this long to answer (issue 16 item 4). */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookRequest {
  url: string;
  body: string;
  deliveryId: string;
  secret: string;
  timeoutMs: number;
  allowLocal: boolean;
  lookup?: Lookup;
}

const retryAfter = (header: string | null): number | undefined => {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/**
 * One POST of a signed body. The target is checked again first (DNS can change since the
 * channel was written); redirects are not followed (a 3xx fails: it could lead anywhere).
 * Never throws: every way it can end is an outcome.
 */
export const postWebhook = async (request: WebhookRequest): Promise<AttemptOutcome> => {
  const problem = await targetProblem(request.url, request.allowLocal, request.lookup);
  if (problem) return { kind: 'refused', reason: problem };
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'device-monitoring-webhooks/1',
        'x-delivery-id': request.deliveryId,
        'x-signature-256': signatureOf(request.secret, request.body),
      },
      body: request.body,
    });
    await response.body?.cancel();
    const after = retryAfter(response.headers.get('retry-after'));
    return { kind: 'answered', status: response.status, ...(after === undefined ? {} : { retryAfterSeconds: after }) };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return { kind: 'timeout' };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { kind: 'unreachable', reason: cause };
  }
};
