import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionDefs } from '../../scripts/registry';
import { importGraph } from '../support/bundles';

/**
 * DESIGN §8: only the sign-in function may carry the SSM client (it alone reads secrets:
 * the token's private key and the first admin's password); every other function verifies
 * tokens with the public key. Checked on each handler's own import graph, packages left
 * external so that this stays fast.
 */
const SIGNER = 'sessionsSignin';
const SECRETS = 'lib/adapters/secrets.ts';
const SSM = '@aws-sdk/client-ssm';

const reaches = (metafile: Metafile) => ({
  secrets: SECRETS in metafile.inputs,
  ssm: Object.values(metafile.inputs).some((input) => input.imports.some((i) => i.path === SSM)),
});

describe('secrets in bundles', () => {
  it('lets the sign-in function, and only it, import the secrets module and the SSM client', async () => {
    const defs = await functionDefs();
    expect(defs.map((fn) => fn.functionName)).toContain(SIGNER);
    const offenders: string[] = [];
    for (const fn of defs) {
      const { secrets, ssm } = reaches(await importGraph(fn.handlerFile));
      if (fn.functionName === SIGNER) expect({ secrets, ssm }).toEqual({ secrets: true, ssm: true });
      else if (secrets || ssm) offenders.push(fn.functionName);
    }
    expect(offenders).toEqual([]);
  }, 60_000);
});
