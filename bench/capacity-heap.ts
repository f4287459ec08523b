/**
 * The evaluator's heap high-water mark at N devices, without the store in the process: the
 * full pass's in-memory state (inventory, watchers, open alarms, plan, room check) built and
 * planned, heap sampled at every stage. Run by bench/capacity.ts in a child process with
 * --expose-gc; prints one JSON line.
 */
import { planAlarms, roomsToRecompute } from '../lib/alarms/engine/pure/plan';
import type { OpenAlarm } from '../lib/alarms/types';
import { expectedAggregates } from '../lib/rollups/pure/aggregates';
import { simulatedFleet } from '../lib/inventory/provider/simulated';
import type { StoredDevice } from '../lib/devices/types';
import type { WatcherRecord } from '../lib/watchers/types';

const size = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};

gc?.();
const baseline = process.memoryUsage().heapUsed;
const watchersOf = (n: number): WatcherRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `w${i}`,
    user: 'ops',
    dashboard: 'd',
    service: 's',
    type: 't',
    allDevices: true,
    devicesId: [],
    severity: 2,
    operations:
      i === 0
        ? { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] }
        : { type: 'device', operatorType: 'AND', conditions: [{ element: 'devicemodel', operator: '==', value: `none-${i}` }] },
    description: 'bench',
    sendEmail: false,
    emails: [],
    active: true,
  }) as unknown as WatcherRecord);

const inventory: StoredDevice[] = simulatedFleet({ seed: 1, devices: size, rooms: 1000 });
sample();
const watchers = watchersOf(10);
const now = new Date().toISOString();
// the storm state: 10% of the fleet with an open alarm
const open: OpenAlarm[] = inventory
  .filter((_, i) => i % 10 === 0)
  .map((d) => ({ state: 'firing' as const, watcherId: 'w0', devicesn: d.devicesn, deviceid: d.deviceid, severity: 2 as const, ...d.details, raisedAt: now, notify: { sendEmail: false, emails: [] } }));
sample();
const plan = planAlarms({ watchers, devices: inventory, open, now });
sample();
const rooms = [...expectedAggregates(inventory).values()];
const drifted = roomsToRecompute(rooms, inventory, plan.worst);
sample();
console.log(
  JSON.stringify({
    devices: size,
    heapBaselineMB: Math.round(baseline / 1e5) / 10,
    heapPeakMB: Math.round(peak / 1e5) / 10,
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1e2) / 10,
    planned: { raise: plan.raise.length, clear: plan.clear.length, severities: plan.severities.length, rooms: drifted.length },
  }),
);
