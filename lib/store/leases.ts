import { docRow, entity } from '#lib/store/entity';
import type { LeaseStore } from '#lib/shared/lease';
import { and, expr } from '#lib/store/expression';
import { update, type Key } from '#lib/store/table';

/** A lease and pacing marker of background work (lib/store/leases.ts). */
const marker = (name: string, PK: string, type: string, notes: string) => {
  const declared = entity({ type, key: (_: void) => ({ PK, SK: 'STATE' }), fromItem: (item) => item });
  dataModel: docRow(declared, { section: 'Alarms, outbox, evaluator marker', name, PK: `\`${PK}\``, SK: '`STATE`', notes });
  return declared;
};
export const EvaluatorMarker = marker('Evaluator marker', 'ALARM_EVALUATOR', 'AlarmEvaluator', '`lastRunAt` (epoch ms of the last start), `leaseUntil`, `runId`');
export const SyncMarker = marker(
  'Sync marker',
  'DEVICE_SYNC',
  'DeviceSync',
  "`lastRunAt` (epoch ms of the last start), `leaseUntil`, `runId` (the sync's lease, same mechanism: lib/store/leases.ts)",
);

// A lease item of background work with its pacing (ADRs 0114, 0166; lib/shared/lease.ts holds it).
const leaseItem = (key: Key, type: string): LeaseStore => ({
  // free when no other run holds it and (with `dueAt`) the last run started by `dueAt`
  acquire: async (runId, now, leaseUntil, dueAt) => {
    const due = dueAt === undefined ? undefined : expr('(attribute_not_exists(#lastRunAt) OR #lastRunAt <= :due)', { due: dueAt });
    return !!(await update(key, { set: { type, leaseUntil, runId } }, and(expr('(attribute_not_exists(#leaseUntil) OR #leaseUntil < :now)', { now }), due)));
  },
  renew: async (runId, leaseUntil) => !!(await update(key, { set: { leaseUntil } }, expr('#runId = :run AND #leaseUntil > :zero', { run: runId, zero: 0 }))),
  // a run that took over an expired lease records its own start (undefined: unpaced)
  release: async (runId, startedAt) => {
    await update(key, { set: { leaseUntil: 0, ...(startedAt === undefined ? {} : { lastRunAt: startedAt }) } }, expr('#runId = :run', { run: runId }));
  },
});

/** The alarm evaluator's lease and pacing marker (docs/adr/0114). */
export const alarmRuns = leaseItem(EvaluatorMarker.key(), EvaluatorMarker.type);
/** The device sync's lease and pacing marker (docs/adr/0166). */
export const syncRuns = leaseItem(SyncMarker.key(), SyncMarker.type);
