import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressProblem, maskedUrl, targetProblem, urlProblem, webhookPorts, type Lookup } from '#lib/notify/address';
import { DEFAULT_RETRY, nextAttemptAt, verdictOf } from '#lib/notify/pure/retry';
import { newSecret, signatureOf, verifySignature } from '#lib/notify/pure/signature';

describe('webhook signatures', () => {
  it('is sha256= and the hex HMAC-SHA256 of "<timestamp>.<raw body>" with the secret', () => {
    expect(signatureOf('Jefe', 1700000000, 'x')).toBe(`sha256=${createHmac('sha256', 'Jefe').update('1700000000.x').digest('hex')}`);
  });

  it('verifies only the same body and timestamp with the same secret, within five minutes of the receiver clock', () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'test' });
    const now = 1_800_000_000;
    const signature = signatureOf(secret, now, body);
    const timestamp = String(now);
    expect(verifySignature(secret, body, { signature, timestamp }, now)).toBe(true);
    expect(verifySignature(secret, body, { signature, timestamp }, now + 300)).toBe(true);
    expect(verifySignature(secret, `${body} `, { signature, timestamp }, now)).toBe(false);
    expect(verifySignature(newSecret(), body, { signature, timestamp }, now)).toBe(false);
    expect(verifySignature(secret, body, { signature: undefined, timestamp }, now)).toBe(false);
    expect(verifySignature(secret, body, { signature, timestamp: undefined }, now)).toBe(false);
  });

  it('refuses a replay: an old timestamp, or a fresh one with the old signature', () => {
    const secret = newSecret();
    const body = '{"type":"test"}';
    const then = 1_800_000_000;
    const signature = signatureOf(secret, then, body);
    expect(verifySignature(secret, body, { signature, timestamp: String(then) }, then + 301)).toBe(false);
    expect(verifySignature(secret, body, { signature, timestamp: String(then + 301) }, then + 301)).toBe(false);
  });

  it('makes a different random secret each time', () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).not.toBe(a);
  });
});

describe('retry schedule', () => {
  const first = Date.parse('2026-11-22T00:00:00Z');
  const at = (attempts: number, now: number, random = () => 1) => nextAttemptAt({ attempts, firstAttemptAt: first, now, random });

  it('retries 5xx, 429, timeouts and refused connections; fails other 4xx, redirects and unsafe targets at once', () => {
    expect(verdictOf({ kind: 'answered', status: 204 })).toBe('delivered');
    for (const status of [500, 502, 503, 429]) expect(verdictOf({ kind: 'answered', status })).toBe('retry');
    expect(verdictOf({ kind: 'timeout' })).toBe('retry');
    expect(verdictOf({ kind: 'unreachable', reason: 'ECONNREFUSED' })).toBe('retry');
    for (const status of [400, 401, 404, 410, 301]) expect(verdictOf({ kind: 'answered', status })).toBe('fail');
    expect(verdictOf({ kind: 'refused', reason: 'private address' })).toBe('fail');
  });

  it('doubles the delay after each failed attempt, up to an hour', () => {
    expect(at(1, first)! - first).toBe(30_000);
    expect(at(2, first)! - first).toBe(60_000);
    expect(at(5, first)! - first).toBe(480_000);
    expect(at(20, first)! - first).toBe(3_600_000);
  });

  it('keeps the random part in the upper half of each delay (jitter)', () => {
    expect(at(3, first, () => 0)! - first).toBe(60_000);
    expect(at(3, first, () => 0.5)! - first).toBe(90_000);
    const spread = new Set(Array.from({ length: 20 }, () => at(3, first, Math.random)));
    expect(spread.size).toBeGreaterThan(1);
  });

  it('honours a longer Retry-After', () => {
    expect(nextAttemptAt({ attempts: 1, firstAttemptAt: first, now: first, retryAfterSeconds: 600, random: () => 1 })! - first).toBe(600_000);
  });

  it('gives up once the next attempt would start more than 24 hours after the first', () => {
    const late = first + DEFAULT_RETRY.windowMs - 10 * 60_000;
    expect(at(30, late)).toBeUndefined();
    expect(at(30, late - 60 * 60_000)).toBe(late);
    // the whole schedule: attempts until the window closes, none after it
    let now = first;
    let attempts = 1;
    for (let next = at(attempts, now); next !== undefined; next = at(++attempts, now)) now = next;
    expect(now).toBeLessThanOrEqual(first + DEFAULT_RETRY.windowMs);
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThan(40);
  });
});

