import { batchWrite, queryAll, queryPages } from './helpers';

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
