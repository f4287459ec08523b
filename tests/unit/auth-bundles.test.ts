import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionDefs, needsStageSecret, routes } from '../../scripts/registry';
import { importGraph } from '../support/bundles';

/**
 * DESIGN §8: only the functions that read a secret carry the secrets module and the SSM client:
 * sign-in (the token's private key, the first admin's password), the sync and the refresh (the
 * HTTP device provider's token and the vendors' credentials, DESIGN §6, each with its own IAM
 * statement), and the routes that seal with the stage secret (cursors, idempotent results:
 * scripts/registry.ts needsStageSecret). Only sign-in and the service token exchange hold the
 * signing key (read as a secret); every other function verifies tokens with the public key.
 * Checked on each handler's own import graph, packages left external so that this stays fast.
 */
const SIGNERS = ['sessionsSignin', 'servicesToken'];
const PROVIDER_READERS = ['devicesSync', 'devicesRefresh', 'devicesStatusPoll'];
/** Zoom's event receiver reads its webhook secret token (and no other). */
const WEBHOOK_RECEIVERS = ['vendorsZoomEvents'];
const SECRETS = 'lib/adapters/secrets.ts';
const SIGNING = 'lib/access/sign.ts';
const SSM = '@aws-sdk/client-ssm';

const reaches = (metafile: Metafile) => ({
  secrets: SECRETS in metafile.inputs,
  ssm: Object.values(metafile.inputs).some((input) => input.imports.some((i) => i.path === SSM)),
});

describe('secrets in bundles', () => {
  it('lets only the functions that read a secret import the secrets module and the SSM client, and only the two signers the signing key', async () => {
    const defs = await functionDefs();
    expect(defs.map((fn) => fn.functionName)).toEqual(expect.arrayContaining(SIGNERS));
    const sealing = (await routes()).filter((route) => needsStageSecret(route.contract)).map((route) => route.functionName);
    expect(sealing.length).toBeGreaterThan(0);
    const readers = new Set([...SIGNERS, ...PROVIDER_READERS, ...WEBHOOK_RECEIVERS, ...sealing]);
    const offenders: string[] = [];
    for (const fn of defs) {
      const graph = await importGraph(fn.handlerFile);
      const { secrets, ssm } = reaches(graph);
      if (readers.has(fn.functionName)) expect({ secrets, ssm }, fn.functionName).toEqual({ secrets: true, ssm: true });
      else if (secrets || ssm) offenders.push(fn.functionName);
      expect(SIGNING in graph.inputs, fn.functionName).toBe(SIGNERS.includes(fn.functionName));
    }
    expect(offenders).toEqual([]);
  }, 60_000);
});
