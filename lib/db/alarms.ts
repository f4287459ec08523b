import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Severity } from '#lib/devices/types';
import { alarmId, type Alarm, type ClearReason, type Mail, type OpenAlarm, type Recipients } from '#lib/alarms/types';
import { doc, tableName } from './client';
import { isConditionFailed, queryAll, type Item } from './helpers';
import { queryListOrPage, type Page } from './pages';

/*
 * One item per (watcher, device) pair, open or cleared: a raise is a conditional write on that
 * one item, so two evaluations can never open the pair twice. GSI1 (`ALARMS#OPEN`, sorted by
 * raisedAt) holds only open alarms: the evaluator's input and GET /alarms, newest first.
 * Mails of a transition are written on the alarm item in the same single-item write
 * (`pendingMails`, outbox pattern); GSI2 (`ALARMS#MAIL`) holds only items with mail pending.
 * A cleared alarm stays as history until `expiresAt` (TTL), and a new raise reuses its item.
 */
const OPEN = 'ALARMS#OPEN';
const MAIL = 'ALARMS#MAIL';
const HISTORY_SECONDS = 30 * 24 * 60 * 60;
const keys = (alarm: Pick<Alarm, 'watcherId' | 'devicesn'>) => ({ PK: `ALARM#${alarm.watcherId}`, SK: `DEVICE#${alarm.devicesn}` });
const openSk = (alarm: Alarm) => `${alarm.raisedAt}#${alarm.watcherId}#${alarm.devicesn}`;
const OPEN_INDEX_KEY = ['PK', 'SK', 'GSI1PK', 'GSI1SK'] as const;

const fromItem = (item: Item): OpenAlarm => {
  const notify = (item.notify ?? {}) as Partial<Recipients>;
  const alarm: OpenAlarm = {
    watcherId: String(item.watcherId),
    devicesn: String(item.devicesn),
    deviceid: String(item.deviceid),
    severity: Number(item.severity) as Severity,
    region: String(item.region),
    location: String(item.location),
    room: String(item.room),
    raisedAt: String(item.raisedAt),
    notify: { sendEmail: notify.sendEmail === true, emails: Array.isArray(notify.emails) ? notify.emails.map(String) : [] },
  };
  if (typeof item.description === 'string' && item.description !== '') alarm.description = item.description;
  return alarm;
};

/** An open alarm as GET /alarms answers it. */
export interface AlarmView extends Alarm {
  id: string;
}
const toView = (item: Item): AlarmView => {
  const { notify: _notify, ...alarm } = fromItem(item);
  return { id: alarmId(alarm), ...alarm };
};

