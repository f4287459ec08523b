/**
 * Stopping a local start for good. `npm start` is a tree of processes in two process groups
 * (npm -> node scripts/start.ts with the embedded store, and `serverless offline` in a group
 * of its own); a child whose parent died is re-parented and escapes a walk of the tree. So
 * each start carries a marker in its environment, which every descendant inherits, and the
 * stop is checked by looking for that marker in /proc (Linux) or `ps -E` (macOS).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * A fresh marker for the environment of one start: `{ LOCAL_START_ID: <uuid> }`. Markers of
 * different names nest (a benchmark's `BENCH_RUN_ID` stays on the starts it makes).
 */
export const startMarker = (name = 'LOCAL_START_ID'): Record<string, string> => ({ [name]: randomUUID() });

export interface MarkedProcess {
  pid: number;
  command: string;
}

/** Every live process whose environment carries this start's marker. */
export const markedProcesses = (marker: Record<string, string>): MarkedProcess[] => {
  const [name, value] = Object.entries(marker)[0]!;
  const needle = `${name}=${value}`;
  if (!existsSync('/proc/self/environ')) {
    return execFileSync('ps', ['-A', '-wwE', '-o', 'pid=,command='])
      .toString()
      .split('\n')
      .filter((line) => line.includes(needle))
      .map((line) => ({ pid: Number(line.trim().split(/\s+/)[0]), command: line.trim().split(needle)[0]!.slice(0, 200) }))
      .filter((p) => p.pid !== process.pid);
  }
  const found: MarkedProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`).includes(`${needle}\0`)) continue;
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`).toString().replaceAll('\0', ' ').trim().slice(0, 200) });
    } catch {
      /* gone meanwhile, or not ours */
    }
  }
  return found;
};

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    /* already gone */
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const waitGone = async (marker: Record<string, string>, ms: number) => {
  const deadline = Date.now() + ms;
  let left = markedProcesses(marker);
  while (left.length && Date.now() < deadline) {
    await sleep(100);
    left = markedProcesses(marker);
  }
  return left;
};

export interface StopReport {
  /** Ctrl-Cs (SIGINT to the group) it took: a second is sent 3 s after the first, and so on */
  interrupts: number;
  /** what did not end by itself within the grace period and was SIGKILLed (empty: a clean stop) */
  killed: MarkedProcess[];
}

const withState = (p: MarkedProcess) => {
  try {
    // state, parent and process group, for the report
    const [state, ppid, pgid] = readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ...p, command: `${p.command} [state ${state}, parent ${ppid}, group ${pgid}]` };
  } catch {
    return p;
  }
};

/**
 * Stops a start as a user at the terminal would: Ctrl-C (SIGINT to its process group), again
 * every 3 s while anything of it still runs, for up to `graceMs`; then SIGKILLs whatever is left
 * (and its group). Throws when even SIGKILL leaves a process behind.
 */
export const stopMarked = async (child: ChildProcess, marker: Record<string, string>, graceMs = 15_000): Promise<StopReport> => {
  const deadline = Date.now() + graceMs;
  let interrupts = 0;
  let left = markedProcesses(marker);
  while (left.length && Date.now() < deadline) {
    if (child.pid !== undefined && child.exitCode === null) {
      signal(-child.pid, 'SIGINT');
      interrupts++;
    } else {
      // the group's leader is gone: interrupt what is left of the tree directly
      for (const { pid } of left) signal(pid, 'SIGINT');
      interrupts++;
    }
    left = await waitGone(marker, Math.min(3000, deadline - Date.now()));
  }
  const killed = left.map(withState);
  for (const { pid } of killed) {
    signal(-pid, 'SIGKILL');
    signal(pid, 'SIGKILL');
  }
  const stubborn = await waitGone(marker, 5000);
  if (stubborn.length) throw new Error(`processes survived SIGKILL: ${stubborn.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
  return { interrupts, killed };
};

/** Whether nothing accepts connections on this local port any more (IPv4 and IPv6 loopback). */
export const portClosed = async (port: number): Promise<boolean> => {
  const accepts = (host: string) =>
    new Promise<boolean>((done) => {
      const socket = connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
  return !(await accepts('127.0.0.1')) && !(await accepts('::1'));
};

const startedSecondsAgo = (pid: number): number | undefined => {
  try {
    // field 22 of /proc/<pid>/stat, counted after the command name in parentheses
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return uptime - ticks / 100;
  } catch {
    return undefined;
  }
};

/**
 * Seconds since the user's command: this process's age, or that of the `npm start` (and its
 * `sh -c`) that launched it, when there is one (Linux); the node process's uptime elsewhere.
 */
export const secondsSinceCommand = (): number => {
  let seconds = process.uptime();
  let pid = process.ppid;
  for (let hops = 0; hops < 3 && pid > 1; hops++) {
    let cmdline: string[];
    let parent: number;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`).toString().split('\0');
      parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    } catch {
      break;
    }
    const launcher = cmdline.some((arg) => /(^|\/)npm(-cli\.js)?$/.test(arg)) || (/(^|\/)sh$/.test(cmdline[0] ?? '') && cmdline[1] === '-c');
    if (!launcher) break;
    seconds = Math.max(seconds, startedSecondsAgo(pid) ?? seconds);
    pid = parent;
  }
  return seconds;
};
