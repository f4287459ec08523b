/**
 * Seconds, not minutes (`npm run bench -- push`): a private `npm start` with its Webex and Zoom
 * fakes (demo fleet, still, SYNC_INTERVAL_SECONDS=3600 so no full sync runs during the bench), a
 * webhook channel pointing at a receiver this process runs, and a watcher raising Major on every
 * disconnected device with no pending time. Devices are switched off and on again through the
 * fakes' control path (`POST /_fake/devices/<serial>`); for each change, the time from just
 * before that request to the arrival of the first signed notification naming the device
 * (`alarms.raised` for off, `alarms.cleared` for on). Zoom pushes its change (a signed event to
 * our receiver); Webex is found by the status poll (STATUS_POLL_SECONDS). Then what the polls
 * cost: vendor requests per hour during the run (the fakes' `GET /_fake/stats`; no full sync ran)
 * against a full sync every STATUS_POLL_SECONDS (one full listing's requests, measured with the
 * real adapters against the same fakes). Targets: Zoom p95 <= 10 s, Webex p95 <=
 * STATUS_POLL_SECONDS + 10 s, polling at least 10x fewer requests per hour than full syncs.
 */
import { startInstance } from '../scripts/local/instance';
import { freePort } from '../scripts/local/ports';
import { fakeEnv } from '../scripts/local/fakes/index';
import { byRoom, splitFleet } from '../scripts/local/fakes/fleet';
import { startWebhookReceiver, type Arrival } from '../tests/support/webhookReceiver';
import { median, reportResult, round, runWhenMain } from './lib';

const POLL_SECONDS = Number(process.env.BENCH_PUSH_POLL_SECONDS ?? 60);
/** Changes per vendor (each device is switched off, then on: two changes). */
const CHANGES = Number(process.env.BENCH_PUSH_CHANGES ?? 50);
const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 300);
/** Devices changing at the same time: Zoom's few devices cycle several times, Webex's many once. */
const ZOOM_LANES = Number(process.env.BENCH_PUSH_ZOOM_LANES ?? 5);
const WEBEX_LANES = Number(process.env.BENCH_PUSH_WEBEX_LANES ?? 25);
/** Seconds between a Zoom device's notification and its next change (a uniform draw up to this). */
const ZOOM_GAP_SECONDS = 4;
/** The full sync's interval: 3600 (none during the run) unless a harness check asks for the old way. */
const SYNC_SECONDS = Number(process.env.BENCH_PUSH_SYNC_SECONDS ?? 3600);
/** Longest wait for one change's notification, seconds (default: 120 for Zoom, two poll intervals + 60 for Webex). */
const WAIT_SECONDS = process.env.BENCH_PUSH_WAIT_SECONDS ? Number(process.env.BENCH_PUSH_WAIT_SECONDS) : undefined;
const KEY = 'bench-push-key';
const SEED = '42';
const TARGET_ZOOM_P95_MS = 10_000;
const TARGET_WEBEX_P95_MS = (POLL_SECONDS + 10) * 1000;
const TARGET_POLL_RATIO = 10;

type Vendor = 'zoom' | 'webex';

interface Change {
  vendor: Vendor;
  devicesn: string;
  connected: boolean;
  at: number;
  /** ms from the change to the notification; undefined when none came within the wait. */
  delayMs?: number;
}

/** A deterministic stream in [0, 1): the same run draws the same waits. */
const sequence = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Nearest-rank percentile; a change never notified counts as infinitely late. */
const percentile = (sorted: readonly number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN);

