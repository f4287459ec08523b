import { describe, expect, it } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { HttpError, Invalid, TooManyRequests } from '#lib/shared/errors';
import { createChannel, removeChannel } from '#lib/notify/channels';
import { createSchedule, replaceSchedule, runScheduleNow, RUN_BUDGETS, type ReportCaller } from '#lib/reports/service';
import type { ReportInput } from '#lib/reports/types';
import { API_KEY_PERMISSIONS, BUILT_IN_PERMISSIONS } from '#lib/shared/access';
import { unique } from '../support/fleet';

// Running a report on demand is budgeted, and a schedule names only channels its writer may use (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer").

const region = unique('reports-limits');
const mailer = outboxMailer();
const admin = (name = unique('admin')): ReportCaller => ({ kind: 'user', username: name, scope: [], permissions: API_KEY_PERMISSIONS });
const operator = (name = unique('operator')): ReportCaller => ({ kind: 'user', username: name, scope: [{ region }], permissions: BUILT_IN_PERMISSIONS.operator });
const input = (channelIds: string[], overrides: Partial<ReportInput> = {}): ReportInput => ({ name: 'limits', period: 'daily', time: '08:00', timeZone: 'UTC', channelIds, scope: [{ region }], ...overrides });
const mailChannel = async () => (await createChannel({ name: unique('report-mail'), type: 'email', emails: [`${unique('to')}@example.com`] })).id;
const run = (id: string, caller: ReportCaller) => runScheduleNow(id, caller, mailer, Date.now() + 15_000);
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as HttpError);

describe('POST /reports/{id}/run is budgeted in the table', () => {
  it('answers 429 with Retry-After to a second run of one report within the minute, however many race', async () => {
    const caller = admin();
    const schedule = await createSchedule(input([await mailChannel()]), caller);
    const results = await Promise.all(Array.from({ length: 5 }, () => failure(run(schedule.id, caller))));
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    for (const refused of results.filter((r) => r !== undefined)) {
      expect(refused).toBeInstanceOf(TooManyRequests);
      expect(refused!.message).toContain(`Report ${schedule.id} may be run 1 time a minute`);
      expect(Number(refused!.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused!.headers?.['retry-after'])).toBeLessThanOrEqual(RUN_BUDGETS.report.windowSeconds);
    }
  });

  it(`answers 429 to a principal's ${RUN_BUDGETS.principal.max + 1}th run within the hour, of whichever report`, async () => {
    const caller = admin();
    const channel = await mailChannel();
    const schedules = [];
    for (let i = 0; i <= RUN_BUDGETS.principal.max; i++) schedules.push(await createSchedule(input([channel], { name: `limits ${i}` }), caller));
    for (const schedule of schedules.slice(0, -1)) await run(schedule.id, caller);
    const refused = await failure(run(schedules.at(-1)!.id, caller));
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect(refused!.message).toContain('You may run reports 10 times an hour');
    // another principal still runs it
    await expect(run(schedules.at(-1)!.id, admin())).resolves.toMatchObject({ report: { name: `limits ${RUN_BUDGETS.principal.max}` } });
  }, 120_000);

  it('answers a deleted channel as it answers a live one, and no channel response status', async () => {
    const caller = admin();
    const [live, gone] = [await mailChannel(), await mailChannel()];
    const schedule = await createSchedule(input([live, gone]), caller);
    await removeChannel(gone);
    const { deliveries } = await run(schedule.id, caller);
    expect(deliveries.map((d) => d.channelId)).toEqual([live, gone]);
    for (const delivery of deliveries) expect(Object.keys(delivery).sort()).toEqual(['at', 'channelId', 'deliveryId', 'type']);
  });
});

describe('the channels a schedule may name', () => {
  it('refuses an operator without channels:write a channel no schedule of its scope names, as it refuses an unknown one', async () => {
    const channel = await mailChannel();
    const refused = await failure(createSchedule(input([channel]), operator()));
    const unknown = await failure(createSchedule(input(['no-such-channel']), operator()));
    expect(refused).toBeInstanceOf(Invalid);
    expect(unknown).toBeInstanceOf(Invalid);
    expect(refused!.details).toEqual([{ field: 'body.channelIds', message: `body.channelIds: no channel ${channel}` }]);
    expect({ message: unknown!.message, details: unknown!.details?.map((d) => d.message.replace('no-such-channel', channel)) }).toEqual({
      message: refused!.message,
      details: refused!.details?.map((d) => d.message),
    });
  });

  it('lets an operator name a channel once a schedule within its scope names it, and not one shared with another region only', async () => {
    const [shared, elsewhere] = [await mailChannel(), await mailChannel()];
    await createSchedule(input([shared]), admin());
    await createSchedule(input([elsewhere], { scope: [{ region: unique('other') }] }), admin());
    const own = await createSchedule(input([shared]), operator());
    expect(own.channelIds).toEqual([shared]);
    await expect(replaceSchedule(own.id, input([shared, elsewhere]), operator())).rejects.toMatchObject({ details: [{ field: 'body.channelIds', message: `body.channelIds: no channel ${elsewhere}` }] });
    await expect(replaceSchedule(own.id, input([shared], { name: 'renamed' }), operator())).resolves.toMatchObject({ name: 'renamed' });
  });
});
