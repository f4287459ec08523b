import { describe, expect, it } from 'vitest';
import { api } from '../support/api';

/*
 * A body within the size limit can break a schema many thousand times over. The 400 lists the
 * first problems only: listing all of them made an answer of megabytes (over Lambda's 6 MB
 * response limit, a 502 in AWS) from a 255 KB request.
 */
describe('answers to bodies that break the schema many times over', () => {
  it('POST /filters with 85,000 empty records: 400 naming the first problems, in a small answer', async () => {
    const raw = JSON.stringify(Array.from({ length: 85_000 }, () => ({})));
    expect(raw.length).toBeLessThan(256 * 1024);
    const res = await api<{ message: string; errors: { field: string; message: string }[] }>('POST', '/filters', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body).length).toBeLessThan(64 * 1024);
    expect(res.body.errors.length).toBeLessThanOrEqual(100);
    expect(res.body.errors[0]).toEqual({ field: 'body', message: 'body must be an array of 1 to 1000 filter records' });
    expect(res.body.message).toMatch(/further problems not listed$/);
  });

  it('DELETE /filters with 60,000 strings: 400 in a small answer', async () => {
    const raw = JSON.stringify(Array.from({ length: 60_000 }, () => 'a'));
    const res = await api<{ errors: unknown[] }>('DELETE', '/filters', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body).length).toBeLessThan(64 * 1024);
  });
});
