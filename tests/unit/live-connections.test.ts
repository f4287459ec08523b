import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementApi } from '#lib/adapters/connections';

/*
 * The push adapter signs its own POSTs instead of going through the API Gateway management
 * client (five times less CPU per post): its requests must be exactly what that client sends,
 * signature included, or API Gateway would refuse every push in AWS.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
let status = 200;
let server: Server;
let endpoint = '';

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, AWS_SESSION_TOKEN: CREDENTIALS.sessionToken });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/prod`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
const COMMON = ['x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256', 'host', 'content-type', 'content-length'];
const common = ({ method, url, headers, body }: Seen) => ({
  method,
  url,
  body,
  headers: Object.fromEntries(COMMON.map((name) => [name, headers[name]])),
});

/** What AWS does on arrival: re-sign the request as received over the headers it names, at its date. */
const verify = async (request: Seen, region: string) => {
  const [, signedHeaders] = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization)) ?? [];
  const names = (signedHeaders ?? '').split(';');
  const date = String(request.headers['x-amz-date']);
  const signingDate = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
  const [path] = request.url.split('?');
  const { SignatureV4 } = await import('@smithy/signature-v4');
  // the SDK's own hash, not the adapter's
  const signer = new SignatureV4({ service: 'execute-api', region, credentials: CREDENTIALS, sha256: new ApiGatewayManagementApiClient({ region }).config.sha256 });
  const headers = Object.fromEntries(names.map((name) => [name, String(request.headers[name])]));
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: '127.0.0.1', path: path!, query: {}, headers, body: request.body },
    { signingDate },
  );
  return signed.headers.authorization;
};

describe('live push adapter (lib/adapters/connections.ts)', () => {
  it('sends the very request the API Gateway management client sends, signature included', async () => {
    const id = 'L0SM9cOFvHcCIhw=';
    const data = JSON.stringify({ type: 'room', at: '2026-01-01T00:00:00.000Z' });
    const region = 'eu-west-1';
    // both sign within the same second (SigV4 dates have one-second resolution)
    let pair: Seen[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      seen.length = 0;
      const sdk = new ApiGatewayManagementApiClient({ endpoint, region });
      await sdk.send(new PostToConnectionCommand({ ConnectionId: id, Data: data }));
      await managementApi(endpoint, region).post(id, data);
      pair = [...seen];
      if (pair[0]?.headers['x-amz-date'] === pair[1]?.headers['x-amz-date']) break;
    }
    expect(pair).toHaveLength(2);
    expect(pair[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/execute-api\/aws4_request/);
    expect(common(pair[1]!)).toEqual(common(pair[0]!));
    expect(pair[1]!.headers.authorization).toMatch(/SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/);
    expect(await verify(pair[1]!, region)).toBe(pair[1]!.headers.authorization);
    expect(await verify(pair[0]!, region)).toBe(pair[0]!.headers.authorization); // the check itself agrees with the SDK's
    expect(pair[1]!.url).toBe('/prod/@connections/L0SM9cOFvHcCIhw%3D');
  });

  it('answers gone for 410, retries a 500 once, and fails on a 403', async () => {
    const api = managementApi(endpoint, 'eu-west-1');
    status = 410;
    expect(await api.post('gone-one', '{}')).toBe('gone');
    seen.length = 0;
    status = 500;
    await expect(api.post('broken', '{}')).rejects.toThrow('@connections answered 500');
    expect(seen).toHaveLength(2);
    seen.length = 0;
    status = 403;
    await expect(api.post('refused', '{}')).rejects.toThrow('@connections answered 403');
    expect(seen).toHaveLength(1);
    status = 200;
    expect(await api.post('fine', '{}')).toBe('sent');
  });
});
