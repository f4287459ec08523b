/**
 * A process that dies in the middle of a device sync (tests/integration/sync-fingerprints.test.ts):
 * it syncs the simulated fleet of SYNC_CHILD_SEED / SYNC_CHILD_DEVICES (every device offline when
 * SYNC_CHILD_OFFLINE=1) into the store given in its environment, and halts for good at the point
 * HALT_AT names, saying HALTED: `devices` at its second batch of device writes (some devices
 * written, others not), `fingerprints` at its first fingerprint write (devices and rooms written).
 * The test then kills it with SIGKILL, as a crash would.
 */
import { dynamo } from '#lib/store/client';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { syncDevices } from '#lib/inventory/sync';

const fleet = simulatedFleet({ seed: Number(process.env.SYNC_CHILD_SEED), devices: Number(process.env.SYNC_CHILD_DEVICES), rooms: 40 }).map((d) =>
  process.env.SYNC_CHILD_OFFLINE === '1' ? { ...d, status: { connected: false, inCallStatus: 'NONE' } } : d,
);
let deviceBatches = 0;

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const name = (context as { commandName?: string }).commandName ?? '';
    const input = args.input as { RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, unknown> } }[]>; Item?: Record<string, unknown> };
    const deviceBatch = name === 'BatchWriteItemCommand' && Object.values(input.RequestItems ?? {}).flat().some((r) => r.PutRequest?.Item?.type === 'Device');
    const fingerprint = name === 'PutItemCommand' && input.Item?.type === 'SyncFingerprints';
    if ((process.env.HALT_AT === 'devices' && deviceBatch && ++deviceBatches === 2) || (process.env.HALT_AT === 'fingerprints' && fingerprint)) {
      process.stdout.write('HALTED\n');
      await new Promise(() => {});
    }
    return next(args);
  },
  { step: 'initialize', name: 'halt-in-sync' },
);

void syncDevices({ listDevices: async () => fleet, getDevice: async (sn) => fleet.find((d) => d.devicesn === sn) });
