/**
 * The 1M-device projection of the capacity bench: per key, the read and write units per second
 * on its busiest partition, from the figures measured at the bench's largest size, scaled.
 * Assumptions are named in `ASSUME` and written with the result.
 */
import { round } from './lib';

export const PRICES = {
  region: 'us-east-1',
  date: '2024-11-01 (on-demand price cut; still the list price when measured)',
  readRequestUnitUsdPerMillion: 0.125,
  writeRequestUnitUsdPerMillion: 0.625,
  storageUsdPerGbMonth: 0.25,
};

export const ASSUME = {
  devices: 1_000_000,
  rooms: 250_000,
  shards: Number(process.env.SHARDS ?? 8),
  dashboards: 100,
  countEndpoints: 6,
  pollSeconds: 10,
  syncSeconds: 300,
  reconcileSeconds: 3600,
  tickSeconds: 60,
  /** Devices changing per sync: the bench's steady rate (100 of 100k). */
  changedShare: 0.001,
  /** Open alarms at any time: one in ten devices (the storm's state). */
  openShare: 0.1,
  /** Bytes of one open alarm item as read by the full pass. */
  alarmItemBytes: 450,
  /** the local store's TOTAL is counted as table units only; each device, room and alarm write also writes up to 2 GSI entries. */
  gsiWriteFactor: 3,
  /** Bytes stored per device / room / open alarm, all copies (table + GSIs). */
  storageBytes: { device: 3 * 400, room: 3 * 300, alarm: 2 * 450 },
  secondsPerMonth: 30 * 24 * 3600,
};

const LIMIT = { rcu: 3000, wcu: 1000 };

/** Time and capacity of one piece of background work (bench/capacity.ts measures them). */
export interface Work {
  ms: number;
  rcu: number;
  wcu: number;
  readRequests: number;
  writeRequests: number;
  writeItems: number;
}

/** The background figures at the bench's largest size (each part only when it ran). */
export interface Background {
  devices?: number;
  rooms?: number;
  watchers?: number;
  reads?: { indexRcu: number; indexMs: number; roomsRcu: number; roomsMs: number };
  fullPassNothingToDo?: Work;
  steady?: { changesPerSync: number; rounds: number; sync: Work; evaluation: Work; fullPass: Work; evaluationVsFullPass: { time: number; rcu: number } };
  storm?: {
    disconnected: number;
    secondsUntilRoomsRight: number;
    secondsUntilRunDone: number;
    roomsWrongAfter: number;
    sync: Work;
    evaluation: Work & { raised: number; roomsRecomputed: number; complete: boolean };
    writesIssued: number;
    fullPassAfter?: Work;
  };
}

