import { collection } from '#lib/store/entity';
import { batchWrite, deleteRequest, EXISTS, must, remove } from '#lib/store/table';

/** `remove`, `keepOnly` and `count` of numbered records in one partition (filters, filters configurations). */
export const numberedCollection = (partition: string, sortKey: (id: number) => string, missing: () => Error) => ({
  async remove(id: number): Promise<void> {
    await must(remove({ PK: partition, SK: sortKey(id) }, EXISTS), missing);
  },

  /** Deletes every record not in `ids` (`[]`: all), answering how many went; idempotent (docs/guide/rules/config.md "Keep-list deletes"). */
  async keepOnly(ids: readonly number[]): Promise<number> {
    const keep = new Set(ids.map(sortKey));
    const doomed = (await collection(partition).all({ project: ['PK', 'SK'] })).filter((key) => !keep.has(String(key.SK)));
    await batchWrite(doomed.map((key) => deleteRequest({ PK: String(key.PK), SK: String(key.SK) })));
    return doomed.length;
  },

  count: async (): Promise<number> => collection(partition).count(),
});
