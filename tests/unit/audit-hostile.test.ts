import { describe, expect, it } from 'vitest';
import { auditCsv } from '#lib/access/audit/csv';
import { requestFacts, type AuditRecord } from '#lib/access/audit/types';
import { apiEvent } from '../support/events';

// The user agent is the one text of an audit record a client writes freely (every other field is
// validated or API Gateway's own): hostile ones must not break the record, its store or its CSV.
const factsFor = (userAgent: string) =>
  requestFacts(apiEvent({ httpMethod: 'POST', resource: '/watcher', requestContext: { requestId: 'r', identity: { sourceIp: '192.0.2.1', userAgent } } as never }));

const wellFormed = (text: string) => !/\p{Cs}/u.test(text);

describe('a hostile user agent in the audit log', () => {
  it('is cut at the bound without splitting a character in two (no lone surrogate reaches the store)', () => {
    const { userAgent } = factsFor(`${'a'.repeat(511)}😀${'b'.repeat(100)}`);
    expect(wellFormed(userAgent)).toBe(true);
    expect(userAgent).toBe('a'.repeat(511));
  });

  it('keeps a character that fits whole, and replaces a lone surrogate sent as such', () => {
    expect(factsFor(`${'a'.repeat(510)}😀tail`).userAgent).toBe(`${'a'.repeat(510)}😀`);
    const { userAgent } = factsFor('curl/8 \ud800 \udfff end');
    expect(wellFormed(userAgent)).toBe(true);
    expect(userAgent).toBe('curl/8     end');
  });

  it('stays on one visible line: line and paragraph separators and bidirectional overrides become spaces', () => {
    const { userAgent } = factsFor('ua\u2028next\u2029para\u202egnp.exe\u200b');
    expect(userAgent).toBe('ua next para gnp.exe ');
    const record: AuditRecord = {
      id: 'r1',
      at: '2026-11-26T00:00:00.000Z',
      event: 'change',
      actor: { kind: 'api-key', id: 'api-key' },
      action: 'POST /watcher',
      target: { type: 'watcher' },
      status: 201,
      fields: [],
      requestId: 'r',
      sourceIp: '192.0.2.1',
      userAgent,
    };
    expect(auditCsv([record]).split('\r\n')).toHaveLength(3); // header, the row, the final line end
  });
});
