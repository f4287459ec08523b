import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceFilter } from '#lib/devices/deviceScope';
import { doc, tableName } from './client';
import { isConditionFailed } from './helpers';
import { toFilter } from './liveConnections';

/*
 * Tickets of live dashboards (docs/data-model.md "Live"). A ticket is stored under the SHA-256
 * of its value, so the table never holds a usable ticket; redeeming it is one conditional
 * delete, so it opens at most one connection.
 */
const ticketKey = (ticket: string) => ({ PK: `LIVETICKET#${createHash('sha256').update(ticket).digest('hex')}`, SK: 'TICKET' });

/** Stores a ticket (its hash) valid until `validUntil` (epoch ms) for a connection to `filter`. */
export const store = async (ticket: string, filter: DeviceFilter, validUntil: number): Promise<void> => {
  await doc.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...ticketKey(ticket), type: 'LiveTicket', filter, validUntil, expiresAt: Math.ceil(validUntil / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
};

/** Uses a ticket up: its filter if it existed, was unused and unexpired; otherwise undefined. */
export const redeem = async (ticket: string, now = Date.now()): Promise<DeviceFilter | undefined> => {
  try {
    const { Attributes } = await doc.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: ticketKey(ticket),
        ConditionExpression: 'attribute_exists(PK) AND validUntil > :now',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes ? toFilter(Attributes.filter) : undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};
