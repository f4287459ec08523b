import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { watcherInput } from '../support/fleet';

/*
 * Mail as a relay (issue 24 item 13): the e2e server runs with MAIL_ALLOWED_DOMAINS
 * `example.com,*.example.net` (tests/support/offline.global.ts); every address outside is a 400
 * naming it, wherever recipients are written.
 */
type ErrorBody = { message: string; errors: { field: string; message: string }[] };
const made: string[] = [];
afterAll(async () => {
  for (const path of made) await api('DELETE', path);
});

const mailing = (emails: string[]) => watcherInput({ sendEmail: true, emails, description: 'relay check' });

const expectRefused = (res: { status: number; body: unknown }, field: string, address: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const { errors, message } = res.body as ErrorBody;
  expect(errors.map((e) => e.field)).toEqual([field]);
  expect(errors[0]!.message).toContain(address);
  expect(message).toContain(address);
};

describe('recipients outside MAIL_ALLOWED_DOMAINS', () => {
  it('POST /watcher refuses an address outside the allowed domains with 400 naming it', async () => {
    const res = await api('POST', '/watcher', { body: mailing(['ops@example.com', 'victim@evil.example']) });
    expectRefused(res, 'body.emails[1]', 'victim@evil.example');
  });

  it('PUT /watcher/{id} refuses one too, and allowed domains and their listed subdomains pass', async () => {
    const created = await api<string>('POST', '/watcher', { body: mailing(['ops@EXAMPLE.com', 'noc@eu.example.net']) });
    expect(created.status).toBe(200);
    made.push(`/watcher/${created.body}`);
    const res = await api('PUT', `/watcher/${created.body}`, { body: mailing(['ops@example.com', 'x@sub.example.com']) });
    expectRefused(res, 'body.emails[1]', 'x@sub.example.com');
  });

  it('POST and PUT /channels refuse an e-mail channel with an address outside the allowed domains', async () => {
    expectRefused(await api('POST', '/channels', { body: { name: 'relay', type: 'email', emails: ['a@evil.example'] } }), 'body.emails[0]', 'a@evil.example');
    const created = await api<{ id: string }>('POST', '/channels', { body: { name: 'team', type: 'email', emails: ['team@example.com'] } });
    expect(created.status).toBe(201);
    made.push(`/channels/${created.body.id}`);
    const res = await api('PUT', `/channels/${created.body.id}`, { body: { name: 'team', type: 'email', emails: ['team@example.com', 'b@evil.example'] } });
    expectRefused(res, 'body.emails[1]', 'b@evil.example');
  });
});
