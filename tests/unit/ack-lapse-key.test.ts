import { describe, expect, it } from 'vitest';
import { AckLapseEntity } from '#lib/alarms/entities';

describe('acknowledgement lapse keys', () => {
  it('stay within DynamoDB key limits for the longest alarm id of 4-byte characters, and sort by ackUntil first', () => {
    const at = '2026-11-26T10:00:00.000Z';
    const lapse = { watcherId: 'w'.repeat(36), devicesn: '\u{1F600}'.repeat(400), acknowledgedAt: at, ackUntil: '2026-11-27T10:00:00.000Z' };
    const key = AckLapseEntity.key(lapse);
    expect(Buffer.byteLength(key.SK)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(key.PK)).toBeLessThanOrEqual(2048);
    expect(key.SK.startsWith(`${lapse.ackUntil}#`)).toBe(true);
    expect(AckLapseEntity.key({ ...lapse, devicesn: 'other' }).SK).not.toBe(key.SK);
  });
});
