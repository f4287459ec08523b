import type { MaintenanceWindow, WindowMatchers } from '#lib/maintenance/types';
import { docRow, entity, someTexts, texts } from '#lib/store/entity';
const lifecycle = 'Alarm lifecycle, history, device connectivity';

export const MAINTENANCE = 'MAINTENANCE';
/** A recurring maintenance window (docs/guide/rules/maintenance.md "Maintenance windows in one partition, ids in creation order"): few, in one partition sorted by UUIDv7 id, no index read. */
export const MaintenanceWindowEntity = /* @__PURE__ */ entity({
  type: 'MaintenanceWindow',
  key: (id: string) => ({ PK: MAINTENANCE, SK: `MAINTENANCE#${id}` }),
  fromItem: (item): MaintenanceWindow => ({
    id: String(item.id),
    matchers: item.matchers as WindowMatchers,
    schedule: item.schedule as MaintenanceWindow['schedule'],
    ...texts(item, 'comment', 'createdBy', 'createdAt', 'updatedAt'),
    ...someTexts(item, 'startsAt', 'endsAt'),
  }),
});
dataModel: docRow(MaintenanceWindowEntity, { section: lifecycle, PK: '`MAINTENANCE`', SK: '`MAINTENANCE#<uuidv7>`',
  notes: '`id, matchers, schedule {zone, weekly or rrule, durationMinutes}, startsAt?, endsAt?, comment, createdBy, createdAt, updatedAt, version`; `until` (ms) while it counts against the cap; `expiresAt` after its last opening' });

/** One opening or closing of a maintenance window, as its history lists it (docs/guide/rules/maintenance.md "A window's openings are recorded in its own history, start and end once each"). */
export interface MaintenanceEvent {
  windowId: string;
  event: 'opened' | 'closed';
  /** When it opened (the opening's start) or closed (its end), ISO 8601. */
  at: string;
  opening: { start: string; end: string };
  /** When a run of the engine recorded it. */
  recordedAt: string;
}
/** A window's history partition, newest first by `at`; an opening's start and end each once (`attribute_not_exists`). */
export const maintenanceHistoryPk = (windowId: string) => `MAINTHIST#${windowId}`;
const eventNotes = '`windowId, event, at, opening {start, end}, recordedAt, expiresAt` (ALARM_HISTORY_DAYS after `at`); put if absent, so racing runs record it once';
export const MaintenanceEventEntity = /* @__PURE__ */ entity({
  type: 'MaintenanceEvent',
  key: ({ windowId, event, at }: Pick<MaintenanceEvent, 'windowId' | 'event' | 'at'>) => ({ PK: maintenanceHistoryPk(windowId), SK: `${at}#${event}` }),
  fromItem: (item): MaintenanceEvent => ({
    windowId: String(item.windowId),
    event: item.event === 'closed' ? 'closed' : 'opened',
    at: String(item.at),
    opening: item.opening as MaintenanceEvent['opening'],
    recordedAt: String(item.recordedAt),
  }),
});
dataModel: docRow(MaintenanceEventEntity, { section: lifecycle, PK: '`MAINTHIST#<windowId>`', SK: '`<at>#<opened|closed>`', notes: eventNotes });
