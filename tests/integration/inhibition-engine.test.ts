import { describe, expect, it } from 'vitest';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as inhibitions from '#lib/alarms/inhibition/repository';
import * as watchers from '#lib/watchers/repository';
import { createChannel } from '#lib/notify/channels';
import type { InhibitedBy } from '#lib/watchers/types';
import { controlledClock, firing, locationFleet, mailsTo, run, tell } from '../support/engine';
import { offlineWatcher, unique } from '../support/fleet';

// Issue 28 item 2: while a parent condition holds over their location, a watcher's alarms open
// marked suppressedBy and nothing is sent for them; one digest tells of the parent problem with
// the count; when the parent clears, the alarms that still fire are told once.

/** Ten online devices of one location (a room each), watched by an offline watcher inhibited by `parent`, mailing an address and a channel. */
const watchedLocation = async (parent: (region: string) => InhibitedBy) => {
  const { region, sync } = await locationFleet(10);
  const teamMail = `${unique('team')}@example.com`;
  const channel = await createChannel({ name: 'team', type: 'email', emails: [teamMail] });
  const email = `${unique('ops')}@example.com`;
  const id = await watchers.create(offlineWatcher(region, email, { type: 'offline', channelIds: [channel.id], inhibitedBy: parent(region) }));
  return { region, id, email, teamMail, channel, sync };
};


describe('a location outage suppressing its devices\' alarms and releasing them', () => {
  it('opens the alarms suppressed and tells one parent digest with the count; when the location comes back partly, tells the alarms still firing once', async () => {
    const { start, at } = controlledClock();
    const { region, id, email, teamMail, channel, sync } = await watchedLocation(() => ({ condition: 'locationOffline', percent: 30 }));

    // six of ten devices go offline: 60% of the location
    at(60_000);
    await sync([0, 1, 2, 3, 4, 5]);
    await run();
    const open = await firing(id);
    expect(open).toHaveLength(6);
    for (const alarm of open) {
      expect(alarm.suppressedBy).toMatchObject({ condition: 'locationOffline', percent: 30, region, location: 'London' });
      expect(alarm.suppressedBy).not.toHaveProperty('room');
    }
    const since = open[0]!.suppressedBy!.since;
    expect(Date.parse(since)).toBeGreaterThanOrEqual(start + 60_000);
    expect(open.every((alarm) => alarm.suppressedBy!.since === since)).toBe(true);
    for (const to of [email, teamMail]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('Suppressed: 6 devices');
      expect(mails[0]!.text).toContain(`location ${region} / London: 60% of devices offline; 6 alarms of watcher`);
    }
    const log = (await deliveries.log(channel.id, 10)).items;
    expect(log.map((d) => `${d.type} ${d.status}`).sort()).toEqual(['alarms.inhibited delivered', 'alarms.raised suppressed']);

    // more runs while it holds, an hour on: nothing more is sent
    at(3600_000);
    await run();
    await tell();
    expect(await mailsTo(email)).toHaveLength(1);

    // four come back: 2 of 10 offline, the parent clears; the four clears are not told, the two still firing are, once
    at(2 * 3600_000);
    await sync([4, 5]);
    await run();
    await Promise.all([tell(), tell()]);
    await run();
    const left = await firing(id);
    expect(left.map((alarm) => alarm.devicesn).sort()).toEqual([`${region}-4`, `${region}-5`]);
    for (const alarm of left) expect(alarm).not.toHaveProperty('suppressedBy');
    for (const to of [email, teamMail]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(2);
      const release = mails.find((mail) => !mail.subject.includes('Suppressed'))!;
      expect(release.subject).toContain('2 devices offline');
      expect(release.text).toContain(`${region}-4`);
      expect(release.text).not.toContain(`${region}-0`);
    }
    const released = (await deliveries.log(channel.id, 10)).items.find((d) => d.type === 'alarms.raised' && d.status === 'delivered')!;
    expect(Date.parse(released.at)).toBeGreaterThanOrEqual(start + 2 * 3600_000);
    expect((await inhibitions.all()).filter((episode) => episode.watcherId === id)).toEqual([]);

    // a device going offline now is told at once (the parent no longer holds)
    await sync([4, 5, 6]);
    await run();
    expect(await mailsTo(email)).toHaveLength(3);
  });

  it('tells the release once when two runs race it', async () => {
    const { id, email, sync } = await watchedLocation(() => ({ condition: 'locationOffline', percent: 50 }));
    await sync([0, 1, 2, 3, 4]);
    await run();
    expect((await firing(id)).every((alarm) => alarm.suppressedBy !== undefined)).toBe(true);
    await sync([0]);
    // the device changes are evaluated first, then two notifier runs race the release, then one more
    await run();
    await Promise.all([tell(), tell(), run()]);
    await tell();
    const mails = await mailsTo(email);
    expect(mails.filter((mail) => mail.subject.includes('Suppressed'))).toHaveLength(1);
    expect(mails.filter((mail) => !mail.subject.includes('Suppressed'))).toHaveLength(1);
  });
});

describe('another watcher as the parent', () => {
  it('suppresses the alarms in a room where the parent watcher fires, raised in the same pass', async () => {
    const { region, sync } = await watchedLocation(() => ({ condition: 'roomOffline' }));
    const email = `${unique('child')}@example.com`;
    const parentId = await watchers.create(offlineWatcher(region, `${unique('parent')}@example.com`, { type: 'room down' }));
    const childId = await watchers.create(
      offlineWatcher(region, email, { type: 'codec offline', severity: 3, inhibitedBy: { condition: 'watcher', watcherId: parentId, over: 'room' } }),
    );
    await run();
    await sync([7]);
    await run();
    const [child] = await firing(childId);
    expect(child?.suppressedBy).toMatchObject({ condition: 'watcher', watcherId: parentId, over: 'room', room: 'Room 7' });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`room ${region} / London / Room 7: watcher`);
  });
});
