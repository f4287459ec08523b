import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from '#lib/store/client';

/* When the alarm engine last finished a full reconciliation pass (epoch ms). */
const KEY = { PK: 'ALARM_EVALUATOR', SK: 'RECONCILED' };

export const reconciliation = {
  async lastAt(): Promise<number> {
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: KEY, ConsistentRead: true }));
    return Number(Item?.lastFullRunAt ?? 0);
  },
  async done(at: number): Promise<void> {
    await doc.send(new PutCommand({ TableName: tableName(), Item: { ...KEY, type: 'AlarmReconciliation', lastFullRunAt: at } }));
  },
};
