/** The nine interval settings of the spec; every one is required on create (DESIGN D7). */
export const INTERVAL_FIELDS = [
  'intervalFeedbackTestApi',
  'intervalDeviceStatus',
  'intervalDeviceStatusEspera',
  'intervalAllDevices',
  'intervalDeviceWatchers',
  'intervalDeviceWatchersTimeout',
  'intervalRefreshToken',
  'intervalDeviceInternalConsult',
  'intervalDeviceSyncInfo',
] as const;

export type IntervalField = (typeof INTERVAL_FIELDS)[number];

/** Values are whole seconds, at least 1 and at most one year. */
export const MIN_INTERVAL_SECONDS = 1;
export const MAX_INTERVAL_SECONDS = 365 * 24 * 60 * 60;

export type Intervals = Record<IntervalField, number>;

export interface IntervalRecord extends Intervals {
  id: number;
}