export const project = ({ background: b, shardShare, summaryRcu }: { background: Background; shardShare: { serials: number; rooms: number }; summaryRcu: number }) => {
  const n0 = b.devices ?? 100_000;
  const r0 = b.rooms ?? 1000;
  const a = ASSUME;
  const scaleD = a.devices / n0;
  const scaleR = a.rooms / r0;
  const reads = b.reads ?? { indexRcu: 0, indexMs: 1, roomsRcu: 0, roomsMs: 1 };
  const changed = a.devices * a.changedShare;
  // the window a sync's reads take: the measured time at n0, scaled linearly (local-store speed; DynamoDB is faster, so this is a floor of the rate)
  const indexWindow = Math.max(1, (reads.indexMs / 1000) * scaleD);
  const roomsWindow = Math.max(1, (reads.roomsMs / 1000) * scaleR);
  const indexPerShard = reads.indexRcu * scaleD * shardShare.serials;
  const roomsPerShard = reads.roomsRcu * scaleR * shardShare.rooms;
  const wcuPerChange = ((b.steady?.sync.wcu ?? 0) + (b.steady?.evaluation.wcu ?? 0)) / Math.max(1, n0 * a.changedShare);
  const alarmReadPerShard = ((a.devices * a.openShare * a.alarmItemBytes) / 4096) * 0.5 * (1 / a.shards) * 1.05;
  const keys = [
    {
      key: 'inventory index SERIALS#<n> (GSI2)',
      rcuPerSecond: indexPerShard / indexWindow,
      wcuPerSecond: (changed * shardShare.serials) / indexWindow,
      note: 'one full read per sync (and per hourly full pass) in the read window; one index write per changed device',
    },
    {
      key: 'room aggregates ROOMS#<n> (+ GSI1, GSI2)',
      rcuPerSecond: roomsPerShard / roomsWindow,
      wcuPerSecond: (Math.min(changed, a.rooms) * shardShare.rooms) / roomsWindow,
      note: 'one read of every room per sync (drift check); one write per recounted room',
    },
    {
      key: 'summary SUMMARY#ALL',
      rcuPerSecond: ((a.dashboards * a.countEndpoints) / a.pollSeconds) * summaryRcu,
      wcuPerSecond: (2 * (1 / a.syncSeconds + 1 / a.tickSeconds)) * 1,
      note: 'every dashboard polling the everything scope (worst case: one partition); two writes per run that recounts rooms',
    },
    {
      key: 'open alarms ALARMS#OPEN#<n> (GSI1)',
      rcuPerSecond: alarmReadPerShard / Math.max(1, indexWindow),
      wcuPerSecond: (changed / a.shards) * 1.05 / indexWindow,
      note: 'read by the hourly full pass; one index write per transition',
    },
    {
      key: 'evaluation queue EVALQ#<n>',
      rcuPerSecond: ((changed * shardShare.serials * 200) / 4096) / 1,
      wcuPerSecond: (2 * changed * shardShare.serials) / indexWindow,
      note: 'a put before and a delete after each changed device; read once (consistent) per run',
    },
  ].map((k) => ({
    ...k,
    rcuPerSecond: round(k.rcuPerSecond, 1),
    wcuPerSecond: round(k.wcuPerSecond, 1),
    shareOfLimit: round(Math.max(k.rcuPerSecond / LIMIT.rcu, k.wcuPerSecond / LIMIT.wcu), 4),
  }));
  const busiest = keys.reduce((worst, k) => (k.shareOfLimit > worst.shareOfLimit ? k : worst));

  const month = a.secondsPerMonth;
  const syncsPerMonth = month / a.syncSeconds;
  const passesPerMonth = month / a.reconcileSeconds;
  const readUnits =
    ((a.dashboards * a.countEndpoints) / a.pollSeconds) * summaryRcu * month +
    syncsPerMonth * (reads.indexRcu * scaleD + reads.roomsRcu * scaleR + ((b.steady?.evaluation.rcu ?? 0) * changed) / Math.max(1, n0 * a.changedShare)) +
    passesPerMonth * (reads.indexRcu * scaleD + reads.roomsRcu * scaleR + alarmReadPerShard * a.shards) +
    (month / a.tickSeconds) * a.shards * 0.5;
  const writeUnits = syncsPerMonth * changed * wcuPerChange * a.gsiWriteFactor;
  const gb = (a.devices * a.storageBytes.device + a.rooms * a.storageBytes.room + a.devices * a.openShare * a.storageBytes.alarm) / 1e9;
  const usd = {
    reads: round((readUnits / 1e6) * PRICES.readRequestUnitUsdPerMillion, 2),
    writes: round((writeUnits / 1e6) * PRICES.writeRequestUnitUsdPerMillion, 2),
    storage: round(gb * PRICES.storageUsdPerGbMonth, 2),
    total: 0,
  };
  usd.total = round(usd.reads + usd.writes + usd.storage, 2);
  return {
    assumptions: { ...a, shardShare, readWindowsSeconds: { index: round(indexWindow, 1), rooms: round(roomsWindow, 1) }, wcuPerChangedDevice: round(wcuPerChange, 2) },
    keys,
    busiest: busiest.key,
    busiestShareOfLimit: busiest.shareOfLimit,
    monthly: { readRequestUnits: Math.round(readUnits), writeRequestUnits: Math.round(writeUnits), storageGb: round(gb, 2) },
    monthlyUsd: usd,
  };
};
