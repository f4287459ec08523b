import type { Silence } from '#lib/alarms/pure/silences';
import * as silences from '#lib/alarms/repository/silences';
import * as maintenanceWindows from '#lib/maintenance/repository/windows';
import { openWindowsAt, type OpenWindow } from '#lib/maintenance/pure/windows';

/** What keeps a run's transitions from being sent: the silences current and the maintenance windows open at its instant. */
export interface Quiet {
  silences: readonly Silence[];
  maintenance: readonly OpenWindow[];
}

/** Read once per run: one Query of the current silences, one of the (few) maintenance windows. */
export const quietAt = async (at: string): Promise<Quiet> => {
  const [silenceList, maintenance] = await Promise.all([silences.current(at), maintenanceWindows.all()]);
  return { silences: silenceList, maintenance: openWindowsAt(maintenance, Date.parse(at)) };
};
