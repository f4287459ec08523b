import { silencedBy } from '#lib/alarms/pure/silences';
import { alarmId, type AckEvent } from '#lib/alarms/types';
import * as ackLapses from '#lib/alarms/repository/ackLapses';
import * as alarms from '#lib/alarms/repository/alarms';
import { matchingWindows, openWindowsAt } from '#lib/maintenance/pure/windows';
import { iso } from './deliver';
import { audienceOf, notifiedAlarm } from './pure/notice';
import { withVendors } from './maintenanceRelease';
import { draftsFor } from './pure/plan';
import type { RunReads } from './runReads';
import type { DeliveryDraft } from './types';

/**
 * Acknowledgements whose `ackUntil` passed (docs/guide/rules/alarms.md "An ackUntil lapses once: a timer item, a fixed reminder id and a conditional removal").
 * For each due timer whose acknowledgement still stands on its alarm: a firing alarm is reminded
 * once, one `alarms.repeat` digest to the watcher's targets dated `ackUntil` (ids fixed by the
 * alarm and its acknowledgement: a racing or resumed run stores nothing twice; stored as
 * suppressed while a silence, an open maintenance window or a parent condition holds it), then
 * the acknowledgement is removed and its lapse recorded by one conditional write (only one run's
 * holds), then the timer goes. A stale timer (its acknowledgement replaced, removed, or its alarm cleared) just goes.
 */
export const collectLapses = async (store: (drafts: readonly DeliveryDraft[]) => Promise<boolean>, inTime: () => boolean, reads: RunReads): Promise<boolean> => {
  const now = Date.now();
  const due = await ackLapses.due(iso(now));
  if (due.length === 0) return true;
  const [all, active, windows, open] = await Promise.all([reads.watchers(), reads.silences(), reads.windows(), alarms.openAmong(due)]);
  const watcherOf = new Map(all.map((w) => [w.id, w]));
  const openById = new Map(open.map((alarm) => [alarmId(alarm), alarm]));
  const maintenance = openWindowsAt(windows, now);
  const target = await withVendors(open, maintenance);
  for (const lapse of due) {
    if (!inTime()) return false;
    const alarm = openById.get(alarmId(lapse));
    const ack = alarm?.acknowledgement;
    if (alarm && ack?.acknowledgedAt === lapse.acknowledgedAt && ack.ackUntil === lapse.ackUntil) {
      const watcher = watcherOf.get(alarm.watcherId);
      if (alarm.state === 'firing' && watcher?.active) {
        const held = silencedBy(alarm, active, iso(now)).length > 0 || matchingWindows(maintenance, target(alarm)).length > 0 || alarm.suppressedBy !== undefined;
        const drafts = draftsFor(
          {
            type: 'alarms.repeat',
            at: lapse.ackUntil,
            watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
            alarms: [notifiedAlarm(alarm)],
            audience: audienceOf(watcher),
            carrying: `ack-lapse:${alarmId(alarm)}:${lapse.acknowledgedAt}`,
          },
          () => held,
        );
        if (!(await store(drafts))) return false;
      }
      const event: AckEvent = { action: 'unack', at: lapse.ackUntil, by: 'system', lapsed: true };
      await alarms.lapse(alarm, { acknowledgedAt: lapse.acknowledgedAt, ackUntil: lapse.ackUntil }, event, (alarm.ackEvents?.length ?? 0) < alarms.MAX_ACK_EVENTS);
    }
    await ackLapses.done(lapse);
  }
  return inTime();
};