export const runPushBench = async () => {
  const receiver = await startWebhookReceiver('/push-bench');
  const ports = { webex: await freePort(), zoom: await freePort() };
  const fakeUrl = { webex: `http://127.0.0.1:${ports.webex}`, zoom: `http://127.0.0.1:${ports.zoom}` };
  const env: Record<string, string> = {
    API_KEY: KEY,
    // npm start's own fakes (no provider named), its demo fleet still
    DEVICE_PROVIDER: '',
    DEVICE_PROVIDERS: '',
    SEED_DEVICES: String(DEVICES),
    SIM_SEED: SEED,
    SIM_CHURN: '0',
    SYNC_INTERVAL_SECONDS: String(SYNC_SECONDS),
    STATUS_POLL_SECONDS: String(POLL_SECONDS),
    DEMO_WATCHER: '0',
    REPORT_INTERVAL_SECONDS: '0',
    WEBEX_FAKE_PORT: String(ports.webex),
    ZOOM_FAKE_PORT: String(ports.zoom),
  };
  const instance = await startInstance({ workFolder: '.esbuild-bench', env, echo: process.env.BENCH_PUSH_ECHO === '1' }).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  try {
    const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${instance.url}${path}`, {
        method,
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    /** Each provider's status polls so far and the vendor requests they sent (GET /providers, the poll's own meter). */
    const pollCounters = async () => {
      const report = (await call<{ providers: { name: string; statusPolls?: { count: number; requests: number } | null }[] }>('GET', '/providers')).body;
      const of = (vendor: Vendor) => report.providers.find((p) => p.name === vendor)?.statusPolls ?? { count: 0, requests: 0 };
      return { zoom: of('zoom'), webex: of('webex') };
    };
    const fakeStats = async (vendor: Vendor) => (await (await fetch(`${fakeUrl[vendor]}/_fake/stats`)).json()) as { requests: number; throttled: number; failed: number };

    // the channel (its secret is in this answer only) and the watcher: Major on every disconnected device, no pending time
    const channel = await call<{ id: string; secret: string }>('POST', '/channels', { name: 'push bench', type: 'webhook', url: receiver.url, format: 'json' });
    if (channel.status !== 201) throw new Error(`POST /channels answered ${channel.status}: ${JSON.stringify(channel.body)}`);
    receiver.state.secret = channel.body.secret;
    const watcher = await call<string>('POST', '/watcher', {
      user: 'bench',
      dashboard: 'bench',
      service: 'video',
      type: 'offline',
      allDevices: true,
      severity: 2,
      description: 'device disconnected (push bench)',
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
      sendEmail: false,
      channelIds: [channel.body.id],
      pendingSeconds: 0,
      // the bench switches the same devices off and on many times in minutes: damping would hold their
      // alarms open as flapping, and the bench measures how fast each change is told, not the damping
      flapping: false,
    });
    if (watcher.status !== 200) throw new Error(`POST /watcher answered ${watcher.status}: ${JSON.stringify(watcher.body)}`);
    // the demo fleet's devices already disconnected raise their alarms now, not during the measurement
    // (409 while another evaluation holds the evaluator's lease: asked again until it answers)
    let settled = await call('POST', '/alarms/evaluate');
    for (let tries = 0; settled.status === 409 && tries < 60; tries++) {
      await sleep(1000);
      settled = await call('POST', '/alarms/evaluate');
    }
    if (settled.status !== 200) throw new Error(`POST /alarms/evaluate answered ${settled.status}: ${JSON.stringify(settled.body)}`);

    // which devices change: connected ones; for Zoom the room's computer (the first device of
    // each room in the fake, `Zoom Rooms Computer`), whose going offline is Zoom's "Zoom room is offline"
    const { providerFromEnv } = await import('../lib/inventory/provider/index');
    const fleet = await providerFromEnv({ DEVICE_PROVIDER: 'simulated', SEED_DEVICES: String(DEVICES), SIM_SEED: SEED, SIM_CHURN: '0' }).listDevices();
    const split = splitFleet(fleet);
    const stored = (await call<{ devicesn: string; vendor?: string; deviceconnected: boolean }[]>('POST', '/videoDevice/all/allDevices', { regionName: 'all', locationName: 'all', roomName: 'all' })).body;
    const storedBy = new Map(stored.map((device) => [device.devicesn, device]));
    const usable = (vendor: Vendor, serial: string) => storedBy.get(serial)?.vendor === vendor && storedBy.get(serial)?.deviceconnected === true;
    const candidates: Record<Vendor, string[]> = {
      zoom: byRoom(split.zoom).map((members) => members[0]!.devicesn).filter((serial) => usable('zoom', serial)),
      webex: split.webex.map((device) => device.devicesn).filter((serial) => usable('webex', serial)),
    };

    const controlPath = async (vendor: Vendor, serial: string, connected: boolean) => {
      const res = await fetch(`${fakeUrl[vendor]}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'POST', body: JSON.stringify({ connected }) });
      if (res.status !== 200) throw new Error(`${vendor} fake: POST /_fake/devices/${serial} answered ${res.status}: ${await res.text()}`);
    };
    /** The first signed notification after `from` naming `serial` as raised (off) or cleared (on). */
    const matched = new Set<Arrival>();
    const notified = async (serial: string, connected: boolean, from: number, waitMs: number): Promise<number | undefined> => {
      const type = connected ? 'alarms.cleared' : 'alarms.raised';
      const deadline = from + waitMs;
      for (;;) {
        const found = receiver.arrivals.find((a) => a.signed && a.at >= from && a.type === type && a.alarms.some((alarm) => alarm.devicesn === serial));
        if (found) {
          matched.add(found);
          return found.at;
        }
        if (Date.now() > deadline) return undefined;
        await sleep(50);
      }
    };
    // Zoom pushes: the wait covers the scheduled evaluator too, so a slow path is measured, not lost
    const waitMs: Record<Vendor, number> = { zoom: (WAIT_SECONDS ?? 120) * 1000, webex: (WAIT_SECONDS ?? 2 * POLL_SECONDS + 60) * 1000 };
    const changes: Change[] = [];
    const random = sequence(38);
    /** One device at a time, off then on, `cycles` times; the waits before each change drawn in [0, gapSeconds). */
    const lane = async (vendor: Vendor, serial: string, cycles: number, startAfterMs: number, gapSeconds: number) => {
      await sleep(startAfterMs);
      for (let cycle = 0; cycle < cycles; cycle++) {
        for (const connected of [false, true]) {
          await sleep(random() * gapSeconds * 1000);
          const at = Date.now();
          await controlPath(vendor, serial, connected);
          const arrived = await notified(serial, connected, at, waitMs[vendor]);
          changes.push({ vendor, devicesn: serial, connected, at, ...(arrived === undefined ? {} : { delayMs: arrived - at }) });
          // a device not seen off in time is switched on anyway: every later change still starts from connected
        }
      }
    };
    const plan = (vendor: Vendor, lanes: number) => {
      const devices = candidates[vendor].slice(0, Math.min(lanes, candidates[vendor].length));
      if (devices.length === 0) throw new Error(`no connected ${vendor} device to change`);
      return { devices, cycles: Math.ceil(CHANGES / 2 / devices.length) };
    };
    const zoomPlan = plan('zoom', ZOOM_LANES);
    const webexPlan = plan('webex', WEBEX_LANES);

    // the settling digest has arrived (or never will): from here every notification is the run's
    await sleep(3000);
    const statsAtStart = { zoom: await fakeStats('zoom'), webex: await fakeStats('webex') };
    const pollsAtStart = await pollCounters();
    const windowStart = Date.now();
    await Promise.all([
      ...zoomPlan.devices.map((serial, i) => lane('zoom', serial, zoomPlan.cycles, i * 500, ZOOM_GAP_SECONDS)),
      // Webex lanes start spread over one poll interval, and each change waits a draw up to one
      // interval: changes land at every phase of the poll, as a real device's would
      ...webexPlan.devices.map((serial, i) => lane('webex', serial, webexPlan.cycles, (i * POLL_SECONDS * 1000) / webexPlan.devices.length, POLL_SECONDS)),
    ]);
    const windowMs = Date.now() - windowStart;
    const statsAtEnd = { zoom: await fakeStats('zoom'), webex: await fakeStats('webex') };
    const pollsAtEnd = await pollCounters();

    // what a full sync costs each vendor: one full listing through the real adapters against the
    // same fakes (the least of three, so that a poll landing meanwhile is not counted)
    const { providersFromEnv } = await import('../lib/inventory/provider/index');
    const adapters = providersFromEnv({ ...fakeEnv(fakeUrl.webex, fakeUrl.zoom), DEVICE_PROVIDERS: 'webex,zoom' });
    const fullListing: Record<Vendor, number> = { zoom: Number.POSITIVE_INFINITY, webex: Number.POSITIVE_INFINITY };
    for (let round_ = 0; round_ < 3; round_++) {
      for (const adapter of adapters) {
        const vendor = adapter.name as Vendor;
        const before = await fakeStats(vendor);
        await adapter.provider.listDevices();
        fullListing[vendor] = Math.min(fullListing[vendor], (await fakeStats(vendor)).requests - before.requests);
      }
    }
    const providersReport = (await call<{ providers: { name: string; requests?: number }[] }>('GET', '/providers')).body;
    const webhookStats = (await (await fetch(`${fakeUrl.zoom}/_fake/webhook`)).json()) as Record<string, unknown>;

    const perHour = 3600 / POLL_SECONDS;
    const cost = (vendor: Vendor) => {
      const polls = pollsAtEnd[vendor].count - pollsAtStart[vendor].count;
      const pollRequests = pollsAtEnd[vendor].requests - pollsAtStart[vendor].requests;
      const requestsPerPoll = polls > 0 ? round(pollRequests / polls, 2) : 0;
      const fullSyncsPerHour = perHour;
      return {
        polls,
        pollRequests,
        requestsPerPoll,
        pollRequestsPerHour: round(requestsPerPoll * perHour, 1),
        // what else asked the vendor during the run (the fakes' counters less the polls' own)
        otherRequests: statsAtEnd[vendor].requests - statsAtStart[vendor].requests - pollRequests,
        fullListingRequests: fullListing[vendor],
        fullSyncRequestsPerHourAtSameFreshness: round(fullListing[vendor] * fullSyncsPerHour, 1),
        lastSyncRequestsInProviders: providersReport.providers.find((p) => p.name === vendor)?.requests ?? null,
      };
    };
    const costs = { zoom: cost('zoom'), webex: cost('webex') };
    const totalPoll = costs.zoom.pollRequestsPerHour + costs.webex.pollRequestsPerHour;
    const totalFull = costs.zoom.fullSyncRequestsPerHourAtSameFreshness + costs.webex.fullSyncRequestsPerHourAtSameFreshness;
    const ratio = (full: number, poll: number) => (poll > 0 ? round(full / poll, 1) : null);

    const unsigned = receiver.arrivals.filter((a) => !a.signed).length;
    /**
     * Notifications naming a changed device that answer none of its changes: a clear while the
     * fake still has it off (or a raise while on) says something put it wrong in between.
     */
    const unexpected = (vendor: Vendor) => {
      const serials = new Set(changes.filter((c) => c.vendor === vendor).map((c) => c.devicesn));
      return receiver.arrivals.filter((a) => a.signed && a.at >= windowStart && !matched.has(a) && (a.type === 'alarms.raised' || a.type === 'alarms.cleared') && a.alarms.some((alarm) => serials.has(alarm.devicesn))).length;
    };
    const latency = (vendor: Vendor) => {
      const mine = changes.filter((c) => c.vendor === vendor);
      const delays = mine.map((c) => c.delayMs ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
      const seen = mine.flatMap((c) => (c.delayMs === undefined ? [] : [c.delayMs]));
      const figure = (value: number) => (Number.isFinite(value) ? round(value / 1000, 2) : null);
      return {
        changes: mine.length,
        devices: new Set(mine.map((c) => c.devicesn)).size,
        notified: seen.length,
        missed: mine.length - seen.length,
        medianSeconds: figure(median(delays)),
        p95Seconds: figure(percentile(delays, 95)),
        maxSeconds: figure(delays.at(-1) ?? Number.NaN),
        offMedianSeconds: figure(median(mine.filter((c) => !c.connected).map((c) => c.delayMs ?? Number.POSITIVE_INFINITY))),
        onMedianSeconds: figure(median(mine.filter((c) => c.connected).map((c) => c.delayMs ?? Number.POSITIVE_INFINITY))),
        unexpectedNotifications: unexpected(vendor),
      };
    };
    const zoom = latency('zoom');
    const webex = latency('webex');
    const met = {
      zoom: zoom.p95Seconds !== null && zoom.p95Seconds * 1000 <= TARGET_ZOOM_P95_MS,
      webex: webex.p95Seconds !== null && webex.p95Seconds * 1000 <= TARGET_WEBEX_P95_MS,
      polling: (ratio(totalFull, totalPoll) ?? 0) >= TARGET_POLL_RATIO,
    };
    const summary = {
      devices: DEVICES,
      syncIntervalSeconds: SYNC_SECONDS,
      statusPollSeconds: POLL_SECONDS,
      evaluateIntervalSeconds: process.env.EVALUATE_INTERVAL_SECONDS ?? 'npm start default',
      windowSeconds: round(windowMs / 1000, 1),
      zoom,
      webex,
      targets: { zoomP95Seconds: TARGET_ZOOM_P95_MS / 1000, webexP95Seconds: TARGET_WEBEX_P95_MS / 1000, pollRatio: TARGET_POLL_RATIO },
      met,
      polling: { ...costs, totalPollRequestsPerHour: round(totalPoll, 1), totalFullSyncRequestsPerHour: round(totalFull, 1), ratio: ratio(totalFull, totalPoll), zoomRatio: ratio(costs.zoom.fullSyncRequestsPerHourAtSameFreshness, costs.zoom.pollRequestsPerHour), webexRatio: ratio(costs.webex.fullSyncRequestsPerHourAtSameFreshness, costs.webex.pollRequestsPerHour) },
      notifications: { received: receiver.arrivals.length, unsigned },
      zoomWebhooks: webhookStats,
      providers: providersReport,
      changes,
    };
    const show = (value: number | null) => (value === null ? 'never (missed)' : `${value} s`);
    const markdown = [
      '# Seconds, not minutes: from a change at the vendor to our signed webhook',
      '',
      `A private \`npm start\` with its Webex and Zoom fakes (demo fleet of ${DEVICES} devices, seed ${SEED}, still), SYNC_INTERVAL_SECONDS=${SYNC_SECONDS}${SYNC_SECONDS >= 3600 ? ' (no full sync during the run)' : ' (full syncs during the run: a harness check, not the figure)'},`,
      `STATUS_POLL_SECONDS=${POLL_SECONDS}, the evaluator on npm start's schedule; a webhook channel to a receiver of the bench, a watcher on every disconnected device (Major, no pending time).`,
      'Each change: a device switched off (or on again) through its fake\'s `POST /_fake/devices/<serial>`; its delay runs from just before that request to the arrival of the first',
      `signed notification naming the device (\`alarms.raised\` for off, \`alarms.cleared\` for on). Zoom: ${zoomPlan.devices.length} room computers, ${zoomPlan.cycles} off/on cycles each`,
      `(waits up to ${ZOOM_GAP_SECONDS} s between); Webex: ${webexPlan.devices.length} devices, ${webexPlan.cycles} cycle(s) each, every change after a wait drawn up to one poll interval (all phases of the poll).`,
      '',
      '| vendor | how we learn | changes | notified | missed | median | p95 | max | target p95 | |',
      '|---|---|---:|---:|---:|---:|---:|---:|---|---|',
      `| Zoom | pushed event | ${zoom.changes} | ${zoom.notified} | ${zoom.missed} | ${show(zoom.medianSeconds)} | ${show(zoom.p95Seconds)} | ${show(zoom.maxSeconds)} | <= ${TARGET_ZOOM_P95_MS / 1000} s | ${met.zoom ? 'met' : '**NOT met**'} |`,
      `| Webex | status poll | ${webex.changes} | ${webex.notified} | ${webex.missed} | ${show(webex.medianSeconds)} | ${show(webex.p95Seconds)} | ${show(webex.maxSeconds)} | <= ${TARGET_WEBEX_P95_MS / 1000} s | ${met.webex ? 'met' : '**NOT met**'} |`,
      '',
      `Medians off / on: Zoom ${show(zoom.offMedianSeconds)} / ${show(zoom.onMedianSeconds)}, Webex ${show(webex.offMedianSeconds)} / ${show(webex.onMedianSeconds)}. A change not notified within ${waitMs.zoom / 1000} s (Zoom) or ${waitMs.webex / 1000} s (Webex) is missed and counts as infinitely late.`,
      `Notifications received: ${receiver.arrivals.length} (${unsigned} failing the signature check, not counted); raised or cleared notifications naming a changed device that answer none of its changes (a state put wrong in between): Zoom ${zoom.unexpectedNotifications}, Webex ${webex.unexpectedNotifications}.`,
      `The Zoom fake's webhooks: ${JSON.stringify(webhookStats)}.`,
      '',
      `Vendor requests per hour spent keeping devices fresh to ${POLL_SECONDS} s: the status polls of the ${round(windowMs / 1000, 1)} s run (their own count in GET /providers \`statusPolls\`, tokens not counted), per poll times 3600 / ${POLL_SECONDS}, against a full sync as often:`,
      '',
      '| vendor | full sync: requests per listing | full syncs every STATUS_POLL_SECONDS: requests/h | status polls in run: polls, requests | requests per poll | status polls: requests/h | fewer |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...(['zoom', 'webex'] as const).map((vendor) => {
        const c = costs[vendor];
        const fewer = ratio(c.fullSyncRequestsPerHourAtSameFreshness, c.pollRequestsPerHour);
        return `| ${vendor === 'zoom' ? 'Zoom' : 'Webex'} | ${c.fullListingRequests} | ${c.fullSyncRequestsPerHourAtSameFreshness} | ${c.polls}, ${c.pollRequests} | ${c.requestsPerPoll} | ${c.pollRequestsPerHour} | ${fewer === null ? 'no poll ran' : `${fewer}x`} |`;
      }),
      `| both | | ${round(totalFull, 1)} | | | ${round(totalPoll, 1)} | ${summary.polling.ratio === null ? 'no poll ran' : `${summary.polling.ratio}x`} (target >= ${TARGET_POLL_RATIO}x: ${met.polling ? 'met' : '**NOT met**'}) |`,
      '',
      `A full listing's requests are the least of three listings through the real adapters against the same fakes after the run (GET /providers named ${costs.zoom.lastSyncRequestsInProviders ?? '–'} for Zoom's and ${costs.webex.lastSyncRequestsInProviders ?? '–'} for Webex's last sync).`,
      'Zoom\'s full listing reads each room\'s devices (one request per room); its status poll lists the Offline rooms, then reads the devices of each room where that list and what we hold differ or may (a room holding a disconnected device that is not Offline is read at every poll).',
      'Webex\'s full listing at this size is three requests (devices 1,000 a page, workspaces, locations); its status poll is the devices alone, unfiltered, while the fleet fits in fewer pages than the five not-connected `connectionStatus` filters (one listing each otherwise).',
      `Other vendor requests during the run (the fakes' counters less the polls'): Zoom ${costs.zoom.otherRequests}, Webex ${costs.webex.otherRequests}.`,
    ].join('\n');
    reportResult('push', summary, markdown);
  } finally {
    await instance.stop();
    await receiver.close();
  }
};

runWhenMain(module, runPushBench);
