/**
 * The cold-start floor of DESIGN §8: a minified bundle of middy + DocumentClient doing one
 * GetItem. Every function is measured against this reference, built with the same options.
 */
import middy from '@middy/core';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = middy<{ id: string }>().handler(async (event) => {
  const { Item } = await doc.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.id, SK: event.id } }),
  );
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
});
