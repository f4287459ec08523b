import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { timeoutSignal } from '#lib/shared/timer';
import { urlProblem } from '../address';
import type { AttemptOutcome } from '../pure/retry';
import { guardedLookup, retryAfter, UnsafeTarget } from '../webhook';

/** The largest answer read from an instance: a lookup answers one record's few fields. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface InstanceRequest {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  /** JSON, or a form (`application/x-www-form-urlencoded`) when `form` is set. */
  body?: string;
  form?: boolean;
  timeoutMs: number;
  allowLocal: boolean;
}

/** An answer with its parsed JSON body (undefined when none or not JSON). */
export type InstanceAnswer = { kind: 'answered'; status: number; retryAfterSeconds?: number; json?: unknown };

/**
 * One request to a ServiceNow instance, to the addresses checked as webhook targets are (public,
 * or loopback with ALLOW_LOCAL_WEBHOOKS; the connection uses the checked address). Redirects are
 * not followed. Never throws: a failure to reach it is its outcome.
 */
export const instanceRequest = async (request: InstanceRequest): Promise<InstanceAnswer | Exclude<AttemptOutcome, { kind: 'answered' | 'sent' | 'unchanged' }>> => {
  const problem = urlProblem(request.url, request.allowLocal);
  if (problem) return { kind: 'refused', reason: problem.replace(/^url /, 'instanceUrl ') };
  try {
    return await send(request);
  } catch (error) {
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
};

const send = (request: InstanceRequest) =>
  new Promise<InstanceAnswer | Exclude<AttemptOutcome, { kind: 'answered' | 'sent' | 'unchanged' }>>((resolve) => {
    const url = new URL(request.url);
    const transport = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = transport(
      url,
      {
        method: request.method,
        lookup: guardedLookup(request.allowLocal) as never,
        signal: timeoutSignal(request.timeoutMs),
        headers: {
          accept: 'application/json',
          'user-agent': 'device-monitoring-servicenow/1',
          ...(request.body === undefined
            ? {}
            : { 'content-type': request.form ? 'application/x-www-form-urlencoded' : 'application/json', 'content-length': String(Buffer.byteLength(request.body)) }),
          ...request.headers,
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        response.on('error', (error: Error) => resolve({ kind: 'unreachable', reason: error.message }));
        response.on('end', () => {
          const after = retryAfter(response.headers['retry-after']);
          let json: unknown;
          try {
            json = size > 0 && size <= MAX_ANSWER_BYTES ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ kind: 'answered', status: response.statusCode ?? 0, ...(after === undefined ? {} : { retryAfterSeconds: after }), ...(json === undefined ? {} : { json }) });
        });
      },
    );
    outgoing.on('error', (error: Error) => {
      if (error instanceof UnsafeTarget) resolve({ kind: 'refused', reason: error.message.replace(/^url /, 'instanceUrl ') });
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') resolve({ kind: 'timeout' });
      else resolve({ kind: 'unreachable', reason: error.message });
    });
    outgoing.end(request.body);
  });
