import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Connections } from '#lib/live';

/*
 * API Gateway's @connections endpoint (live pushes, lib/live/push.ts), behind the domain's
 * `Connections`. One PostToConnection is one signed HTTP POST: SigV4 by the same signer the
 * bundled DynamoDB client already carries (so this adds no package to any bundle), over one
 * keep-alive agent per endpoint. The full API Gateway management client cost ~0.6 ms of CPU per
 * post (middleware stack, serde) against ~0.1 ms here, which is what kept a fan-out of a few
 * thousand posts per second from keeping up (bench/README.md "Live pushes").
 */

/**
 * Parallel sockets per endpoint (a cap: sockets open only as posts need them); further posts wait
 * for a free one (never time out waiting). 64 queued a 50-changes/s fan-out (~2,400 posts/s) for
 * seconds on the local bench (push-alone p99 3.4 s); 256 keeps it at ~0.5 s (bench/README.md).
 */
const SOCKETS = 256;
/** A post that has not been answered within this long (once it has a socket) has failed. */
const TIMEOUT_MS = 3000;

/** SHA-256 and HMAC-SHA256 with node:crypto, in the shape the signer expects. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) => (typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data));

class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: Data) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  /** The signer's name for the hash's result (its Checksum interface). */
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

/** Lambda gives every function its role's credentials in the environment (so do local runs). */
const credentialsFromEnv = async () => {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) throw new Error('live push needs AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
};

/** The status of a post that answered, or why it did not. */
class PostFailed extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'PostFailed';
  }
}

/** Worth one more try: no answer, throttled, or a server error. */
const transient = (error: unknown) => !(error instanceof PostFailed) || error.status === undefined || error.status === 429 || error.status >= 500;

/** The management API of one WebSocket stage, e.g. https://abc.execute-api.eu-west-1.amazonaws.com/prod. */
export const managementApi = (endpoint: string, region = process.env.AWS_REGION ?? 'us-east-1'): Connections => {
  const base = new URL(endpoint);
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: SOCKETS });
  const send = secure ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/$/, '');
  const signer = new SignatureV4({ service: 'execute-api', region, credentials: credentialsFromEnv, sha256: Sha256 });

  const once = async (connectionId: string, data: string): Promise<number> => {
    const signed = await signer.sign({
      method: 'POST',
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path: `${prefix}/@connections/${encodeURIComponent(connectionId)}`,
      query: {},
      headers: { host: base.host, 'content-type': 'application/octet-stream', 'content-length': String(Buffer.byteLength(data)) },
      body: data,
    });
    return new Promise<number>((answered, failed) => {
      const req = send({ protocol: base.protocol, hostname: base.hostname, port: base.port, path: signed.path, method: 'POST', headers: signed.headers, agent }, (res: IncomingMessage) => {
        res.resume(); // the answer's body says nothing we need; reading it frees the socket
        res.once('end', () => answered(res.statusCode ?? 0));
        res.once('error', (error) => failed(new PostFailed(undefined, error.message)));
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new PostFailed(undefined, `no answer within ${TIMEOUT_MS} ms`)));
      req.once('error', (error) => failed(error instanceof PostFailed ? error : new PostFailed(undefined, error.message)));
      req.end(data);
    });
  };

  const attempt = async (connectionId: string, data: string): Promise<'sent' | 'gone'> => {
    const status = await once(connectionId, data);
    if (status === 410) return 'gone';
    if (status >= 200 && status < 300) return 'sent';
    throw new PostFailed(status, `@connections answered ${status}`);
  };

  return {
    async post(connectionId, data) {
      try {
        return await attempt(connectionId, data);
      } catch (error) {
        if (!transient(error)) throw error;
        return attempt(connectionId, data);
      }
    },
  };
};

const apis = new Map<string, Connections>();

/**
 * The stage's management API from LIVE_PUSH_ENDPOINT (one per endpoint and process, so enabling
 * the push twice subscribes it once), or undefined where live updates are not configured.
 */
export const connectionsFromEnv = (endpoint = process.env.LIVE_PUSH_ENDPOINT): Connections | undefined => {
  if (!endpoint) return undefined;
  let api = apis.get(endpoint);
  if (!api) apis.set(endpoint, (api = managementApi(endpoint)));
  return api;
};
