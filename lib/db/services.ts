import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { doc, tableName } from './client';
import { partitionRecords, putNew, type Item } from './helpers';

/** A registered service (DESIGN §5). */
export interface Service {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** The role its tokens act with (DESIGN §5); `viewer` unless registered with another. */
  role: string;
  /** Regions and (region, location) pairs it acts in; empty: unscoped. */
  scope: ScopeEntry[];
  createdAt: string;
  updatedAt: string;
}

export interface NewService {
  name: string;
  description?: string;
  url: string;
  active?: boolean;
  role?: string;
  scope?: ScopeEntry[];
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
  role: String(item.role ?? 'viewer'),
  scope: normalizeScope(Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : []),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (id: string) => new NotFound(`Service ${id} not found`);

/** What a service token is checked against: the service as stored now (strongly consistent) and its incarnation. */
export const serviceCredentials = async (id: string): Promise<{ service: Service; incarnation: string } | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  return item ? { service: fromItem(item), incarnation: String(item.incarnation ?? '') } : undefined;
};

export const services = {
  ...partitionRecords<string, Service, ServicePatch>(PARTITION, keys, fromItem, notFound),

  async create(service: NewService): Promise<Service> {
    const now = new Date().toISOString();
    const record: Service = {
      id: randomUUID(),
      ...service,
      description: service.description ?? '',
      active: service.active ?? true,
      role: service.role ?? 'viewer',
      scope: normalizeScope(service.scope),
      createdAt: now,
      updatedAt: now,
    };
    await putNew({ ...keys(record.id), type: 'Service', ...record, version: 1 }, () => new Conflict(`Service ${record.id} exists`));
    return record;
  },
};
