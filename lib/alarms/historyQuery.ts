import * as alarmHistory from '#lib/db/alarmHistory';
import type { Page } from '#lib/db/pages';
import { Invalid } from '#lib/errors';
import { historyFilter, type HistoryQuery, type HistoryRecord } from './history';
import { historyDays } from './settings';

/** GET /alarms/history: one page of cleared alarms, newest first, from the key built for the query. */
export const queryHistory = async (query: HistoryQuery): Promise<Page<HistoryRecord>> => {
  const filter = historyFilter(query, Date.now(), historyDays());
  if ('problems' in filter) throw new Invalid(filter.problems[0]!.message, filter.problems);
  return alarmHistory.query(filter, query.limit ? Number(query.limit) : 100, query.cursor);
};
