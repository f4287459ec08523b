import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import type { Mail } from '#lib/notify/mail/types';
import * as outbox from '#lib/notify/mail/repository';
import { createChannel } from '#lib/notify/channels';
import { runReports } from '#lib/reports/run';
import { createSchedule, replaceSchedule } from '#lib/reports/service';
import { unique } from '../support/fleet';
import { API_KEY_PERMISSIONS } from '#lib/shared/access';

/** An unscoped caller allowed to name any channel (the API key's permissions). */
const OPS = { kind: 'user', username: 'ops', scope: [], permissions: API_KEY_PERMISSIONS };

// Hostile review of issue 28 (probe28): scheduled reports when their schedule is edited.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (ms: number) => `${pad(new Date(ms).getUTCHours())}:${pad(new Date(ms).getUTCMinutes())}`;
const run = (now: number) => runReports({ mailer: outboxMailer(), deadline: Date.now() + 60_000, now });

describe('a daily report whose time is moved', () => {
  it('makes no report at once for the period the new time closed before the edit (it overlaps the one made)', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const email = `${unique('manager')}@example.com`;
    const channel = await createChannel({ name: 'managers', type: 'email', emails: [email] });
    const body = (time: string) => ({ name: 'Daily', period: 'daily' as const, time, timeZone: 'UTC', channelIds: [channel.id], scope: [{ region: unique('RPT') }] });
    const schedule = await createSchedule(body(hhmm(start - HOUR)), OPS);

    // the first period ends a day later, less an hour: its report is made
    const firstEnd = Date.parse(schedule.nextReportAt!);
    expect((await run(firstEnd + 15 * MINUTE)).made).toBe(1);
    expect(await outbox.list(email, {})).toHaveLength(1);

    // half an hour after it, the time moves to 20 minutes after the first end: that period (ended 10 minutes ago) covers what was reported
    vi.setSystemTime(firstEnd + 30 * MINUTE);
    const moved = await replaceSchedule(schedule.id, body(hhmm(firstEnd + 20 * MINUTE)), OPS);
    expect(Date.parse(moved.nextReportAt!)).toBeGreaterThan(firstEnd + 30 * MINUTE);
    expect((await run(firstEnd + 45 * MINUTE)).made).toBe(0);
    expect((await outbox.list(email, {})) as Mail[]).toHaveLength(1);

    // the next period at the new time is reported
    expect((await run(Date.parse(moved.nextReportAt!) + MINUTE)).made).toBe(1);
    expect(await outbox.list(email, {})).toHaveLength(2);
  });
});
