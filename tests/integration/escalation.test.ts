import { describe, expect, it } from 'vitest';
import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import { queryHistory } from '#lib/alarms/history';
import { createSilence } from '#lib/alarms/silences';
import * as alarms from '#lib/alarms/repository/alarms';
import { alarmId } from '#lib/alarms/types';
import { createChannel, removeChannel } from '#lib/notify/channels';
import { Conflict, Invalid } from '#lib/shared/errors';
import * as deliveries from '#lib/notify/repository/deliveries';
import { createWatcher } from '#lib/watchers/write';
import type { Weekday } from '#lib/maintenance/pure/schedule';
import { createWindow } from '#lib/maintenance/service';
import { controlledClock, firing, locationFleet, mailsTo, run, tell } from '../support/engine';
import { offlineWatcher, unique } from '../support/fleet';

// Escalation (docs/guide/rules/alarms.md "Escalation reaches each step once"), time driven by a controlled clock.
const MINUTE = 60_000;
/** Twenty-odd engine and notifier runs: more than the default test time on a shared machine (no timing is asserted). */
const SLOW = 180_000;

/** One device of a new region, a watcher on it mailing `ops`, escalating to `lead` after 1 minute and to a team channel after 5. */
const escalating = async () => {
  const clock = controlledClock();
  const { region, sync } = await locationFleet(1);
  const [ops, lead, team] = [`${unique('ops')}@example.com`, `${unique('lead')}@example.com`, `${unique('team')}@example.com`];
  const channel = (await createChannel({ name: unique('team'), type: 'email', emails: [team] })).id;
  const id = await createWatcher(
    offlineWatcher(region, ops, { escalation: [{ afterMinutes: 1, emails: [lead] }, { afterMinutes: 5, channelIds: [channel] }], flapping: false }),
  );
  await run();
  await sync([0]);
  await run();
  await tell();
  const [alarm] = await firing(id);
  expect(alarm).toBeDefined();
  return { ...clock, id, region, sync, ops, lead, team, channel, alarm: alarm! };
};
/** Three notifier runs racing. */
const race = () => Promise.all([tell(), tell(), tell()]);

describe('an unacknowledged firing alarm', () => {
  it('reaches each step once, at its time, even under racing runs; the step shows on the alarm, in its history and in the delivery log', async () => {
    const s = await escalating();
    expect(await mailsTo(s.ops)).toHaveLength(1);
    s.at(59_000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    s.at(MINUTE + 1000);
    await race();
    await race();
    const leadMails = await mailsTo(s.lead);
    expect(leadMails).toHaveLength(1);
    expect(leadMails[0]!.subject).toContain('Escalated');
    expect(leadMails[0]!.text).toContain('escalation step 1');
    expect(await mailsTo(s.team)).toHaveLength(0);
    expect((await firing(s.id))[0]).toMatchObject({ escalationStep: 1 });
    s.at(5 * MINUTE + 1000);
    await race();
    await race();
    expect(await mailsTo(s.team)).toHaveLength(1);
    expect(await mailsTo(s.lead)).toHaveLength(1);
    const log = await deliveries.log(s.channel, 10);
    expect(log.items.map((d) => d.type)).toEqual(['alarms.escalated']);
    const [open] = await firing(s.id);
    expect(open).toMatchObject({ escalationStep: 2 });
    expect(open!.escalations?.map((e) => e.step)).toEqual([1, 2]);
    // cleared: the history keeps the steps
    s.at(6 * MINUTE);
    await s.sync([]);
    await run();
    await tell();
    const history = await queryHistory({ watcherId: s.id, region: s.region });
    expect(history.items[0]).toMatchObject({ id: alarmId(s.alarm), escalationStep: 2 });
    expect(history.items[0]!.escalations?.map((e) => e.step)).toEqual([1, 2]);
  }, SLOW);

  it('stops escalating once acknowledged', async () => {
    const s = await escalating();
    s.at(30_000);
    await acknowledgeAlarm(alarmId(s.alarm), 'ana');
    s.at(6 * MINUTE);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    expect(await mailsTo(s.team)).toHaveLength(0);
    expect((await firing(s.id))[0]).not.toHaveProperty('escalationStep');
  }, SLOW);

  it('is held by a silence and resumes after it, counting from its end', async () => {
    const s = await escalating();
    s.at(30_000);
    const endsAt = new Date(s.start + 10 * MINUTE).toISOString();
    await createSilence({ matchers: { region: s.region }, endsAt, comment: 'held' }, 'ana');
    s.at(2 * MINUTE);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    expect((await alarms.openAmong([s.alarm]))[0]).toMatchObject({ escalationHeld: true });
    // the silence ended at 10 minutes: the first step comes a minute after that, not at once
    s.at(10 * MINUTE + 1000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    s.at(10 * MINUTE + 50_000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    s.at(11 * MINUTE + 2000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(1);
    expect(await mailsTo(s.team)).toHaveLength(0);
  }, SLOW);
});

describe('an alarm in a maintenance window', () => {
  it('is not escalated while the window is open, and resumes a step\'s time after it closes', async () => {
    const s = await escalating();
    // a daily window of the region, opening at the minute of 30 s in (UTC), for 10 minutes
    const opens = new Date(s.start + 30_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as Weekday[];
    s.at(30_000);
    await createWindow({ matchers: { region: s.region }, schedule: { days, start: `${pad(opens.getUTCHours())}:${pad(opens.getUTCMinutes())}`, durationMinutes: 10, timeZone: 'UTC' }, comment: 'work' }, 'ana');
    const closes = Math.floor(opens.getTime() / MINUTE) * MINUTE + 10 * MINUTE - s.start;
    s.at(3 * MINUTE);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    s.at(closes + 1000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(0);
    s.at(closes + MINUTE + 2000);
    await race();
    expect(await mailsTo(s.lead)).toHaveLength(1);
  }, SLOW);
});

describe('the channels an escalation names', () => {
  it('must exist (400 naming the step), and cannot be deleted while a step names them', async () => {
    const region = unique('R');
    const ops = `${unique('ops')}@example.com`;
    const refused = await createWatcher(offlineWatcher(region, ops, { escalation: [{ afterMinutes: 5, channelIds: ['no-such-channel'] }] })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Invalid);
    expect((refused as Invalid).details?.map((d) => d.field)).toEqual(['body.escalation[0].channelIds']);
    const channel = (await createChannel({ name: unique('lead'), type: 'email', emails: [`${unique('lead')}@example.com`] })).id;
    await createWatcher(offlineWatcher(region, ops, { escalation: [{ afterMinutes: 5, channelIds: [channel] }] }));
    await expect(removeChannel(channel)).rejects.toBeInstanceOf(Conflict);
  }, SLOW);
});
