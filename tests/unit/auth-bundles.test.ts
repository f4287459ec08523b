import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionDefs } from '../../scripts/registry';
import { importGraph } from '../support/bundles';

/**
 * DESIGN §8: only the sign-in function may carry the SSM client among the API's functions (it
 * alone reads secrets: the token's private key and the first admin's password); every other
 * function verifies tokens with the public key. The device providers' credentials are read by
 * the two functions that call the vendors (DESIGN §6), with their own IAM statement. Checked on
 * each handler's own import graph, packages left external so that this stays fast.
 */
const SIGNER = 'sessionsSignin';
const VENDOR_CALLERS = ['devicesSync', 'devicesRefresh'];
const SECRETS = 'lib/adapters/secrets.ts';
const SSM = '@aws-sdk/client-ssm';

const reaches = (metafile: Metafile) => ({
  secrets: SECRETS in metafile.inputs,
  ssm: Object.values(metafile.inputs).some((input) => input.imports.some((i) => i.path === SSM)),
});

describe('secrets in bundles', () => {
  it('lets the sign-in function and the two that call vendors, and only them, import the secrets module and the SSM client', async () => {
    const defs = await functionDefs();
    expect(defs.map((fn) => fn.functionName)).toContain(SIGNER);
    const offenders: string[] = [];
    for (const fn of defs) {
      const { secrets, ssm } = reaches(await importGraph(fn.handlerFile));
      if (fn.functionName === SIGNER || VENDOR_CALLERS.includes(fn.functionName)) expect({ fn: fn.functionName, secrets, ssm }).toEqual({ fn: fn.functionName, secrets: true, ssm: true });
      else if (secrets || ssm) offenders.push(fn.functionName);
    }
    expect(offenders).toEqual([]);
  }, 60_000);
});
