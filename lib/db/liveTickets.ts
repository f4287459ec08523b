import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceFilter } from '#lib/devices/deviceScope';
import { isUnscoped, type AccessScope, type ScopeEntry } from '#lib/shared/access';
import { doc, tableName } from '#lib/store/client';
import { isConditionFailed } from './helpers';
import { toAccess, toFilter } from './liveConnections';

/*
 * Tickets of live dashboards (docs/data-model.md "Live"). A ticket is stored under the SHA-256
 * of its value, so the table never holds a usable ticket; redeeming it is one conditional
 * delete, so it opens at most one connection.
 */
const ticketKey = (ticket: string) => ({ PK: `LIVETICKET#${createHash('sha256').update(ticket).digest('hex')}`, SK: 'TICKET' });

/** What a ticket opens: a connection to `filter`, hearing only of rooms within `access` (empty: everywhere). */
export interface Redeemed {
  filter: DeviceFilter;
  access: ScopeEntry[];
}

/**
 * Stores a ticket (its hash) valid until `validUntil` (epoch ms) for a connection to `filter`,
 * within the scope of the principal it was issued to (`access`, kept only when it narrows).
 */
export const store = async (ticket: string, filter: DeviceFilter, validUntil: number, access: AccessScope = []): Promise<void> => {
  await doc.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...ticketKey(ticket), type: 'LiveTicket', filter, ...(isUnscoped(access) ? {} : { access }), validUntil, expiresAt: Math.ceil(validUntil / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
};

/** Uses a ticket up: its filter and scope if it existed, was unused and unexpired; otherwise undefined. */
export const redeem = async (ticket: string, now = Date.now()): Promise<Redeemed | undefined> => {
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
    return Attributes ? { filter: toFilter(Attributes.filter), access: toAccess(Attributes.access) } : undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};
