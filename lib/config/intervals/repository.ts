import { Conflict, NotFound } from '#lib/shared/errors';
import type { IntervalRecord, Intervals } from '#lib/config/intervals/types';
import { IntervalEntity, INTERVALS, nextSequence } from '#lib/config/entities';
import { collection } from '#lib/store/entity';
import { patchOf } from '#lib/store/expression';
import { EXISTS, must, NEW } from '#lib/store/table';

// All interval settings live in one small partition, sorted by id: list = one Query.
const notFound = (id: number) => new NotFound(`Interval ${id} not found`);

export const intervals = {
  async list(): Promise<IntervalRecord[]> {
    return (await collection(INTERVALS).all()).map(IntervalEntity.fromItem);
  },

  async get(id: number): Promise<IntervalRecord> {
    return must(IntervalEntity.find(id), () => notFound(id));
  },

  /** Sets only the fields given, in one conditional write: concurrent patches never undo each other. */
  async update(id: number, patch: Partial<Intervals>): Promise<IntervalRecord> {
    return IntervalEntity.fromItem(await must(IntervalEntity.update(id, patchOf(patch), EXISTS, 'ALL_NEW'), () => notFound(id)));
  },

  async remove(id: number): Promise<void> {
    await must(IntervalEntity.remove(id, EXISTS), () => notFound(id));
  },

  async create(values: Intervals): Promise<IntervalRecord> {
    const id = await nextSequence('interval');
    const now = new Date().toISOString();
    const record: IntervalRecord = { id, ...values };
    // a fresh sequence number: the condition only guards against a reset sequence
    await must(IntervalEntity.put(id, { ...record, version: 1, createdAt: now, updatedAt: now }, NEW), () => new Conflict(`Interval ${id} exists`));
    return record;
  },
};
