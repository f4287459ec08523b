import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { functionDefs, root } from '../../scripts/registry';

/*
 * DESIGN §8: the API Gateway management client (live pushes) must not weigh on other bundles.
 * It is left out of every bundle (serverless.yml esbuild.exclude, the runtime's SDK provides
 * it), and only functions that store room or alarm changes reach the push code at all; each
 * of those subscribes it, so none of their changes goes unannounced.
 */
const CLIENT = '@aws-sdk/client-apigatewaymanagementapi';
const PUSH = 'lib/live/push.ts';
const WRITERS = ['lib/devices/sync.ts', 'lib/alarms/evaluate.ts', 'lib/alarms/acknowledge.ts'];

const graph = async (handlerFile: string): Promise<Metafile> =>
  (
    await build({
      entryPoints: [join(root, handlerFile)],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      tsconfig: join(root, 'tsconfig.json'),
      logLevel: 'error',
      metafile: true,
    })
  ).metafile;

describe('live push in bundles', () => {
  it('leaves the management client out of every bundle', () => {
    const config = load(readFileSync(join(root, 'serverless.yml'), 'utf8').replace(/!(Join|Ref|GetAtt|Sub)/g, '')) as { custom: { esbuild: { exclude: string[] } } };
    expect(config.custom.esbuild.exclude).toContain(CLIENT);
  });

  it('only functions that store room or alarm changes carry the push, and each of them enables it', async () => {
    const carriers: string[] = [];
    for (const fn of await functionDefs()) {
      const inputs = (await graph(fn.handlerFile)).inputs;
      const writes = WRITERS.some((file) => file in inputs);
      const pushes = PUSH in inputs;
      if (pushes) carriers.push(fn.functionName);
      expect({ fn: fn.functionName, pushes }).toEqual({ fn: fn.functionName, pushes: writes });
      const reachesClient = Object.values(inputs).some((input) => input.imports.some((i) => i.path === CLIENT));
      expect({ fn: fn.functionName, reachesClient }).toEqual({ fn: fn.functionName, reachesClient: pushes });
      if (pushes) expect(readFileSync(join(root, fn.handlerFile), 'utf8')).toMatch(/^enableLivePush\(\);$/m);
    }
    expect(carriers).toEqual(expect.arrayContaining(['alarmsEvaluateNow', 'alarmsEvaluateOnSchedule', 'devicesRefresh', 'devicesSync']));
  }, 60_000);
});
