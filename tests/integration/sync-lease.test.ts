import { describe, expect, it } from 'vitest';
import { syncRuns } from '#lib/store/leases';
import { syncAlone } from '#lib/inventory/syncLease';
import { LEASE_MS } from '#lib/shared/lease';
import type { DeviceProvider, NamedProvider } from '#lib/inventory/provider/index';
import type { ProviderDevice } from '#lib/devices/types';
import { device, fixed } from '../support/fleet';

/** The sync's lease (issue 23 finding 8): no two syncs at once, a dead holder taken over. */
describe('sync lease', () => {
  const region = `SYNCLEASE-${Date.now().toString(36)}`;
  const fleet = [1, 2, 3].map((i) => device(region, `${region}-${i}`, `Room ${i}`, true));
  // the sync's entry point takes the configured providers (DEVICE_PROVIDERS): here one
  const only = (provider: DeviceProvider): NamedProvider[] => [{ name: 'simulated', provider }];

  it('lets one of two concurrent syncs run; the other reports busy and writes nothing', async () => {
    let listed = 0;
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const slow = {
      listDevices: async (): Promise<ProviderDevice[]> => {
        listed++;
        await gate;
        return fleet;
      },
      getDevice: async (sn: string) => fleet.find((d) => d.devicesn === sn),
    };
    const first = syncAlone(only(slow));
    // the second starts while the first holds the lease (it is waiting for its provider)
    while (listed === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await syncAlone(only(slow));
    expect(second).toEqual({ ran: false, reason: 'busy' });
    letGo();
    expect(await first).toMatchObject({ ran: true, result: { devices: 3 } });
    expect(listed).toBe(1);
    // released at the end: the next one runs at once
    expect(await syncAlone(only(fixed(() => fleet)))).toMatchObject({ ran: true, result: { upserted: 0 } });
  });

  it('takes no lease and syncs nothing when no provider is configured', async () => {
    expect(await syncAlone([])).toEqual({ ran: false, reason: 'no provider' });
    const now = Date.now();
    expect(await syncRuns.acquire('after-none', now, now + LEASE_MS)).toBe(true);
    await syncRuns.release('after-none', undefined);
  });

  it('is refused while a live holder renews it, and taken over once a dead holder let it lapse', async () => {
    const now = Date.now();
    expect(await syncRuns.acquire('live-holder', now, now + LEASE_MS)).toBe(true);
    expect(await syncAlone(only(fixed(() => fleet)))).toEqual({ ran: false, reason: 'busy' });
    await syncRuns.release('live-holder', undefined);

    // a holder that died (a Lambda timeout) renews no more: its lease ends LEASE_MS after its last beat
    expect(await syncRuns.acquire('dead-holder', now - 2 * LEASE_MS, now - LEASE_MS)).toBe(true);
    expect(await syncAlone(only(fixed(() => fleet)))).toMatchObject({ ran: true });
    // and the dead holder's late release takes nothing from the next holder
    await syncRuns.release('dead-holder', now - 2 * LEASE_MS);
    expect(await syncRuns.acquire('after', Date.now(), Date.now() + LEASE_MS)).toBe(true);
    await syncRuns.release('after', undefined);
  });
});
