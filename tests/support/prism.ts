import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../scripts/local/ports';
import { root } from '../../scripts/registry';

/** One problem Prism found with a request or an answer (its `sl-violations` header). */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface PrismProxy {
  /** Where to send requests: Prism's own address, which forwards each to `upstream`. */
  url: string;
  stop: () => Promise<void>;
}

/**
 * Stoplight Prism as a validating proxy (`prism proxy`) in front of `upstream`, judging every
 * request and answer against `document` (docs/openapi.json by default). It forwards every
 * request, valid or not (no --errors), and answers what the server answered, with what it
 * found wrong in the `sl-violations` header. Runs in its own process group, offline: the
 * document is a local file with local references only.
 */
export const startPrism = async (upstream: string, document = join(root, 'docs', 'openapi.json')): Promise<PrismProxy> => {
  const port = await freePort();
  const child = spawn(join(root, 'node_modules', '.bin', 'prism'), ['proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port), '--cors', 'false', '--errors', 'false', '--verboseLevel', 'warn'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000)));
  // ready once it answers: a path the document does not have is Prism's own 404
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`prism proxy exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`${url}/__prism-ready`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (attempt > 600) {
      await stop();
      throw new Error(`prism proxy did not listen on ${url}:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { url, stop };
};

/** The problems Prism reported for one exchange (none when it sent no `sl-violations` header). */
export const violationsOf = (headers: Headers): Violation[] => {
  const value = headers.get('sl-violations');
  if (!value) return [];
  if (value.startsWith('Too many violations!')) return [{ location: ['response'], severity: 'Error', message: value.slice(0, 500) }];
  return JSON.parse(value) as Violation[];
};