/** Builds one UpdateExpression from SET values, REMOVE names and list appends. */
const expression = (set: Record<string, unknown>, remove: string[], append: Record<string, unknown[]> = {}) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  let n = 0;
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) {
      remove.push(field);
      continue;
    }
    names[`#n${n}`] = field;
    values[`:v${n}`] = value;
    sets.push(`#n${n} = :v${n}`);
    n++;
  }
  for (const [field, list] of Object.entries(append)) {
    names[`#n${n}`] = field;
    values[`:v${n}`] = list;
    values[':empty'] = [];
    sets.push(`#n${n} = list_append(if_not_exists(#n${n}, :empty), :v${n})`);
    n++;
  }
  const removes = remove.map((field) => {
    names[`#n${n}`] = field;
    return `#n${n++}`;
  });
  return {
    UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** Runs a conditional update; false when the condition did not hold (someone got there first). */
const conditional = async (input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> => {
  try {
    await doc.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

const mailFields = (alarm: Alarm, mail: Mail | undefined): { set: Record<string, unknown>; append: Record<string, unknown[]> } =>
  mail ? { set: { GSI2PK: MAIL, GSI2SK: alarmId(alarm) }, append: { pendingMails: [mail] } } : { set: {}, append: {} };

const alarmFields = (alarm: Alarm) => ({
  deviceid: alarm.deviceid,
  severity: alarm.severity,
  region: alarm.region,
  location: alarm.location,
  room: alarm.room,
  description: alarm.description,
});

/** Filters of GET /alarms: an absent field (or `all` for names) does not narrow. */
export interface AlarmFilter {
  region?: string;
  location?: string;
  room?: string;
  severity?: Severity;
  watcherId?: string;
}

const filterExpression = (filter: AlarmFilter) => {
  const entries = Object.entries(filter).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return {};
  return {
    FilterExpression: entries.map((_, i) => `#f${i} = :f${i}`).join(' AND '),
    names: Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
  };
};

export interface PendingMails {
  alarm: Pick<Alarm, 'watcherId' | 'devicesn'>;
  mails: Mail[];
}

export const alarms = {
  /** Every open alarm (the open-alarm index: O(open alarms), never the history). */
  async open(): Promise<OpenAlarm[]> {
    const items = await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': OPEN },
    });
    return items.map(fromItem);
  },

  /**
   * Open alarms newest first, narrowed by the filter (a FilterExpression on the open-alarm
   * index: a page costs the open alarms read to fill it). All of them, or one page.
   */
  async list(filter: AlarmFilter, page: { limit?: number; cursor?: string }): Promise<AlarmView[] | Page<AlarmView>> {
    const { FilterExpression, names, values } = filterExpression(filter);
    const answer = await queryListOrPage(
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ScanIndexForward: false,
        ...(FilterExpression ? { FilterExpression, ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: { ':pk': OPEN, ...values },
      },
      { keyAttributes: OPEN_INDEX_KEY, partition: { GSI1PK: OPEN }, query: `alarms ${JSON.stringify(filter)}` },
      page,
    );
    return Array.isArray(answer) ? answer.map(toView) : { items: answer.items.map(toView), nextCursor: answer.nextCursor };
  },

  /** Opens the pair's alarm unless it is open already; its mail (if any) lands in the same write. */
  async raise(alarm: OpenAlarm, mail?: Mail): Promise<boolean> {
    const extra = mailFields(alarm, mail);
    return conditional({
      TableName: tableName(),
      Key: keys(alarm),
      ...withCondition(
        expression(
          {
            type: 'Alarm',
            state: 'open',
            watcherId: alarm.watcherId,
            devicesn: alarm.devicesn,
            ...alarmFields(alarm),
            raisedAt: alarm.raisedAt,
            notify: alarm.notify,
            GSI1PK: OPEN,
            GSI1SK: openSk(alarm),
            ...extra.set,
          },
          ['clearedAt', 'clearReason', 'expiresAt'],
          extra.append,
        ),
        'attribute_not_exists(PK) OR #state = :cleared',
        { '#state': 'state' },
        { ':cleared': 'cleared' },
      ),
    });
  },

  /** Clears the open alarm raised at `alarm.raisedAt`; false when it is not open (any more). */
  async clear(alarm: OpenAlarm, clearedAt: string, reason: ClearReason, mail?: Mail): Promise<boolean> {
    const extra = mailFields(alarm, mail);
    return conditional({
      TableName: tableName(),
      Key: keys(alarm),
      ...withCondition(
        expression(
          {
            state: 'cleared',
            clearedAt,
            clearReason: reason,
            expiresAt: Math.floor(Date.parse(clearedAt) / 1000) + HISTORY_SECONDS,
            ...extra.set,
          },
          ['GSI1PK', 'GSI1SK'],
          extra.append,
        ),
        '#state = :open AND #raisedAt = :raisedAt',
        { '#state': 'state', '#raisedAt': 'raisedAt' },
        { ':open': 'open', ':raisedAt': alarm.raisedAt },
      ),
    });
  },

  /** Carries a changed severity, room or description into an alarm that stays open (no mail). */
  async update(alarm: OpenAlarm): Promise<boolean> {
    return conditional({
      TableName: tableName(),
      Key: keys(alarm),
      ...withCondition(
        expression(alarmFields(alarm), []),
        '#state = :open AND #raisedAt = :raisedAt',
        { '#state': 'state', '#raisedAt': 'raisedAt' },
        { ':open': 'open', ':raisedAt': alarm.raisedAt },
      ),
    });
  },

  /** Alarms with mails not yet delivered, oldest transition first within each alarm. */
  async pendingMails(): Promise<PendingMails[]> {
    const items = await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': MAIL },
      ProjectionExpression: 'watcherId, devicesn, pendingMails',
    });
    return items.map((item) => ({
      alarm: { watcherId: String(item.watcherId), devicesn: String(item.devicesn) },
      mails: (Array.isArray(item.pendingMails) ? item.pendingMails : []) as Mail[],
    }));
  },

  /** Drops the first `delivered` pending mails of an alarm, and its place in the pending index once none is left. */
  async mailsDelivered(alarm: Pick<Alarm, 'watcherId' | 'devicesn'>, delivered: readonly Mail[]): Promise<void> {
    if (delivered.length === 0) return;
    const names = { '#mails': 'pendingMails', '#id': 'id' };
    const all = await conditional({
      TableName: tableName(),
      Key: keys(alarm),
      UpdateExpression: 'REMOVE #mails, GSI2PK, GSI2SK',
      ConditionExpression: 'size(#mails) = :n AND #mails[0].#id = :first',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':n': delivered.length, ':first': delivered[0]!.id },
    });
    if (all) return;
    // a newer transition appended a mail meanwhile: drop only those delivered, keep it pending
    await conditional({
      TableName: tableName(),
      Key: keys(alarm),
      UpdateExpression: `REMOVE ${delivered.map((_, i) => `#mails[${i}]`).join(', ')}`,
      ConditionExpression: '#mails[0].#id = :first',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':first': delivered[0]!.id },
    });
  },

  /** The stored state of one pair (tests and operators). */
  async find(pair: Pick<Alarm, 'watcherId' | 'devicesn'>): Promise<Item | undefined> {
    const { Items } = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK = :sk',
        ExpressionAttributeValues: { ':pk': keys(pair).PK, ':sk': keys(pair).SK },
        ConsistentRead: true,
      }),
    );
    return Items?.[0];
  },
};

function withCondition(
  update: ReturnType<typeof expression>,
  ConditionExpression: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
) {
  return {
    ...update,
    ConditionExpression,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...names },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...values },
  };
}
