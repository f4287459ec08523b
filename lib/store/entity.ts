import { atVersion, type Change, type Expr, type Item } from './expression';
import { pages, queryAll, type Query } from './query';
import { changedMeanwhile, get, hasExpired, put, remove, update, type Key, type ReadOptions, type Returns } from './table';

// An item type declared once: keys, answers, operations and docs/data-model.md rows (docs/adr/0313).
export interface EntityDoc {
  /** The section of docs/data-model.md the item is listed in. */
  section: string;
  /** Its `type` unless said otherwise. */
  name?: string;
  PK: string;
  SK: string;
  GSI1?: string;
  GSI2?: string;
  notes?: string;
}

interface Declaration<Id, T> {
  type: string;
  key: (id: Id) => Key;
  fromItem: (item: Item) => T;
}

/** Every item type's rows, in the order their modules were loaded: the source of docs/data-model.md's item tables. */
export const declared: { type: string; doc: EntityDoc }[] = [];
/** Every item type declared (tests/unit/data-model.test.ts: each has its row). */
export const entityTypes: string[] = [];

/*
 * An entity's row is written beside its declaration as a statement labelled `dataModel:`, which
 * the Lambda bundles drop (esbuild `dropLabels`, serverless.yml): the texts serve only
 * scripts/data-model.ts and cost every cold start their compile (docs/guide/rules/deploy.md "The data-model rows sit beside each entity, and the bundles drop them").
 */
/** The row of docs/data-model.md's item tables for `declaration`. */
export const docRow = (declaration: { type: string }, doc: EntityDoc): void => {
  declared.push({ type: declaration.type, doc });
};

/** A row of the item tables that is no item of its own (a value inside another item). */
export const documented = (doc: EntityDoc): void => {
  declared.push({ type: '', doc });
};

export const entity = <Id, T = Item>(declaration: Declaration<Id, T>) => {
  entityTypes.push(declaration.type);
  const { key, type, fromItem } = declaration;
  return {
    ...declaration,
    read: (id: Id, options?: ReadOptions): Promise<Item | undefined> => get(key(id), options),
    find: async (id: Id, options?: ReadOptions): Promise<T | undefined> => {
      const item = await get(key(id), options);
      return item && fromItem(item);
    },
    /** The whole item: its keys, its `type`, then `fields` (index keys among them where it has some). */
    item: (id: Id, fields: Item): Item => ({ ...key(id), type, ...fields }),
    /** PutItem of the whole item; false when `condition` did not hold. */
    put: (id: Id, fields: Item, condition?: Expr | string): Promise<boolean> => put({ ...key(id), type, ...fields }, condition),
    update: (id: Id, change: Change | Expr, condition?: Expr | string, returns?: Returns) => update(key(id), change, condition, returns),
    remove: (id: Id, condition?: Expr | string): Promise<boolean> => remove(key(id), condition),
  };
};

type Entity<Id, T> = ReturnType<typeof entity<Id, T>>;

/** A record and the version it was read at: a replace or delete is conditional on it. */
export interface Versioned<T> {
  record: T;
  version: number;
}

/** Writes conditional on the version read; when one did not hold, 404 (`missing`) if the item is gone, else `changed`. */
export const versioned = <Id, T>(stored: Entity<Id, T>, missing: (id: Id) => Error, changed: (id: Id) => Error = changedMeanwhile) => {
  /** The record and its version (strongly consistent); 404 when absent or past its `expiresAt`. */
  const read = async (id: Id): Promise<Versioned<T>> => {
    const item = await stored.read(id, { consistent: true });
    if (!item || hasExpired(item)) throw missing(id);
    return { record: stored.fromItem(item), version: Number(item.version) };
  };
  const lost = async (id: Id): Promise<never> => {
    await read(id);
    throw changed(id);
  };
  return {
    read,
    /** PutItem of the whole item (`fields` holding its next version) if still at `version`. */
    putAt: async (id: Id, fields: Item, version: number): Promise<void> => {
      if (!(await stored.put(id, fields, atVersion(version)))) await lost(id);
    },
    removeAt: async (id: Id, version: number): Promise<void> => {
      if (!(await stored.remove(id, atVersion(version)))) await lost(id);
    },
  };
};

/** A collection kept whole in one partition (`PK = partition`), in sort-key order: list and count are one Query each. */
export const collection = (partition: string) => ({
  all: (q: Omit<Query, 'pk'> = {}): Promise<Item[]> => queryAll({ ...q, pk: partition }),
  /** `Select: COUNT` over every page: nothing transferred. */
  count: async (q: Omit<Query, 'pk'> = {}): Promise<number> => {
    let count = 0;
    for await (const page of pages({ ...q, pk: partition, count: true })) count += page.count;
    return count;
  },
});

export const texts = <K extends string>(item: Item, ...names: K[]): Record<K, string> => Object.fromEntries(names.map((name) => [name, String(item[name])])) as Record<K, string>;
export const numbers = <K extends string>(item: Item, ...names: K[]): Record<K, number> => Object.fromEntries(names.map((name) => [name, Number(item[name])])) as Record<K, number>;
/** The named attributes of an item that are strings, in the order named (the others left out). */
export const someTexts = <K extends string>(item: Item, ...names: K[]): Partial<Record<K, string>> =>
  Object.fromEntries(names.flatMap((name) => (typeof item[name] === 'string' ? [[name, item[name]]] : []))) as Partial<Record<K, string>>;
/** A list attribute as texts (absent or not a list: empty). */
export const textList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
