import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { root } from '../../scripts/registry';

/**
 * A handler's own import graph as esbuild bundles it, packages left external so that this stays
 * fast: the modules that put code into the bundle. A module a public module (lib/<domain>/index.ts)
 * re-exports but the handler never uses is read by esbuild and shaken out ("sideEffects": false in
 * package.json); it is left out here, as it is out of the bundle.
 */
export const importGraph = async (handlerFile: string): Promise<Metafile> => {
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
  const carried = new Set(Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([file]) => file)));
  return { ...metafile, inputs: Object.fromEntries(Object.entries(metafile.inputs).filter(([file]) => carried.has(file))) };
};
