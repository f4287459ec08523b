import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderBuild, staleCommitted } from '../../scripts/generate';
import { contracts, root } from '../../scripts/registry';
import { importGraph } from '../support/bundles';

/** Source files a handler's bundle reaches. */
const inputs = async (handlerFile: string): Promise<string[]> => Object.keys((await importGraph(handlerFile)).inputs);

describe('generated from the contracts', () => {
  it('generated/functions.yml, docs/openapi.json, client/openapi-types.ts and the item tables of docs/data-model.md are current (run `npm run generate`)', async () => {
    expect(await staleCommitted()).toEqual([]);
  }, 60_000);

  it('the validators and bindings on disk are the ones the contracts give (run `npm run build`)', async () => {
    const files = await renderBuild();
    for (const [file, text] of Object.entries(files)) expect(readFileSync(join(root, file), 'utf8'), file).toBe(text);
    const onDisk = ['validators', 'routes'].flatMap((dir) => readdirSync(join(root, 'generated', dir)).map((f) => `generated/${dir}/${f}`));
    expect(onDisk.sort()).toEqual(Object.keys(files).sort());
  }, 60_000);

  it("each route's handler runs through its own binding, and no other", async () => {
    const { routes, jobs } = await contracts();
    const wrong: string[] = [];
    for (const route of routes) {
      const bindings = (await inputs(route.handlerFile)).filter((file) => file.startsWith('generated/routes/'));
      if (bindings.join() !== `generated/routes/${route.functionName}.ts`) wrong.push(`${route.functionName}: ${bindings.join() || 'none'}`);
    }
    for (const job of jobs) {
      const bindings = (await inputs(job.handlerFile)).filter((file) => file.startsWith('generated/routes/'));
      if (bindings.length) wrong.push(`${job.functionName} (a job): ${bindings.join()}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
