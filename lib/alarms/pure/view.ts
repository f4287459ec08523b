import { alarmId, type Acknowledgement, type OpenAlarm } from '#lib/alarms/types';

// An open alarm as the API and the live feed show it: shaped here, apart from the repository that
// reads it and the change seam that announces it, so that neither has to import the other.

/** An acknowledgement still standing: one whose `ackUntil` passed has lapsed, even before the notifier removes it. */
const standing = (ack: Acknowledgement | undefined): Acknowledgement | undefined =>
  ack?.ackUntil !== undefined && ack.ackUntil <= new Date().toISOString() ? undefined : ack;
export const viewOf = ({
  notify: _notify,
  notified: _notified,
  acknowledgement,
  ackEvents: _events,
  escalations: _escalations,
  escalationFrom: _from,
  escalationHeld: _held,
  flips: _flips,
  quietSince: _quiet,
  flappingSince,
  ...alarm
}: OpenAlarm) => ({
  id: alarmId(alarm),
  ...alarm,
  ...(flappingSince === undefined ? {} : { flapping: true as const, flappingSince }),
  ...standing(acknowledgement),
});
/** An open alarm as GET /alarms answers it (the acknowledgement flattened; silences are added by the domain). */
export type AlarmView = ReturnType<typeof viewOf>;
