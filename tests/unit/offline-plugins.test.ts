import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const load = createRequire(__filename);
interface Plugin {
  hooks: Record<string, () => unknown>;
}
type PluginClass = new (serverless: unknown, options?: unknown, utils?: unknown) => Plugin;
const EsbuildUnlessOffline = load('../../plugins/esbuild-unless-offline.js') as PluginClass;
const OfflineInProcessReload = load('../../plugins/offline-in-process-reload.js') as PluginClass;

const serverlessFor = (command: string, servicePath: string) => ({
  processedInput: { commands: [command] },
  config: { servicePath },
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A service folder with one source module, loaded into require's cache. */
const serviceWithLoadedModule = () => {
  const dir = mkdtempSync(join(tmpdir(), 'offline-plugin-'));
  dirs.push(dir);
  for (const folder of ['functions', 'lib', 'generated']) mkdirSync(join(dir, folder));
  const file = join(dir, 'lib', 'answer.json');
  writeFileSync(file, '{"answer": 1}');
  expect(load(file)).toEqual({ answer: 1 });
  return { dir, file };
};

describe('plugins for serverless offline', () => {
  it('esbuild-unless-offline leaves bundling out of offline runs', () => {
    const plugin = new EsbuildUnlessOffline(serverlessFor('offline', process.cwd()));
    expect(plugin.hooks).toEqual({});
  });

  it('offline-in-process-reload drops changed sources from the require cache, so the next request loads them anew', async () => {
    const { dir, file } = serviceWithLoadedModule();
    const plugin = new OfflineInProcessReload(serverlessFor('offline', dir));
    await plugin.hooks['offline:start:init']!();
    try {
      writeFileSync(file, '{"answer": 2}');
      for (let i = 0; i < 50 && load.cache[file]; i++) await new Promise((r) => setTimeout(r, 100));
      expect(load.cache[file]).toBeUndefined();
      expect(load(file)).toEqual({ answer: 2 });
      // packages stay loaded
      expect(Object.keys(load.cache).some((key) => key.includes('node_modules'))).toBe(true);
    } finally {
      await plugin.hooks['offline:start:end']!();
    }
  });

  it('offline-in-process-reload ends serverless offline when npm start, its parent, is gone (the IPC channel closes)', async () => {
    const plugin = join(__dirname, '../../plugins/offline-in-process-reload.js');
    // stands in for `serverless offline`: loads the plugin, then would serve forever
    const script = `new (require(${JSON.stringify(plugin)}))({ config: { servicePath: process.cwd() } }); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(child.exitCode).toBeNull();
      child.disconnect();
      const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 5000))]);
      expect(code).toBe(0);
    } finally {
      // never leave the stand-in running, whatever failed
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
