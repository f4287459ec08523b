import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from '#lib/store/client';

/*
 * One marker per watcher with repeat notifications: the last repeat slot whose digest was
 * stored. Written after the digest's deliveries (whose ids the slot fixes), so a crash in
 * between makes the next run plan the same deliveries again, which stores nothing twice.
 */
const keys = (watcherId: string) => ({ PK: `REPEAT#${watcherId}`, SK: 'REPEAT' });

export const lastSlot = async (watcherId: string): Promise<number | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(watcherId), ConsistentRead: true }));
  return typeof Item?.slot === 'number' ? Item.slot : undefined;
};

export const done = async (watcherId: string, slot: number, at: string): Promise<void> => {
  await doc.send(new PutCommand({ TableName: tableName(), Item: { ...keys(watcherId), type: 'RepeatMarker', watcherId, slot, at } }));
};
