import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/bundles';
import { functionDefs, root } from '../../scripts/registry';

/*
 * DESIGN §8: live pushes must not weigh on bundles. No function carries the API Gateway
 * management client (the push adapter signs its posts with the signer the DynamoDB client
 * already brings; the client stays in serverless.yml esbuild.exclude should anything import it),
 * and only functions that store room, alarm or silence changes reach the push code at all; each
 * of those subscribes it and may post to connections, so none of their changes goes unannounced.
 */
const CLIENT = '@aws-sdk/client-apigatewaymanagementapi';
const PUSH = 'lib/live/push.ts';
const ADAPTER = 'lib/adapters/connections.ts';
const WRITERS = ['lib/inventory/sync.ts', 'lib/inventory/refresh.ts', 'lib/inventory/observe.ts', 'lib/alarms/engine/pass.ts', 'lib/alarms/acknowledge.ts', 'lib/alarms/silenceEvents.ts'];

const graph = importGraph;

describe('live push in bundles', () => {
  it('keeps the management client out of bundles should anything import it', () => {
    const config = load(readFileSync(join(root, 'serverless.yml'), 'utf8').replace(/!(Join|Ref|GetAtt|Sub)/g, '')) as { custom: { esbuild: { exclude: string[] } } };
    expect(config.custom.esbuild.exclude).toContain(CLIENT);
  });

  it('only functions that store room or alarm changes carry the push, and each of them enables it', async () => {
    const permissions = load(readFileSync(join(root, 'resources', 'permissions.yml'), 'utf8')) as { default: string[]; functions: Record<string, string[]> };
    const carriers: string[] = [];
    for (const fn of await functionDefs()) {
      const inputs = (await graph(fn.handlerFile)).inputs;
      const writes = WRITERS.some((file) => file in inputs);
      const pushes = PUSH in inputs;
      if (pushes) carriers.push(fn.functionName);
      const fix = `${fn.functionName} stores room, alarm or silence changes: call enableLivePush(connectionsFromEnv()) (lib/live/push, lib/adapters/connections) at module scope and grant it LivePush in resources/permissions.yml`;
      expect({ fn: fn.functionName, pushes }, fix).toEqual({ fn: fn.functionName, pushes: writes });
      const reachesClient = Object.values(inputs).some((input) => input.imports.some((i) => i.path === CLIENT));
      expect({ fn: fn.functionName, reachesClient }).toEqual({ fn: fn.functionName, reachesClient: false });
      expect({ fn: fn.functionName, adapter: ADAPTER in inputs }).toEqual({ fn: fn.functionName, adapter: pushes });
      if (!pushes) continue;
      expect(readFileSync(join(root, fn.handlerFile), 'utf8'), fix).toMatch(/^enableLivePush\(connectionsFromEnv\(\)\);$/m);
      expect(permissions.functions[fn.functionName] ?? permissions.default, fix).toContain('LivePush');
    }
    expect(carriers).toEqual(expect.arrayContaining(['alarmsEvaluateNow', 'alarmsEvaluateOnSchedule', 'devicesRefresh', 'devicesSync']));
  }, 60_000);
});
