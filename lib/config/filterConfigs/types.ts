import { Invalid, type ErrorDetail } from '#lib/shared/errors';
import { duplicateIds } from '#lib/config/filterRecords/types';
import { assertListShare, caps } from '#lib/shared/caps';
import { itemBytes, MAX_ITEM_BYTES } from '#lib/shared/sizes';

/** Stored form of a filters configuration: region -> locations -> rooms. */
export interface FiltersConfig {
  id: number;
  region: string;
  locations: StoredLocation[];
}

export interface StoredLocation {
  locationName: string;
  rooms: { roomName: string }[];
}

/** List form (GET/POST /filtersConfig): the locations without their rooms. */
export interface FiltersConfigListForm {
  id: number;
  region: string;
  locations: { locationName: string }[];
}

/** Per-id form (POST /filtersConfig/{id}): the whole nested tree. */
interface FiltersConfigNestedForm {
  region: {
    regionName: string;
    location: { locationName: string; room: { roomName: string }[] }[];
  };
}

export const MAX_LOCATIONS = 500;
export const MAX_ROOMS = 500;

export const toListForm = ({ id, region, locations }: FiltersConfig): FiltersConfigListForm => ({
  id,
  region,
  locations: locations.map(({ locationName }) => ({ locationName })),
});

/** The stored form of a per-id body; refuses a location named twice (400 naming it). */
export const fromNestedForm = (id: number, { region }: FiltersConfigNestedForm): FiltersConfig => {
  const repeated = duplicateLocations(region.location, 'body.region.location');
  if (repeated.length) throw new Invalid('Each location may appear once per configuration', repeated);
  return {
    id,
    region: region.regionName,
    locations: region.location.map(({ locationName, room }) => ({
      locationName,
      rooms: room.map(({ roomName }) => ({ roomName })),
    })),
  };
};

/** A list-form upsert body names each id once and each location once per record. */
export const assertDistinctListForm = (records: readonly FiltersConfigListForm[]): void => {
  const problems = [
    ...duplicateIds(records),
    ...records.flatMap((record, index) => duplicateLocations(record.locations, `body[${index}].locations`)),
  ];
  if (problems.length) throw new Invalid('Each id may appear once, and each location once per configuration', problems);
};

/**
 * A list-form upsert carries no rooms: locations that remain keep the rooms stored for them,
 * new locations start without rooms, locations left out are dropped (with their rooms).
 */
export const mergeListForm = (incoming: FiltersConfigListForm, stored: FiltersConfig | undefined): FiltersConfig => {
  const roomsOf = new Map(stored?.locations.map((l) => [l.locationName, l.rooms]));
  return {
    id: incoming.id,
    region: incoming.region,
    locations: incoming.locations.map(({ locationName }) => ({ locationName, rooms: roomsOf.get(locationName) ?? [] })),
  };
};

/** Location names must be distinct inside one configuration (they identify a location). */
const duplicateLocations = (
  locations: readonly { locationName: string }[],
  field: string,
): ErrorDetail[] => {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  locations.forEach(({ locationName }, index) => {
    const at = `${field}[${index}].locationName`;
    if (seen.has(locationName)) details.push({ field: at, message: `${at} repeats location ${JSON.stringify(locationName)}` });
    seen.add(locationName);
  });
  return details;
};

/** Where a configuration's tree arrives: the per-id body, or record `index` of a list body. */
export const treeField = (index?: number): string => (index === undefined ? 'body.region.location' : `body[${index}].locations`);

/**
 * Refuses (400 naming the field) a configuration item DynamoDB would refuse: over 400 KB counted
 * as DynamoDB counts (UTF-8 bytes of names and values). A list-form upsert keeps the stored rooms
 * of the locations it names, so a body within the size limit can still grow an item past it.
 */
export const assertStorable = (item: Record<string, unknown>, field: string): void => {
  const bytes = itemBytes(item);
  if (bytes <= MAX_ITEM_BYTES) return;
  const message = `${field}: the configuration would be stored as ${bytes} bytes (UTF-8, as DynamoDB counts), over the ${MAX_ITEM_BYTES} an item may hold; name fewer or shorter locations and rooms`;
  throw new Invalid('The filters configuration is too large to store', [{ field, message }]);
};

/** Refuses (400 naming the field) a configuration that would answer more than its share of GET /filtersConfig (lib/shared/caps.ts). */
export const assertListable = (config: FiltersConfig, field: string): void =>
  assertListShare(toListForm(config), { max: caps.filterConfigs(), variable: 'FILTER_CONFIGS_MAX' }, field, 'filters configuration');
