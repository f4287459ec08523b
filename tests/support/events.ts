import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** A REST (v1) API Gateway proxy event, as API Gateway or serverless-offline sends it. */
export const apiEvent = (overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent => ({
  httpMethod: 'POST',
  resource: '/test',
  path: '/test',
  body: null,
  headers: {},
  multiValueHeaders: {},
  isBase64Encoded: false,
  pathParameters: null,
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  stageVariables: null,
  requestContext: { requestId: 'req-test' } as APIGatewayProxyEvent['requestContext'],
  ...overrides,
});

export const jsonEvent = (body: unknown, overrides: Partial<APIGatewayProxyEvent> = {}) =>
  apiEvent({ body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' }, ...overrides });

export const lambdaContext = (): Context =>
  ({
    awsRequestId: 'aws-req-test',
    functionName: 'test-fn',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:test-fn',
    memoryLimitInMB: '128',
    logGroupName: '/aws/lambda/test-fn',
    logStreamName: 'stream',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 10_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  }) as Context;
