import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../../scripts/local/instance';
import { freePort } from '../../scripts/local/ports';
import { root } from '../../scripts/registry';
import { answerOf, commandsOf, differences, NOT_RUN, parseAnswer, shellBlocksOf, type Command } from '../support/examples';

/*
 * Every shell block of the README and the guide pages, run as written, page by page in order,
 * against a fresh `npm start` with no internet (docs/guide/testing.md "Examples"): a block fails
 * when a command exits non-zero, when curl gets a 4xx/5xx it does not print itself, or when a
 * command's answer differs from the one the text gives beside it.
 */
// the first hour's path first (README, then the tour, as a newcomer reads them on a fresh start), then the rest of the guide
const PAGES = [
  'README.md',
  'docs/guide/tour.md',
  ...readdirSync(join(root, 'docs/guide'))
    .filter((name) => name.endsWith('.md') && name !== 'tour.md')
    .sort()
    .map((name) => `docs/guide/${name}`),
];

/** The local ports the docs name, from `PORT` (3000) as npm start derives them. */
const DOCUMENTED = { api: 3000, docs: 3001, socket: 3003, webex: 3004, zoom: 3005, servicenow: 3007 } as const;
type Ports = Record<keyof typeof DOCUMENTED, number>;

/** `[VAR=value ...] npm start`: the service a page runs against, not a command of the shell. */
const START = /^((?:\w+=\S*\s+)*)npm start\s*(?:#.*)?$/;

const instances = new Map<string, Promise<{ instance: Instance; ports: Ports }>>();
/** A fresh npm start per distinct environment a page asks for (the default: none), as a user runs it. */
const serviceFor = (env: string) => {
  let started = instances.get(env);
  if (!started) {
    started = (async () => {
      const ports = Object.fromEntries(await Promise.all(Object.keys(DOCUMENTED).map(async (name) => [name, await freePort()]))) as Ports;
      const vars = Object.fromEntries(env.split(/\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
      const instance = await startInstance({
        workFolder: '.esbuild-e2e-examples',
        echo: process.env.E2E_SERVER_LOGS === '1',
        env: {
          PORT: String(ports.api),
          DOCS_PORT: String(ports.docs),
          WEBSOCKET_PORT: String(ports.socket),
          WEBEX_FAKE_PORT: String(ports.webex),
          ZOOM_FAKE_PORT: String(ports.zoom),
          SERVICENOW_FAKE_PORT: String(ports.servicenow),
          ...vars,
        },
      });
      return { instance, ports };
    })();
    instances.set(env, started);
  }
  return started;
};
afterAll(async () => {
  for (const started of instances.values()) await (await started.catch(() => undefined))?.instance.stop();
}, 120_000);

/** The documented ports, as this run's instance has them. */
const localised = (text: string, ports: Ports) =>
  Object.entries(DOCUMENTED).reduce((out, [name, port]) => out.replace(new RegExp(`(localhost|127\\.0\\.0\\.1):${port}\\b`, 'g'), `$1:${ports[name as keyof Ports]}`), text);

/** Only Node and curl, besides the shell: a folder holding just those two is the whole PATH. */
const toolsFolder = () => {
  const bin = mkdtempSync(join(tmpdir(), 'examples-bin-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/usr/bin/curl', join(bin, 'curl'));
  return bin;
};

/**
 * The page's commands as one bash script: curl reports each answer's status on stderr, and each
 * command is followed by a mark with its exit status (the script stops at the first that fails).
 */
const scriptOf = (commands: { command: Command; start: boolean }[], ports: Ports) =>
  [
    // a failing command stops the page, even inside a list or a pipeline (`A=$(missing-tool); B=1`)
    'set -e -o pipefail',
    `curl() { command curl --max-time 120 -w '%{stderr}\\n@@http %{http_code}@@\\n' "$@"; }`,
    `__mark() { local s=$?; printf '\\n@@end %s %s@@\\n' "$1" "$s"; printf '\\n@@end %s@@\\n' "$1" >&2; [ "$s" = 0 ] || exit "$s"; }`,
    ...commands.map(({ command, start }, i) => `${start ? ':' : localised(command.text, ports)}\n__mark ${i}`),
  ].join('\n');

const run = (script: string, cwd: string, bin: string) =>
  new Promise<{ stdout: string; stderr: string }>((done, fail) => {
    const file = join(cwd, 'page.sh');
    writeFileSync(file, script);
    const child = spawn('/bin/bash', ['--noprofile', '--norc', file], {
      cwd,
      env: {
        PATH: bin,
        HOME: cwd,
        LANG: 'C.UTF-8',
        // no internet: any host but this machine goes to a proxy that is not there
        ALL_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: 'localhost,127.0.0.1',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', () => done({ stdout, stderr }));
  });

/** What each command printed, by its mark. */
const sections = (output: string, withStatus: boolean) => {
  const found = new Map<number, { text: string; status?: number }>();
  const mark = withStatus ? /\n@@end (\d+) (\d+)@@\n/g : /\n@@end (\d+)@@\n/g;
  let from = 0;
  for (const match of output.matchAll(mark)) {
    found.set(Number(match[1]), { text: output.slice(from, match.index), status: withStatus ? Number(match[2]) : undefined });
    from = match.index + match[0].length;
  }
  return { found, rest: output.slice(from) };
};

describe('the shell examples of the README and the guide, run as written against a fresh npm start, offline', () => {
  it('exclude a block only for a reason the test knows, and only when the block needs it', () => {
    const wrong = PAGES.flatMap((page) =>
      shellBlocksOf(join(root, page))
        .filter((block) => block.notRun !== undefined)
        .flatMap((block) => {
          const kind = NOT_RUN[block.notRun!];
          if (!kind) return [`${page}:${block.line}: no-run:${block.notRun} is no reason the test knows (${Object.keys(NOT_RUN).join(', ')})`];
          return kind.contains.test(block.text) ? [] : [`${page}:${block.line}: no-run:${block.notRun} (${kind.means}) but the block does no such thing`];
        }),
    );
    expect(wrong).toEqual([]);
  });

  it.each(PAGES)('%s', async (page) => {
    const blocks = shellBlocksOf(join(root, page)).filter((block) => block.notRun === undefined);
    const commands = blocks.flatMap((block) =>
      commandsOf(block.text).map((command) => ({ command, where: `${page}:${block.line + command.line}`, start: START.exec(command.text.trim()) })),
    );
    if (commands.length === 0) return;
    // every answer the text gives parses, before anything runs
    for (const { command, where } of commands) if (command.expected) expect(() => parseAnswer(command.expected!), where).not.toThrow();
    const starts = commands.filter((c) => c.start);
    const env = starts[0]?.start?.[1]?.trim() ?? '';
    expect(new Set(starts.map((c) => c.start![1]!.trim())).size, `${page}: one npm start per page`).toBeLessThanOrEqual(1);
    if (starts.length) expect(commands.findIndex((c) => c.start), `${page}: npm start comes before the page's other commands`).toBe(0);

    const { ports } = await serviceFor(env);
    const cwd = mkdtempSync(join(tmpdir(), 'examples-'));
    const bin = toolsFolder();
    try {
      const { stdout, stderr } = await run(scriptOf(commands.map(({ command, start }) => ({ command, start: Boolean(start) })), ports), cwd, bin);
      const out = sections(stdout, true);
      const err = sections(stderr, false);
      for (const [i, { command, where }] of commands.entries()) {
        const printed = out.found.get(i);
        const told = err.found.get(i)?.text ?? err.rest;
        const context = `${where}\n$ ${command.text}\n--- stdout\n${(printed?.text ?? out.rest).slice(0, 3000)}\n--- stderr\n${told.slice(0, 3000)}`;
        expect(told, `a tool that is not Node or curl: ${context}`).not.toMatch(/command not found/);
        expect(printed, `never finished: ${context}`).toBeDefined();
        expect(printed!.status, `exited with ${printed!.status}: ${context}`).toBe(0);
        const answered = command.expected !== undefined;
        if (answered) {
          const answer = answerOf(printed!.text);
          expect(differences(parseAnswer(localised(command.expected!, ports)), answer), `the answer differs from the text: ${context}`).toEqual([]);
        }
        // a 4xx the text gives beside the command (a documented race: 409, retry) is an answer; any other is an error
        const failed = [...told.matchAll(/@@http (\d+)@@/g)].map((m) => Number(m[1])).filter((status) => status === 0 || status >= (answered ? 500 : 400));
        expect(failed, `HTTP errors: ${context}`).toEqual([]);
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(bin, { recursive: true, force: true });
    }
  }, 600_000);
});

describe('npm start', () => {
  it('prints at most 25 lines before "API ready", saying where the API, docs, board, store, fakes and log are, the access mode, the admin and the time', async () => {
    const { instance } = await serviceFor('');
    // npm adds its own four lines (a blank, "> … start", "> node … scripts/start.ts", a blank)
    const lines = instance.startOutput.split('\n');
    expect(lines.length + 4, instance.startOutput).toBeLessThanOrEqual(25);
    const text = instance.startOutput;
    expect(text).toMatch(/^store: embedded DynamoDB Local at http:\/\/127\.0\.0\.1:\d+ \(data in \S+\)$/m);
    expect(text).toMatch(/^API docs at http:\/\/localhost:\d+\/docs$/m);
    expect(text).toMatch(/^Status board at http:\/\/localhost:\d+\/board\/ {2}\(live at ws:\/\/localhost:\d+\)$/m);
    expect(text).toMatch(/^webhook receiver at http:\/\/localhost:\d+\/hooks\/<name>/m);
    expect(text).toMatch(/^vendor fakes: Webex at http:\/\/127\.0\.0\.1:\d+\/v1, Zoom at http:\/\/127\.0\.0\.1:\d+\/v2/m);
    expect(text).toMatch(/^first admin \(docs\/guide\/accounts\.md\): admin \/ local-admin-password$/m);
    expect(text).toMatch(/^access mode: key /m);
    expect(text).toMatch(/^serverless offline's output \(route table, requests\): \S+offline\.log; npm start -- --verbose prints it here$/m);
    expect(text).toMatch(/^API ready at http:\/\/localhost:\d+\/dev .* in \d+\.\d s since npm start$/m);
    // the route table is in the log, not the terminal
    expect(text).not.toMatch(/│|Function names exposed|Server ready/);
    const log = /^serverless offline's output .*: (\S+offline\.log);/m.exec(text)![1]!;
    expect(readFileSync(log, 'utf8')).toMatch(/POST {4}\| http:\/\/localhost:\d+\/dev\/alarms\/evaluate/);
  }, 600_000);
});
