import { describe, expect, it } from 'vitest';
import { simulatedFleet, simulatedProvider } from '#lib/inventory/provider/simulated';
import { providerFromEnv } from '#lib/inventory/provider/index';

describe('simulated fleet', () => {
  it('is the same for the same seed and different for another', () => {
    expect(simulatedFleet({ seed: 7, devices: 50 })).toEqual(simulatedFleet({ seed: 7, devices: 50 }));
    expect(simulatedFleet({ seed: 8, devices: 50 })).not.toEqual(simulatedFleet({ seed: 7, devices: 50 }));
  });

  it('has the requested size, unique serial numbers and rooms with devices', () => {
    const fleet = simulatedFleet({ seed: 1, devices: 400, rooms: 100 });
    const rooms = new Set(fleet.map((d) => JSON.stringify(d.details)));
    expect(fleet).toHaveLength(400);
    expect(new Set(fleet.map((d) => d.devicesn)).size).toBe(400);
    expect(rooms.size).toBe(100);
  });

  it('spreads devices over several regions, locations and models, some offline, some in call', () => {
    const fleet = simulatedFleet({ seed: 42, devices: 300 });
    expect(new Set(fleet.map((d) => d.details.region)).size).toBeGreaterThan(2);
    expect(new Set(fleet.map((d) => d.details.location)).size).toBeGreaterThan(6);
    expect(new Set(fleet.map((d) => d.devicemodel)).size).toBeGreaterThan(2);
    expect(fleet.some((d) => !d.status.connected)).toBe(true);
    expect(fleet.some((d) => d.status.inCallStatus === 'ACTIVE')).toBe(true);
    expect(fleet.every((d) => d.status.connected || d.status.inCallStatus === 'NONE')).toBe(true);
  });
});

describe('simulated provider', () => {
  it('keeps the fleet still with churn 0', async () => {
    let now = 0;
    const provider = simulatedProvider({ seed: 3, devices: 100, churn: 0, now: () => now });
    const first = await provider.listDevices();
    now = 3_600_000;
    expect(await provider.listDevices()).toEqual(first);
  });

  it('changes exactly `churn` statuses from the base fleet in a tick, the same for list and get', async () => {
    const base = simulatedFleet({ seed: 3, devices: 100 });
    const provider = simulatedProvider({ seed: 3, devices: 100, churn: 4, now: () => 120_000 });
    const listed = await provider.listDevices();
    const changed = listed.filter((d, i) => d.status.connected !== base[i]!.status.connected);
    expect(changed).toHaveLength(4);
    expect(await provider.getDevice(changed[0]!.devicesn)).toEqual(changed[0]);
  });

  it('answers undefined for an unknown serial number', async () => {
    expect(await simulatedProvider({ seed: 3, devices: 10 }).getDevice('nope')).toBeUndefined();
  });

  it('takes its size and seed from the environment', async () => {
    const devices = await providerFromEnv({ SEED_DEVICES: '12', SIM_SEED: '5', SIM_CHURN: '0' }).listDevices();
    expect(devices).toEqual(simulatedFleet({ seed: 5, devices: 12 }));
  });
});
