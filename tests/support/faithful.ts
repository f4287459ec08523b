import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { freePort } from '../../scripts/local/ports';

/*
 * The faithful mode of the local store (DESIGN §3): an HTTP proxy between the SDK and DynamoDB
 * Local that behaves where DynamoDB differs from it: DynamoDB Local answers every request as
 * DynamoDB does, but its indexes never lag and it never throttles.
 *
 * - Index reads lag. Every table has a hidden replica (`<table>__lagged`) that receives each
 *   item's new state `lagMs` after the write that made it; Query and Scan with an IndexName are
 *   answered from the replica. An item written within the lag is missing from the index or shows
 *   its previous version; one deleted within the lag is still there, exactly like a GSI fed
 *   asynchronously from the base table. Base-table reads stay strongly consistent.
 * - Requests are throttled at `throttleRate`: a whole request answered
 *   ProvisionedThroughputExceededException, or (batches) part of it handed back as
 *   UnprocessedItems / UnprocessedKeys; a throttled TransactWriteItems is cancelled whole
 *   (TransactionCanceledException, reason ThrottlingError) and writes nothing.
 * - Transactions: every item a committed TransactWriteItems puts, updates or deletes reaches the
 *   indexes after the lag, like a single write; `conflictRate` of them are cancelled as
 *   DynamoDB cancels one that meets another transaction on an item (reason TransactionConflict).
 * - DynamoDB's limits, checked here too so that this layer holds them whatever the engine
 *   behind it: index key attributes obey key limits (partition 2,048 bytes, sort 1,024, never
 *   an empty string), expressions at most 4 KB, no ConsistentRead on a global secondary index,
 *   items at most 400 KB counted in UTF-8 bytes.
 *
 * The proxy knows nothing of our key formats: it reads table definitions from CreateTable and
 * DescribeTable like any client.
 */

export interface FaithfulOptions {
  /** How long a write takes to reach the indexes (ms). */
  lagMs: number;
  /** Share of data requests throttled, 0..1. */
  throttleRate: number;
  /** Share of TransactWriteItems cancelled by a conflict with another transaction, 0..1 (default 0). */
  conflictRate?: number;
  /** Random numbers (tests pass a seeded one to make throttling reproducible). */
  random?: () => number;
}

export interface FaithfulStore {
  endpoint: string;
  /** Lets the lag pass at once: resolves once every write made so far has reached the indexes. */
  settle: () => Promise<void>;
  configure: (options: Partial<FaithfulOptions>) => void;
  /** What the proxy did: throttled requests, partial batches, refusals, replicated writes. */
  stats: { throttled: number; partial: number; refused: number; replicated: number; conflicts: number };
  close: () => Promise<void>;
}

const REPLICA = '__lagged';
const DATA_OPS = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactWriteItems']);
const MAX_EXPRESSION = 4096;
const MAX_ITEM = 400 * 1024;

type AttributeValue = Record<string, unknown>;
type Item = Record<string, AttributeValue>;
interface KeyAttrs {
  hash: string;
  range?: string | undefined;
}
interface TableShape extends KeyAttrs {
  /** Key attributes of every global secondary index. */
  indexKeys: KeyAttrs[];
}
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB's size of an attribute value (close enough to judge the 400 KB item limit). */
const valueSize = (value: AttributeValue): number => {
  const [type, v] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return bytes(String(v));
    case 'N':
      return Math.ceil(String(v).length / 2) + 1;
    case 'B':
      return Buffer.from(String(v), 'base64').length;
    case 'SS':
    case 'NS':
    case 'BS':
      return (v as string[]).reduce((n, s) => n + bytes(s), 0);
    case 'L':
      return 3 + (v as AttributeValue[]).reduce((n, e) => n + 1 + valueSize(e), 0);
    case 'M':
      return 3 + Object.entries(v as Item).reduce((n, [k, e]) => n + 1 + bytes(k) + valueSize(e), 0);
    default:
      return 1;
  }
};
export const itemSize = (item: Item): number => Object.entries(item).reduce((n, [k, v]) => n + bytes(k) + valueSize(v), 0);

