import { collection } from '#lib/store/entity';
import { batchWrite, deleteRequest, EXISTS, must, remove } from '#lib/store/table';

/**
 * `remove`, `keepOnly` and `count` of a collection of numbered records kept whole in one
 * partition (filters, filters configurations): one implementation, spread into each repository.
 * Count and keep-list delete are single Queries.
 */
export const numberedCollection = (partition: string, sortKey: (id: number) => string, missing: () => Error) => ({
  async remove(id: number): Promise<void> {
    await must(remove({ PK: partition, SK: sortKey(id) }, EXISTS), missing);
  },

  /**
   * Deletes every record whose id is not in `ids` (`[]` deletes all), in retried batches; answers
   * how many went. Idempotent: repeating it deletes nothing more.
   */
  async keepOnly(ids: readonly number[]): Promise<number> {
    const keep = new Set(ids.map(sortKey));
    const doomed = (await collection(partition).all({ project: ['PK', 'SK'] })).filter((key) => !keep.has(String(key.SK)));
    await batchWrite(doomed.map((key) => deleteRequest({ PK: String(key.PK), SK: String(key.SK) })));
    return doomed.length;
  },

  async count(): Promise<number> {
    return collection(partition).count();
  },
});
