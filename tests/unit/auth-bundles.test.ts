import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionDefs, root } from '../../scripts/registry';

/**
 * DESIGN §8: only the sign-in function may carry the SSM client (it alone reads secrets:
 * the token's private key and the first admin's password); every other function verifies
 * tokens with the public key. Checked on each handler's own import graph, packages left
 * external so that this stays fast.
 */
const SIGNER = 'sessionsSignin';
const SECRETS = 'lib/auth/secrets.ts';
const SSM = '@aws-sdk/client-ssm';

const graph = async (handlerFile: string): Promise<Metafile> => {
  const { metafile } = await build({
    entryPoints: [join(root, handlerFile)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
    metafile: true,
  });
  return metafile;
};
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
      const { secrets, ssm } = reaches(await graph(fn.handlerFile));
      if (fn.functionName === SIGNER) expect({ secrets, ssm }).toEqual({ secrets: true, ssm: true });
      else if (secrets || ssm) offenders.push(fn.functionName);
    }
    expect(offenders).toEqual([]);
  }, 60_000);
});
