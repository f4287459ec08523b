import { silencedBy, type Silence } from '#lib/alarms/pure/silences';
import { alarmId, type AlarmKey } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import type { DueDelivery } from '#lib/notify/repository/deliveries';
import { releases, repeats } from '#lib/notify/repository/markers';
import type { MaintenanceWindow } from '#lib/maintenance/types';
import { lastClosedOpening, matchingWindows, openWindowsAt, type OpenWindow } from '#lib/maintenance/pure/windows';
import { mapConcurrent } from '#lib/shared/concurrency';
import { recordWork } from '#lib/shared/metrics';
import type { WatcherRecord } from '#lib/watchers/types';
import { heldDrafts, heldWatchers, withVendors } from './maintenanceRelease';
import { recordClosed, recordOpened } from './maintenanceHistory';
import { deliverer, iso, type NotificationSummary, type NotifierOptions } from './deliver';
import { collectInhibitions } from './inhibitionNotices';
import { audienceOf, notificationGate, notifiedAlarm } from './pure/notice';
import { collectLapses } from './lapses';
import { collectEscalations } from './escalations';
import { draftsFor, dueForRepeat, planDigests, repeatSlot } from './pure/plan';
import { runReads, type RunReads } from './runReads';
import { forIncidentTools } from './pagerduty/plan';
import type { DeliveryDraft } from './types';

export type { NotificationSummary } from './deliver';

const WRITES_IN_FLIGHT = 16;

/**
 * The notification engine the evaluator hands its work to, so that evaluating alarms never waits on a mail or a webhook. `run()` turns pending
 * notices into stored deliveries (one digest per watcher, run and target; deterministic ids,
 * so a resumed run stores nothing twice), adds repeat digests that are due, then attempts due
 * deliveries, oldest first, within the deadline and the per-run cap (deliver.ts). Whatever is
 * left stays stored and due: the next run carries it on (outbox pattern).
 */
