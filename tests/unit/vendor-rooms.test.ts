import { describe, expect, it } from 'vitest';
import { devicesConcerned, directoryChanges, vendorRoomOf } from '#lib/inventory/pure/vendorRooms';

// The vendor room directory read off the devices a sync stores, and the devices a room event concerns.
const zoom = (devicesn: string, vendorRef: string | undefined, vendor = 'zoom') => ({ devicesn, vendor, vendorRef });

describe('vendorRoomOf', () => {
  it("reads a Zoom device's room and device type off its vendorRef; other vendors and refs without a room have none", () => {
    expect(vendorRoomOf(zoom('SN1', 'zr-1/loc-1/Zoom%20Rooms%20Computer'))).toEqual({ vendor: 'zoom', room: 'zr-1', devicesn: 'SN1', component: 'Zoom Rooms Computer' });
    expect(vendorRoomOf(zoom('SN2', 'zr-1/'))).toEqual({ vendor: 'zoom', room: 'zr-1', devicesn: 'SN2' });
    expect(vendorRoomOf(zoom('SN3', 'zr-1/loc/%E0%A4%A'))).toEqual({ vendor: 'zoom', room: 'zr-1', devicesn: 'SN3' });
    expect(vendorRoomOf(zoom('SN4', 'zr-1/loc/Controller', 'webex'))).toBeUndefined();
    expect(vendorRoomOf(zoom('SN5', undefined))).toBeUndefined();
    expect(vendorRoomOf(zoom('SN6', '/loc/Controller'))).toBeUndefined();
  });
});

describe('directoryChanges', () => {
  it("puts the written devices' entries and removes the old room's entry of a device that moved, and a vanished device's", () => {
    const changes = directoryChanges(
      [zoom('MOVED', 'zr-2/l/Controller'), zoom('SAME', 'zr-1/l/Controller')],
      [zoom('MOVED', 'zr-1/l/Controller'), zoom('SAME', 'zr-1/l/Controller'), zoom('GONE', 'zr-3/l/Controller'), zoom('WEBEX', 'x/y', 'webex')],
    );
    expect(changes.put.map((e) => [e.room, e.devicesn])).toEqual([
      ['zr-2', 'MOVED'],
      ['zr-1', 'SAME'],
    ]);
    expect(changes.remove.map((e) => [e.room, e.devicesn])).toEqual([
      ['zr-1', 'MOVED'],
      ['zr-3', 'GONE'],
    ]);
  });
});

describe('devicesConcerned', () => {
  const room = [
    { vendor: 'zoom', room: 'r', devicesn: 'PC', component: 'Zoom Rooms Computer' },
    { vendor: 'zoom', room: 'r', devicesn: 'CTL', component: 'Controller' },
    { vendor: 'zoom', room: 'r', devicesn: 'WB', component: 'Companion Whiteboard' },
  ];
  it("names a component's devices (case aside), the room computer for the room itself, every device when the room has no computer", () => {
    expect(devicesConcerned(room, 'controller')).toEqual(['CTL']);
    expect(devicesConcerned(room, undefined)).toEqual(['PC']);
    expect(devicesConcerned(room.slice(1), undefined)).toEqual(['CTL', 'WB']);
    expect(devicesConcerned(room, 'Scheduling Display')).toEqual([]);
  });
});
