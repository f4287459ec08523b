import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { root } from '../../scripts/registry';

/** A handler's own import graph as esbuild bundles it, packages left external so that this stays fast. */
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
  return metafile;
};