export const notifier = (options: NotifierOptions) => {
  const delivery = deliverer(options);
  const { summary, inTime } = delivery;

  /** Deliveries this run stored that are due now: attempted before the (lagging) due index is read. */
  const fresh: DueDelivery[] = [];

  const store = async (planned: readonly DeliveryDraft[]): Promise<boolean> => {
    // incident tools take one event per alarm: their deliveries are split per alarm before they are stored
    const drafts = await forIncidentTools(planned);
    const stored = await mapConcurrent(drafts, WRITES_IN_FLIGHT, async (draft) => {
      const createdAt = iso(Date.now());
      return inTime() && (await deliveries.createIfAbsent(draft, createdAt)) ? createdAt : undefined;
    });
    for (const [i, createdAt] of stored.entries()) {
      if (createdAt === undefined) continue;
      summary.digests++;
      if (drafts[i]!.status === 'suppressed') summary.suppressed++;
      else fresh.push(deliveries.asStored(drafts[i]!, createdAt));
    }
    return inTime();
  };

  /**
   * Stores the digests of pending notices, then drops the notices they carry from their alarms.
   * The notice index only says which alarms to look at, and it lags (DESIGN §3): those alarms,
   * and the ones the run hands over (`written`), are read by key, so a digest carries every
   * notice its alarms hold now, and a notice is dropped only once a stored digest carries it.
   */
  const collectNotices = async (written: readonly AlarmKey[]): Promise<boolean> => {
    const discovered = (await alarms.pendingNotices()).map((p) => p.alarm);
    const wanted = [...new Map([...written, ...discovered].map((alarm) => [alarmId(alarm), alarm])).values()];
    if (wanted.length === 0) return true;
    const pending = await alarms.noticesOf(wanted);
    if (pending.length === 0) return true;
    if (!(await store(planDigests(pending.flatMap((p) => p.notices))))) return false;
    await mapConcurrent(pending, WRITES_IN_FLIGHT, async ({ alarm, notices }) => inTime() && (await alarms.noticesCollected(alarm, notices)));
    return inTime();
  };

  const repeatOf = async (watcher: WatcherRecord & { repeatIntervalSeconds: number }, active: readonly Silence[], maintenance: readonly OpenWindow[]): Promise<boolean> => {
    const now = Date.now();
    const interval = watcher.repeatIntervalSeconds;
    // the marker holds the start (ms) of the last slot done, so that slots of a changed interval
    // still compare (markers that held a slot index: `npm run migrate`)
    const slotStart = repeatSlot(now, interval) * interval * 1000;
    const lastStart = await repeats.lastSlot(watcher.id);
    if (lastStart !== undefined && lastStart >= slotStart) return true;
    // acknowledged or silenced alarms are never re-notified: someone is on them or chose quiet; nor those a maintenance window holds: the work is planned
    const firing = await alarms.firingOf(watcher.id);
    const target = await withVendors(firing, maintenance);
    const remindable = firing
      .filter((alarm) => notificationGate(alarm, [...silencedBy(alarm, active, iso(now)), ...matchingWindows(maintenance, target(alarm))]).remind)
      .map((alarm) => notifiedAlarm(alarm));
    const due = dueForRepeat(remindable, now, interval);
    if (due.length > 0) {
      const drafts = draftsFor({
        type: 'alarms.repeat',
        at: iso(slotStart),
        watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
        alarms: due,
        audience: audienceOf(watcher),
      });
      if (!(await store(drafts))) return false;
    }
    await repeats.done(watcher.id, slotStart, iso(now));
    return true;
  };

  /** Repeat digests, so an alarm nobody handles is not forgotten, of active watchers with `repeatIntervalSeconds`, one per interval. */
  const collectRepeats = async (reads: RunReads): Promise<boolean> => {
    const due = (await reads.watchers()).filter(
      (w): w is WatcherRecord & { repeatIntervalSeconds: number } => w.active && (w.repeatIntervalSeconds ?? 0) > 0,
    );
    if (due.length === 0) return true;
    const now = Date.now();
    const [active, windows] = await Promise.all([reads.silences(), reads.windows()]);
    const maintenance = openWindowsAt(windows, now);
    for (const watcher of due) if (!inTime() || !(await repeatOf(watcher, active, maintenance))) return false;
    return true;
  };

  /**
   * When a maintenance window closed since it was last told, so what still fails after the work is not kept quiet: the alarms that
   * fired inside that opening and still fire, unsilenced and held by no other open window, are
   * told once, one digest per watcher, dated the closing (so a second run, or one after a crash
   * before the marker, stores the same deliveries, which stores nothing twice). Then the marker.
   */
  const releaseOf = async (window: MaintenanceWindow, all: readonly WatcherRecord[], active: readonly Silence[], maintenance: readonly OpenWindow[], now: number): Promise<boolean> => {
    const opening = lastClosedOpening(window, now);
    if (!opening) return true;
    const told = await releases.lastClosed(window.id);
    if (told !== undefined && told >= opening.end) return true;
    for (const watcher of heldWatchers(window, all)) {
      if (!inTime()) return false;
      const drafts = await heldDrafts(window, opening, watcher, active, maintenance, now);
      if (drafts.length > 0 && !(await store(drafts))) return false;
    }
    if (!inTime()) return false;
    await recordClosed(window, opening, now); // its history (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"), before the marker ends the retries
    await releases.closed(window.id, opening.end, iso(now));
    return true;
  };

  /** Records the openings under way in their windows' history (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"): one consistent Get each when recorded already. */
  const recordOpenings = async (open: readonly OpenWindow[], now: number): Promise<boolean> => {
    for (const { window, opening } of open) {
      if (!inTime()) return false;
      await recordOpened(window, opening, now);
    }
    return true;
  };

  /** Releases of the maintenance windows that closed since they were last told, and the openings under way recorded. */
  const collectReleases = async (reads: RunReads): Promise<boolean> => {
    const windows = await reads.windows();
    if (windows.length === 0) return true;
    const now = Date.now();
    const [all, active] = await Promise.all([reads.watchers(), reads.silences()]);
    const maintenance = openWindowsAt(windows, now);
    if (!(await recordOpenings(maintenance, now))) return false;
    for (const window of windows) if (!inTime() || !(await releaseOf(window, all, active, maintenance, now))) return false;
    return true;
  };

  return {
    summary,
    /**
     * One pass: collect, then deliver, until `stopAt` (at most the deadline). `written`: the
     * alarms this run wrote notices on. Safe to call more than once per run, and by concurrent
     * runs: stored deliveries and claims never double.
     */
    async run(stopAt = options.deadline, written: readonly AlarmKey[] = []): Promise<NotificationSummary> {
      delivery.stopAt(stopAt);
      const before = { ...summary };
      // the watchers, silences and windows are read once, by the first collector that needs them
      const reads = runReads(Date.now());
      const collected =
        (await collectNotices(written)) &&
        (await collectRepeats(reads)) &&
        (await collectLapses(store, inTime, reads)) &&
        (await collectEscalations(store, inTime, reads)) &&
        (await collectReleases(reads)) &&
        (await collectInhibitions(store, inTime, Date.now(), reads));
      const delivered = await delivery.deliverDue(fresh.splice(0));
      summary.complete = summary.complete && collected && delivered;
      // mails sent and failed SES calls are counted by the SES mailer itself
      const figures = {
        NotificationsSent: summary.delivered - summary.mailed - (before.delivered - before.mailed),
        NotificationsRetried: summary.retrying - before.retrying,
        NotificationsFailed: summary.failed - before.failed,
        NotificationsSuppressed: summary.suppressed - before.suppressed,
      };
      if (Object.values(figures).some((n) => n > 0)) await recordWork('notifications', figures);
      return summary;
    },
    /** Stores one delivery and attempts it at once (a channel test). */
    sendNow: (draft: DeliveryDraft) => delivery.sendNow(draft),
  };
};
