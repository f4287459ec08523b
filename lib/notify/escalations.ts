import { silencedBy, type Silence } from '#lib/alarms/pure/silences';
import { alarmId, type OpenAlarm } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import { matchingWindows, openWindowsAt, type OpenWindow } from '#lib/maintenance/pure/windows';
import type { EscalationStep, WatcherRecord } from '#lib/watchers/types';
import { iso } from './deliver';
import { withVendors } from './maintenanceRelease';
import { notificationGate, notifiedAlarm } from './pure/notice';
import { draftsFor } from './pure/plan';
import type { RunReads } from './runReads';
import type { DeliveryDraft } from './types';

const MINUTE_MS = 60_000;

/** An acknowledgement still standing at `now` (one whose `ackUntil` passed has lapsed, even before the notifier removes it). */
const acknowledgedAt = (alarm: OpenAlarm, now: string): boolean =>
  alarm.acknowledgement !== undefined && (alarm.acknowledgement.ackUntil === undefined || alarm.acknowledgement.ackUntil > now);

/**
 * Where an alarm's escalation clock starts: when it fired, the end of its last hold, or its last
 * unacknowledgement (a removed or lapsed acknowledgement), whichever is latest. Every input is
 * stored on the alarm, so racing runs agree on it, and on the due time of each step.
 */
export const escalationStart = (alarm: Pick<OpenAlarm, 'raisedAt' | 'escalationFrom' | 'ackEvents'>): string => {
  const unacked = (alarm.ackEvents ?? []).filter((event) => event.action === 'unack').map((event) => event.at);
  return [alarm.raisedAt, alarm.escalationFrom ?? '', ...unacked].reduce((a, b) => (b > a ? b : a));
};

/** The steps due at `now` that the alarm has not reached yet, as (1-based step, due instant). Pure. */
export const dueSteps = (alarm: Pick<OpenAlarm, 'raisedAt' | 'escalationFrom' | 'ackEvents' | 'escalationStep'>, steps: readonly EscalationStep[], now: number) => {
  const start = Date.parse(escalationStart(alarm));
  return steps
    .map((step, i) => ({ step: i + 1, at: start + step.afterMinutes * MINUTE_MS, targets: step }))
    .filter(({ step, at }) => step > (alarm.escalationStep ?? 0) && at <= now);
};

/**
 * Escalation of one watcher's firing alarms (docs/guide/rules/alarms.md "Escalation reaches each step once"). An
 * acknowledged alarm is skipped; one held by a silence, an open maintenance window or its parent condition is marked
 * held, and the first run that finds the hold over restarts its clock there (one conditional write: racing runs agree).
 * Every step due is told once: one `alarms.escalated` digest to the step's channels and addresses, its ids fixed by the
 * alarm, its firing and the step (a racing or resumed run stores nothing twice), then the step recorded on the alarm by
 * a conditional write (only a higher step replaces it).
 */
const escalateWatcher = async (
  watcher: WatcherRecord & { escalation: EscalationStep[] },
  store: (drafts: readonly DeliveryDraft[]) => Promise<boolean>,
  inTime: () => boolean,
  active: readonly Silence[],
  maintenance: readonly OpenWindow[],
  now: number,
): Promise<boolean> => {
  const firing = (await alarms.firingOf(watcher.id)).filter((alarm) => (alarm.escalationStep ?? 0) < watcher.escalation.length && !acknowledgedAt(alarm, iso(now)));
  if (firing.length === 0) return true;
  const target = await withVendors(firing, maintenance);
  for (const alarm of firing) {
    if (!inTime()) return false;
    const held = notificationGate(alarm, [...silencedBy(alarm, active, iso(now)), ...matchingWindows(maintenance, target(alarm))]).suppressed;
    if (held) {
      if (!alarm.escalationHeld) await alarms.holdEscalation(alarm);
      continue;
    }
    // the hold is over: the clock counts from now; a run that lost the race reads the winner's start next time
    if (alarm.escalationHeld) {
      if (await alarms.releaseEscalation(alarm, iso(now))) alarm.escalationFrom = iso(now);
      continue;
    }
    for (const { step, at, targets } of dueSteps(alarm, watcher.escalation, now)) {
      const drafts = draftsFor({
        type: 'alarms.escalated',
        at: iso(at),
        watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
        alarms: [notifiedAlarm(alarm)],
        audience: { sendEmail: true, emails: targets.emails, channelIds: targets.channelIds },
        carrying: `escalation:${alarmId(alarm)}:${alarm.raisedAt}:${step}`,
        step,
      });
      if (!(await store(drafts))) return false;
      await alarms.escalated(alarm, step, iso(now));
    }
  }
  return true;
};

/** Escalation of every active watcher that has steps: their firing alarms read from each watcher's own partition. */
export const collectEscalations = async (store: (drafts: readonly DeliveryDraft[]) => Promise<boolean>, inTime: () => boolean, reads: RunReads): Promise<boolean> => {
  const escalating = (await reads.watchers()).filter((w): w is WatcherRecord & { escalation: EscalationStep[] } => w.active && (w.escalation?.length ?? 0) > 0);
  if (escalating.length === 0) return true;
  const now = Date.now();
  const [active, windows] = await Promise.all([reads.silences(), reads.windows()]);
  const maintenance = openWindowsAt(windows, now);
  for (const watcher of escalating) if (!inTime() || !(await escalateWatcher(watcher, store, inTime, active, maintenance, now))) return false;
  return true;
};
