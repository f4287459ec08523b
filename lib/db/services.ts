import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '#lib/errors';
import { partitionRecords, putNew, type Item } from './helpers';

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
  ...partitionRecords<string, Service, ServicePatch>(PARTITION, keys, fromItem, notFound),

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
    await putNew({ ...keys(record.id), type: 'Service', ...record, version: 1 }, () => new Conflict(`Service ${record.id} exists`));
    return record;
  },
};
