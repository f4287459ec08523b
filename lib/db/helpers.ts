import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';

export type Item = Record<string, unknown>;

/** Zero-padded so that numeric ids sort as numbers inside a sort key. */
export const padId = (id: number): string => String(id).padStart(15, '0');

export const isConditionFailed = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

/** Every page of a Query; for collections the design keeps small (settings, rules). */
export const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};

/** Atomic sequence: each call returns the next integer for `name`, starting at 1. */
export const nextSequence = async (name: string): Promise<number> => {
  const { Attributes } = await doc.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: 'SEQUENCE', SK: name },
      UpdateExpression: 'ADD #value :one SET #type = :type',
      ExpressionAttributeNames: { '#value': 'value', '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'Sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value);
};

/**
 * `SET` expression for a partial update that also bumps `version` and `updatedAt`,
 * so every write of a record is visible to optimistic-concurrency checks.
 */
export const patchExpression = (patch: Item, now: string) => {
  const names: Record<string, string> = { '#version': 'version', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':one': 1, ':now': now };
  const sets = ['#version = #version + :one', '#updatedAt = :now'];
  Object.entries(patch).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};
