import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from '#lib/maintenance/pure/rrule';
import { currentPeriod, lastEndedPeriod, nextReportAt } from '#lib/reports/pure/period';
import type { ReportTiming } from '#lib/reports/types';

// Issue 28 item 5: a report's period ends at each occurrence of its wall-clock time in its zone.

const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
const weeklyBerlin: ReportTiming = { period: 'weekly', weekday: 'MO', time: '08:00', timeZone: 'Europe/Berlin' };

describe('report periods', () => {
  it('ends a weekly Berlin period on Monday 08:00 local, 167 hours long across the spring change', () => {
    const period = lastEndedPeriod(weeklyBerlin, at('2026-03-31T12:00:00Z'));
    expect([iso(period.from), iso(period.to)]).toEqual(['2026-03-23T07:00:00.000Z', '2026-03-30T06:00:00.000Z']);
    expect((period.to - period.from) / HOUR).toBe(167);
  });

  it('makes the week across the autumn change 169 hours long, still Monday 08:00 to Monday 08:00 local', () => {
    const period = lastEndedPeriod(weeklyBerlin, at('2026-10-26T07:00:00Z'));
    expect([iso(period.from), iso(period.to)]).toEqual(['2026-10-19T06:00:00.000Z', '2026-10-26T07:00:00.000Z']);
    expect((period.to - period.from) / HOUR).toBe(169);
  });

  it('counts a period as ended at its last instant exactly, not a moment before', () => {
    const end = at('2026-03-30T06:00:00Z');
    expect(iso(lastEndedPeriod(weeklyBerlin, end).to)).toBe('2026-03-30T06:00:00.000Z');
    expect(iso(lastEndedPeriod(weeklyBerlin, end - 1).to)).toBe('2026-03-23T07:00:00.000Z');
  });

  it('takes a daily time the clock skips at the transition (02:30 on the spring-forward day)', () => {
    const daily: ReportTiming = { period: 'daily', time: '02:30', timeZone: 'Europe/Berlin' };
    const period = lastEndedPeriod(daily, at('2026-03-29T06:00:00Z'));
    expect([iso(period.from), iso(period.to)]).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z']);
  });

  it('answers the period under way and when its report is due', () => {
    const now = at('2026-03-31T12:00:00Z');
    expect(iso(currentPeriod(weeklyBerlin, now).from)).toBe('2026-03-30T06:00:00.000Z');
    expect(iso(nextReportAt(weeklyBerlin, now))).toBe('2026-04-06T06:00:00.000Z');
  });

  it('always ends the last period at or before now and the next after it, one period apart, on the schedule\'s weekday and time', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
    fc.assert(
      fc.property(
        fc.integer({ min: at('2024-01-01T00:00:00Z'), max: at('2028-01-01T00:00:00Z') }),
        fc.constantFrom(...zones),
        fc.constantFrom(...WEEKDAYS),
        fc.integer({ min: 0, max: 23 }),
        fc.boolean(),
        (now, timeZone, weekday, hour, weekly) => {
          const timing: ReportTiming = weekly ? { period: 'weekly', weekday, time: `${String(hour).padStart(2, '0')}:15`, timeZone } : { period: 'daily', time: `${String(hour).padStart(2, '0')}:15`, timeZone };
          const ended = lastEndedPeriod(timing, now);
          const next = currentPeriod(timing, now);
          expect(ended.to).toBeLessThanOrEqual(now);
          expect(next.from).toBe(ended.to);
          expect(next.to).toBeGreaterThan(now);
          const nominal = (weekly ? 7 : 1) * 24 * HOUR;
          expect(Math.abs(ended.to - ended.from - nominal)).toBeLessThanOrEqual(2 * HOUR);
        },
      ),
      { numRuns: 300 },
    );
  });
});
