/**
 * One vendor fake in a process of its own for `npm run bench -- providers` (so that the sync's
 * memory is measured without it): `providers-fake.ts <webex|zoom> <devices> <rate429>` prints
 * its URL on stdout, serves until its stdin ends.
 */
import { simulatedFleet } from '../lib/inventory/provider/simulated';
import { FAKE_CREDENTIALS } from '../scripts/local/fakes/index';
import { startWebexFake } from '../scripts/local/fakes/webex';
import { startZoomFake } from '../scripts/local/fakes/zoom';

const main = async () => {
  const [vendor, count, rate] = process.argv.slice(2);
  const devices = simulatedFleet({ seed: 1, devices: Number(count), rooms: Math.ceil(Number(count) / 4) });
  const faults = { rate429: Number(rate) };
  const fake =
    vendor === 'webex'
      ? await startWebexFake({ devices: () => devices, ...FAKE_CREDENTIALS.webex, extras: false, faults: { ...faults, retryAfterSeconds: 1 } })
      : await startZoomFake({ devices: () => devices, ...FAKE_CREDENTIALS.zoom, extras: false, faults: { ...faults, retryAfterSeconds: null } });
  process.stdout.write(`${fake.url}\n`);
  process.stdin.on('end', () => void fake.close().then(() => process.exit(0)));
  process.stdin.resume();
};

void main();
