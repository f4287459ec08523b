import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import type { Page } from '#lib/store/paging';
import { Invalid } from '#lib/shared/errors';
import { isUnscoped, narrowToAccessScope, type AccessScope } from '#lib/shared/access';
import { historyDays } from '#lib/shared/retention';
import { historyFilter, type HistoryQuery, type HistoryRecord } from './pure/history';

/**
 * GET /alarms/history: one page of cleared alarms, newest first, from the key built for the
 * query; for a scoped caller only the records of the places the query shares with its scope.
 */
export const queryHistory = async (query: HistoryQuery, access: AccessScope = []): Promise<Page<HistoryRecord>> => {
  const filter = historyFilter(query, Date.now(), historyDays());
  if ('problems' in filter) throw new Invalid(filter.problems[0]!.message, filter.problems);
  const limit = query.limit ? Number(query.limit) : 100;
  if (isUnscoped(access)) return alarmHistory.query(filter, limit, query.cursor);
  const within = narrowToAccessScope({ region: filter.region, location: filter.location, room: filter.room }, access);
  if (within.length === 0) return { items: [], nextCursor: null };
  return alarmHistory.queryWithin(filter, within, limit, query.cursor);
};