const validation = (message: string): Answer => ({ status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', message } });
/** A transaction DynamoDB cancels whole: `reason` on the action at `index`, None on the others. */
const cancelled = (actions: number, index: number, reason: { Code: string; Message: string }): Answer => {
  const reasons = Array.from({ length: actions }, (_, i) => (i === index ? reason : { Code: 'None' }));
  return {
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  };
};

/** One action of a TransactWriteItems, as the wire carries it. */
interface TransactAction {
  Put?: { TableName: string; Item: Item } & Record<string, unknown>;
  Update?: { TableName: string; Key: Item } & Record<string, unknown>;
  Delete?: { TableName: string; Key: Item } & Record<string, unknown>;
  ConditionCheck?: { TableName: string; Key: Item } & Record<string, unknown>;
}
const actionBody = (action: TransactAction) => (action.Put ?? action.Update ?? action.Delete ?? action.ConditionCheck)!;

const throttled = (): Answer => ({
  status: 400,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
});

/** The problem with an index key value, if DynamoDB would refuse it. */
const indexKeyProblem = (attribute: string, value: AttributeValue | undefined, role: 'hash' | 'range'): string | undefined => {
  if (value === undefined || !('S' in value)) return undefined;
  const s = String(value.S);
  if (s === '') return `One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ?, IndexKey: ${attribute}`;
  const limit = role === 'hash' ? 2048 : 1024;
  if (bytes(s) > limit) return `One or more parameter values were invalid: Size of ${role === 'hash' ? 'hashkey' : 'rangekey'} has exceeded the maximum size limit of ${limit} bytes (${attribute})`;
  return undefined;
};

/** Attributes an UpdateExpression's SET clause assigns a plain value to: attribute name -> value placeholder. */
const setAssignments = (expression: string, names: Record<string, string>): Map<string, string> => {
  const assigned = new Map<string, string>();
  for (const match of expression.matchAll(/(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/g)) {
    const name = match[1]!.startsWith('#') ? names[match[1]!] : match[1];
    if (name) assigned.set(name, match[2]!);
  }
  return assigned;
};

export const startFaithfulStore = async (upstream: string, initial: FaithfulOptions): Promise<FaithfulStore> => {
  const options: FaithfulOptions = { ...initial };
  const random = () => (options.random ?? Math.random)();
  const stats = { throttled: 0, partial: 0, refused: 0, replicated: 0, conflicts: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(upstream);
  const shapes = new Map<string, TableShape>();
  let inFlight = 0;
  let idle: (() => void)[] = [];
  /** Per item: the chain of its replications, so one item's states reach the replica in order. */
  const chains = new Map<string, Promise<void>>();
  /** Replications waiting out their lag: `settle` ends the wait at once (time passed). */
  const waiting = new Set<() => void>();
  const lag = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, options.lagMs);
      waiting.add(done);
    });

  const send = (op: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: '/',
          agent,
          headers: {
            authorization: headers.authorization ?? 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
            'x-amz-date': headers['x-amz-date'] ?? '20200101T000000Z',
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `DynamoDB_20120810.${op}`,
            'content-length': String(payload.length),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 500, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const shapeFrom = (description: Record<string, unknown>): TableShape => {
    const keyOf = (schema: { AttributeName: string; KeyType: string }[]): KeyAttrs => ({
      hash: schema.find((k) => k.KeyType === 'HASH')!.AttributeName,
      range: schema.find((k) => k.KeyType === 'RANGE')?.AttributeName,
    });
    const indexes = (description.GlobalSecondaryIndexes ?? []) as { KeySchema: { AttributeName: string; KeyType: string }[] }[];
    return { ...keyOf(description.KeySchema as never), indexKeys: indexes.map((index) => keyOf(index.KeySchema)) };
  };

  const shapeOf = async (table: string): Promise<TableShape | undefined> => {
    const known = shapes.get(table);
    if (known) return known;
    const answer = await send('DescribeTable', { TableName: table });
    if (answer.status !== 200) return undefined;
    const shape = shapeFrom(answer.body.Table as Record<string, unknown>);
    shapes.set(table, shape);
    return shape;
  };

  const keyOf = (shape: TableShape, item: Item): Item => ({ [shape.hash]: item[shape.hash]!, ...(shape.range ? { [shape.range]: item[shape.range]! } : {}) });

  /** Copies the item's state as it is now to the replica, `lagMs` from now (in order per item). */
  const replicate = (table: string, key: Item) => {
    const id = `${table}\u0000${JSON.stringify(key)}`;
    inFlight++;
    const previous = chains.get(id) ?? Promise.resolve();
    const next = previous.then(async () => {
      const now = await send('GetItem', { TableName: table, Key: key, ConsistentRead: true });
      const item = now.body.Item as Item | undefined;
      await lag();
      if (item) await send('PutItem', { TableName: table + REPLICA, Item: item });
      else await send('DeleteItem', { TableName: table + REPLICA, Key: key });
      stats.replicated++;
    });
    const settled = next.catch(() => undefined).finally(() => {
      if (chains.get(id) === settled) chains.delete(id);
      if (--inFlight === 0) {
        for (const wake of idle) wake();
        idle = [];
      }
    });
    chains.set(id, settled);
  };

  const checkExpressions = (body: Record<string, unknown>): Answer | undefined => {
    for (const field of ['UpdateExpression', 'ConditionExpression', 'KeyConditionExpression', 'FilterExpression', 'ProjectionExpression']) {
      const value = body[field];
      if (typeof value === 'string' && bytes(value) > MAX_EXPRESSION) return validation(`Invalid ${field}: Expression size has exceeded the maximum allowed size; expression size: ${bytes(value)}`);
    }
    return undefined;
  };

  const checkItem = (shape: TableShape, item: Item): Answer | undefined => {
    for (const index of shape.indexKeys) {
      const problem = indexKeyProblem(index.hash, item[index.hash], 'hash') ?? (index.range ? indexKeyProblem(index.range, item[index.range], 'range') : undefined);
      if (problem) return validation(problem);
    }
    if (itemSize(item) > MAX_ITEM) return validation('Item size has exceeded the maximum allowed size');
    return undefined;
  };

  const checkUpdate = (shape: TableShape, body: Record<string, unknown>): Answer | undefined => {
    const expression = typeof body.UpdateExpression === 'string' ? body.UpdateExpression : '';
    const assigned = setAssignments(expression, (body.ExpressionAttributeNames ?? {}) as Record<string, string>);
    const values = (body.ExpressionAttributeValues ?? {}) as Item;
    for (const index of shape.indexKeys) {
      for (const [attribute, role] of [[index.hash, 'hash'], [index.range, 'range']] as const) {
        const placeholder = attribute ? assigned.get(attribute) : undefined;
        const problem = attribute && placeholder ? indexKeyProblem(attribute, values[placeholder], role) : undefined;
        if (problem) return validation(problem);
      }
    }
    return undefined;
  };

  /** Faults and checks before the request reaches the store; undefined lets it through. */
  const refuse = async (op: string, body: Record<string, unknown>): Promise<Answer | undefined> => {
    const expressionProblem = checkExpressions(body);
    if (expressionProblem) return expressionProblem;
    if ((op === 'Query' || op === 'Scan') && body.IndexName && body.ConsistentRead === true) {
      return validation('Consistent reads are not supported on global secondary indexes');
    }
    const table = typeof body.TableName === 'string' ? body.TableName : undefined;
    const shape = table ? await shapeOf(table) : undefined;
    if (shape && op === 'PutItem') return checkItem(shape, body.Item as Item);
    if (shape && op === 'UpdateItem') return checkUpdate(shape, body);
    if (op === 'TransactWriteItems') {
      const actions = body.TransactItems as TransactAction[];
      for (const [index, action] of actions.entries()) {
        const request = actionBody(action);
        const expressionProblem = checkExpressions(request);
        if (expressionProblem) return expressionProblem;
        const actionShape = await shapeOf(request.TableName);
        const problem = actionShape && action.Put ? checkItem(actionShape, action.Put.Item) : actionShape && action.Update ? checkUpdate(actionShape, action.Update) : undefined;
        // an item the transaction would make invalid cancels it whole, naming that action
        if (problem) return cancelled(actions.length, index, { Code: 'ValidationError', Message: String(problem.body.message) });
      }
    }
    if (op === 'BatchWriteItem') {
      for (const [name, requests] of Object.entries(body.RequestItems as Record<string, { PutRequest?: { Item: Item } }[]>)) {
        const batchShape = await shapeOf(name);
        for (const request of requests) {
          const problem = batchShape && request.PutRequest ? checkItem(batchShape, request.PutRequest.Item) : undefined;
          if (problem) return problem;
        }
      }
    }
    return undefined;
  };

  /** A batch the store takes only part of: the rest comes back unprocessed. */
  const splitBatch = <T>(requests: Record<string, T[]>): { sent: Record<string, T[]>; kept: Record<string, T[]> } => {
    const sent: Record<string, T[]> = {};
    const kept: Record<string, T[]> = {};
    for (const [table, list] of Object.entries(requests)) {
      const cut = Math.floor(list.length / 2);
      if (list.slice(0, cut).length) sent[table] = list.slice(0, cut);
      if (list.slice(cut).length) kept[table] = list.slice(cut);
    }
    return { sent, kept };
  };

  const handle = async (op: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<Answer> => {
    if (DATA_OPS.has(op)) {
      const refusal = await refuse(op, body);
      if (refusal) {
        stats.refused++;
        return refusal;
      }
      if (options.throttleRate > 0 && random() < options.throttleRate) {
        const batch = op === 'BatchWriteItem' ? 'RequestItems' : op === 'BatchGetItem' ? 'RequestItems' : undefined;
        const size = batch ? Object.values(body[batch] as Record<string, unknown>).reduce<number>((n, v) => n + (op === 'BatchGetItem' ? (v as { Keys: unknown[] }).Keys.length : (v as unknown[]).length), 0) : 0;
        if (op === 'BatchWriteItem' && size > 1) {
          stats.partial++;
          const { sent, kept } = splitBatch(body.RequestItems as Record<string, unknown[]>);
          const answer = await forward(op, { ...body, RequestItems: sent }, headers);
          if (answer.status !== 200) return answer;
          return { status: 200, body: { ...answer.body, UnprocessedItems: { ...(answer.body.UnprocessedItems as object), ...kept } } };
        }
        if (op === 'BatchGetItem' && size > 1) {
          stats.partial++;
          const all = body.RequestItems as Record<string, { Keys: unknown[] } & Record<string, unknown>>;
          const sent: typeof all = {};
          const kept: typeof all = {};
          for (const [table, request] of Object.entries(all)) {
            const cut = Math.floor(request.Keys.length / 2);
            if (cut > 0) sent[table] = { ...request, Keys: request.Keys.slice(0, cut) };
            kept[table] = { ...request, Keys: request.Keys.slice(cut) };
          }
          const answer = await send(op, { ...body, RequestItems: sent }, headers);
          if (answer.status !== 200) return answer;
          return { status: 200, body: { ...answer.body, UnprocessedKeys: kept } };
        }
        stats.throttled++;
        if (op === 'TransactWriteItems') {
          const actions = (body.TransactItems as unknown[]).length;
          return cancelled(actions, Math.floor(random() * actions), { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' });
        }
        return throttled();
      }
      if (op === 'TransactWriteItems' && (options.conflictRate ?? 0) > 0 && random() < (options.conflictRate ?? 0)) {
        stats.conflicts++;
        const actions = (body.TransactItems as unknown[]).length;
        return cancelled(actions, Math.floor(random() * actions), { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' });
      }
    }
    return forward(op, body, headers);
  };

  /** The request as the store answers it, indexes read from the replica, writes replicated. */
  const forward = async (op: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<Answer> => {
    if (op === 'CreateTable') {
      const answer = await send(op, body, headers);
      if (answer.status === 200) {
        shapes.set(String(body.TableName), shapeFrom(body));
        await send(op, { ...body, TableName: String(body.TableName) + REPLICA }, headers);
      }
      return answer;
    }
    if (op === 'DeleteTable') {
      const answer = await send(op, body, headers);
      if (answer.status === 200) await send(op, { TableName: String(body.TableName) + REPLICA }, headers);
      shapes.delete(String(body.TableName));
      return answer;
    }
    if (op === 'ListTables') {
      const answer = await send(op, body, headers);
      const names = (answer.body.TableNames ?? []) as string[];
      return { ...answer, body: { ...answer.body, TableNames: names.filter((name) => !name.endsWith(REPLICA)) } };
    }
    if ((op === 'Query' || op === 'Scan') && body.IndexName) {
      return send(op, { ...body, TableName: String(body.TableName) + REPLICA }, headers);
    }

    const answer = await send(op, body, headers);
    if (answer.status !== 200 && !(op !== 'BatchWriteItem' && answer.status === 400)) return answer;
    const table = String(body.TableName ?? '');
    if (op === 'PutItem' || op === 'UpdateItem' || op === 'DeleteItem') {
      // a refused condition changes nothing, but replicating the unchanged state is harmless
      const shape = await shapeOf(table);
      if (shape) replicate(table, op === 'PutItem' ? keyOf(shape, body.Item as Item) : (body.Key as Item));
    }
    if (op === 'TransactWriteItems' && answer.status === 200) {
      // a committed transaction: each item it wrote reaches the indexes like a single write
      for (const action of body.TransactItems as TransactAction[]) {
        if (action.ConditionCheck) continue;
        const request = actionBody(action);
        const shape = await shapeOf(request.TableName);
        if (shape) replicate(request.TableName, action.Put ? keyOf(shape, action.Put.Item) : (request.Key as Item));
      }
    }
    if (op === 'BatchWriteItem' && answer.status === 200) {
      const unprocessed = JSON.stringify(answer.body.UnprocessedItems ?? {});
      for (const [name, requests] of Object.entries(body.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>)) {
        const shape = await shapeOf(name);
        if (!shape) continue;
        for (const request of requests) {
          const key = request.PutRequest ? keyOf(shape, request.PutRequest.Item) : request.DeleteRequest!.Key;
          if (!unprocessed.includes(JSON.stringify(key))) replicate(name, key);
        }
      }
    }
    return answer;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.url?.startsWith('/__faithful/settle')) {
          await settle();
          res.writeHead(200).end('{}');
          return;
        }
        const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'x-amz-date']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
        let answer: Answer;
        try {
          answer = await handle(op, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>, headers);
        } catch (error) {
          answer = { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) } };
        }
        const payload = JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(payload), 'x-amzn-requestid': 'faithful' });
        res.end(payload);
      })();
    });
  });
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;

  /** Lets the lag pass at once: every write so far reaches the indexes, then it resolves. */
  const settle = async (): Promise<void> => {
    while (inFlight > 0) {
      const drained = new Promise<void>((resolve) => idle.push(resolve));
      for (const done of [...waiting]) done();
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 5))]);
    }
  };
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    settle,
    configure: (next) => Object.assign(options, next),
    stats,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
};

/** Waits until every write made so far has reached the indexes of the faithful store at `endpoint` (no-op elsewhere). */
export const settleIndexes = async (endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB): Promise<void> => {
  if (!endpoint || process.env.FAITHFUL_STORE !== '1') return;
  await fetch(new URL('/__faithful/settle', endpoint));
};