describe('webhook target checks', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressProblem(address, false)).toContain(range);
  });

  it('accepts public addresses, and loopback only when local webhooks are allowed', () => {
    expect(addressProblem('93.184.216.34', false)).toBeUndefined();
    expect(addressProblem('2606:4700:4700::1111', false)).toBeUndefined();
    expect(addressProblem('127.0.0.1', true)).toBeUndefined();
    expect(addressProblem('10.0.0.1', true)).toContain('private');
  });

  it('wants https, no credentials, and http only on loopback with local webhooks allowed', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/x', false)).toBe('url must use https');
    expect(urlProblem('ftp://hooks.example.com/x', false)).toBe('url must use https');
    expect(urlProblem('not a url', false)).toBe('url must be an absolute URL');
    expect(urlProblem('https://user:pw@hooks.example.com/', false)).toBe('url must not carry credentials');
    expect(urlProblem('https://127.0.0.1/x', false)).toContain('loopback');
    expect(urlProblem('https://[::1]/x', false)).toContain('loopback');
    expect(urlProblem('http://127.0.0.1:8080/x', false)).toBe('url must use https');
    expect(urlProblem('http://127.0.0.1:8080/x', true)).toBeUndefined();
    expect(urlProblem('http://localhost:8080/x', true)).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/x', true)).toContain('only on loopback');
    expect(urlProblem('http://10.0.0.1/x', true)).toContain('only on loopback');
  });

  it('allows ports 443 and 8443 by default, WEBHOOK_PORTS when set, and any port only on loopback with local webhooks allowed', () => {
    expect(urlProblem('https://hooks.example.com:443/x', false)).toBeUndefined();
    expect(urlProblem('https://hooks.example.com:8443/x', false)).toBeUndefined();
    expect(urlProblem('https://hooks.example.com:22/x', false)).toBe('url port 22 is not allowed; webhooks use port 443 or 8443 (WEBHOOK_PORTS)');
    expect(urlProblem('https://hooks.example.com:22/x', true)).toContain('port 22 is not allowed');
    expect(urlProblem('https://hooks.example.com:9443/x', false, webhookPorts({ WEBHOOK_PORTS: '443, 9443' }))).toBeUndefined();
    expect(urlProblem('https://hooks.example.com:8443/x', false, webhookPorts({ WEBHOOK_PORTS: '443,9443' }))).toContain('port 8443');
    expect(webhookPorts({ WEBHOOK_PORTS: 'nonsense' })).toEqual([443, 8443]);
    expect(urlProblem('http://127.0.0.1:22/x', true)).toBeUndefined();
  });

  it('masks a webhook URL to scheme, host and port: path, query and fragment are the credential', () => {
    expect(maskedUrl('https://hooks.slack.com/services/T000/B000/XXXXXXXX')).toBe('https://hooks.slack.com/***');
    expect(maskedUrl('https://prod-01.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=SECRET')).toBe(
      'https://prod-01.westus.logic.azure.com/***',
    );
    expect(maskedUrl('https://hooks.example.com:8443/x?token=t#f')).toBe('https://hooks.example.com:8443/***');
  });

  it('checks every address a name resolves to', async () => {
    const dns = (answers: Record<string, string[]>): Lookup => async (host) => {
      const found = answers[host];
      if (!found) throw new Error('ENOTFOUND');
      return found;
    };
    const lookup = dns({ 'public.example': ['93.184.216.34'], 'mixed.example': ['93.184.216.34', '10.0.0.7'], 'meta.example': ['169.254.169.254'] });
    expect(await targetProblem('https://public.example/hook', false, lookup)).toBeUndefined();
    expect(await targetProblem('https://mixed.example/hook', false, lookup)).toContain('10.0.0.7 is a private address');
    expect(await targetProblem('https://meta.example/hook', false, lookup)).toContain('linkLocal');
    expect(await targetProblem('https://nowhere.example/hook', false, lookup)).toContain('does not resolve');
    expect(await targetProblem('https://10.0.0.1/hook', false, lookup)).toContain('private');
  });
});
