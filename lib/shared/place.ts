/**
 * Where a device is: a room is identified by region + location + room name (DESIGN D11). Declared
 * here, below the domains, because the store builds keys from it (lib/store/placeKeys.ts) and
 * every domain names places; the device model re-exports it.
 */
export interface Place {
  region: string;
  location: string;
  room: string;
}
