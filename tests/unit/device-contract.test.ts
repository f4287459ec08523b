import { describe, expect, it } from 'vitest';
import { DEVICE_FIELDS, fieldsOf, isAnswered, type FieldSpec } from '#lib/devices/model';
import { maintenanceMark } from '#schemas/maintenance';
import { device } from '#schemas/devices';
import { DEVICE_ATTRIBUTES } from '#lib/devices/entities';
import { declared } from '#lib/store/entity';

/** What the API answers beside a device's own fields: the marks of the maintenance windows that hold it. */
const MARKS = Object.keys(maintenanceMark);

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** The contract's leaves, by path (`status.connected`), each with its JSON type (`array of string` for a list). */
const leaves = (schema: Schema, prefix = ''): Map<string, string> =>
  new Map(
    Object.entries(schema.properties ?? {}).flatMap(([name, property]): [string, string][] =>
      property.type === 'object' ? [...leaves(property, `${prefix}${name}.`)] : [[`${prefix}${name}`, property.type === 'array' ? `array of ${property.items?.type}` : String(property.type)]],
    ),
  );

const JSON_TYPE: Record<FieldSpec['type'], string> = { text: 'string', time: 'string', flag: 'boolean', texts: 'array of string', severity: 'integer' };

describe('the device model and the API device contract (schemas/devices.ts)', () => {
  const contract = leaves(device as Schema);
  const declared = new Map(fieldsOf(DEVICE_FIELDS, isAnswered).map(([, spec]) => [spec.path, JSON_TYPE[spec.type]]));

  it('every answered field of the model is in the contract, with its type', () => {
    const missing = [...declared].filter(([path, type]) => contract.get(path) !== type);
    expect(missing, 'answered by the model but absent from the contract, or typed otherwise there').toEqual([]);
  });

  it('every field of the contract is an answered field of the model (the maintenance marks aside)', () => {
    const extra = [...contract.keys()].filter((path) => !declared.has(path) && !MARKS.includes(path.split('.')[0]!));
    expect(extra, 'in the contract but not answered by the model').toEqual([]);
  });
});

describe('the device model and its row of docs/data-model.md', () => {
  it('names every attribute a device item stores', () => {
    const notes = declared.find(({ type }) => type === 'Device')?.doc.notes ?? '';
    const named = new Set(notes.match(/\w+/g));
    expect(DEVICE_ATTRIBUTES.filter((attribute) => !named.has(attribute))).toEqual([]);
  });
});
