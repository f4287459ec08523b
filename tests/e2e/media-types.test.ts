import { describe, expect, it } from 'vitest';
import { api } from '../support/api';

// Media types are case-insensitive (RFC 9110 8.3.1); JSON is UTF-8 (RFC 8259 8.1).
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
const send = (contentType: string) => api('POST', '/videoDevice/all/totalDevices', { raw: JSON.stringify(ALL), headers: { 'content-type': contentType } });

describe('request media types', () => {
  it.each(['application/json', 'Application/JSON', 'APPLICATION/JSON; charset=UTF-8', 'application/json;charset=utf-8'])('accepts %s', async (type) => {
    const res = await send(type);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each(['application/json; charset=utf-16', 'application/json; charset=ISO-8859-1', 'text/plain'])('answers %s with 415 naming the problem', async (type) => {
    const res = await send(type);
    expect(res.status).toBe(415);
    expect((res.body as { message: string }).message).toMatch(/Content-Type must be application\/json/);
  });
});
