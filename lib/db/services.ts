import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound } from '#lib/errors';
import { doc, tableName } from './client';
import { type Item, deleteExisting, patchExisting, queryPartition } from './helpers';

/** A registered service (DESIGN §5). */
export interface Service {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NewService {
  name: string;
  description?: string;
  url: string;
  active?: boolean;
}

export type ServicePatch = Partial<NewService>;

// One partition, sorted by id: list = one Query.
const PARTITION = 'SERVICE';
const keys = (id: string) => ({ PK: PARTITION, SK: `SERVICE#${id}` });

const fromItem = (item: Item): Service => ({
  id: String(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  url: String(item.url),
  active: item.active === true,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (id: string) => new NotFound(`Service ${id} not found`);

export const services = {
  async create(service: NewService): Promise<Service> {
    const now = new Date().toISOString();
    const record: Service = {
      id: randomUUID(),
      ...service,
      description: service.description ?? '',
      active: service.active ?? true,
      createdAt: now,
      updatedAt: now,
    };
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys(record.id), type: 'Service', ...record, version: 1 },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return record;
  },

  async list(): Promise<Service[]> {
    return (await queryPartition(PARTITION)).map(fromItem);
  },

  async get(id: string): Promise<Service> {
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id) }));
    if (!item) throw notFound(id);
    return fromItem(item);
  },

  /** Sets only the fields given, in one conditional write: concurrent patches never undo each other. */
  async update(id: string, patch: ServicePatch): Promise<Service> {
    return fromItem(await patchExisting(keys(id), patch, () => notFound(id)));
  },

  async remove(id: string): Promise<void> {
    await deleteExisting(keys(id), () => notFound(id));
  },
};
