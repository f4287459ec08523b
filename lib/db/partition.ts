import { batchWrite, deleteExisting, queryAll, queryPages } from './helpers';

/**
 * Operations on a collection kept whole in one partition (`PK=<partition>`), such as the
 * filters and the filters configurations: count and keep-list delete are single Queries.
 */

/** Number of items in the partition: `Select: COUNT` over every page, nothing transferred. */
export const countPartition = async (partition: string): Promise<number> => {
  let count = 0;
  for await (const page of queryPages({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': partition }, Select: 'COUNT' })) {
    count += page.Count ?? 0;
  }
  return count;
};

/**
 * Deletes every item of the partition whose sort key is not in `keep`, in retried batches.
 * Idempotent: repeating it deletes nothing more. Answers how many items it deleted.
 */
export const keepOnlyInPartition = async (partition: string, keep: ReadonlySet<string>): Promise<number> => {
  const keys = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: 'PK, SK',
  });
  const doomed = keys.filter((key) => !keep.has(String(key.SK)));
  await batchWrite(doomed.map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } })));
  return doomed.length;
};

/**
 * `remove`, `keepOnly` and `count` of a collection of numbered records kept whole in one
 * partition (filters, filters configurations): one implementation, spread into each repository.
 */
export const numberedCollection = (partition: string, sortKey: (id: number) => string, missing: () => Error) => ({
  async remove(id: number): Promise<void> {
    await deleteExisting({ PK: partition, SK: sortKey(id) }, missing);
  },

  /** Deletes every record whose id is not in `ids` (`[]` deletes all); answers how many went. */
  async keepOnly(ids: readonly number[]): Promise<number> {
    return keepOnlyInPartition(partition, new Set(ids.map(sortKey)));
  },

  async count(): Promise<number> {
    return countPartition(partition);
  },
});
