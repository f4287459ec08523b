import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';
import { repositoryFiles } from '../support/repositories';

/*
 * The faithful test mode (tests/support/faithful.setup.ts) lets lagging indexes catch up before a
 * repository call only when the function is declared `async`: a plain arrow that returns a promise
 * slips through unseen. The type checker says which exports of the repositories answer a promise (directly,
 * or as a method of an exported object); each must be an async function at run time.
 */
const files = repositoryFiles().map((path) => join(root, path));

const answersPromise = (checker: ts.TypeChecker, type: ts.Type): boolean =>
  type.getCallSignatures().some((signature) => checker.getReturnTypeOfSignature(signature).getSymbol()?.getName() === 'Promise');

/** `module/export` or `module/export.method` of every function typed to answer a promise. */
const promiseAnswering = (): { file: string; path: string[] }[] => {
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, baseUrl: root, paths: { '#lib/*': ['lib/*'], '#schemas/*': ['schemas/*'], '#generated/*': ['generated/*'] }, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const found: { file: string; path: string[] }[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!source || !module) continue;
    for (const symbol of checker.getExportsOfModule(module)) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, source);
      // an entity declaration (lib/store/entity.ts) is called by the repositories, not by the engine's callers
      if (type.getProperty('fromItem')) continue;
      if (answersPromise(checker, type)) found.push({ file, path: [symbol.getName()] });
      else if (type.getCallSignatures().length === 0)
        for (const property of type.getProperties())
          if (answersPromise(checker, checker.getTypeOfSymbolAtLocation(property, source))) found.push({ file, path: [symbol.getName(), property.getName()] });
    }
  }
  return found;
};

describe('repository entry points that answer a promise are declared async (faithful index settling)', () => {
  const entries = promiseAnswering();

  it('finds the repositories’ entry points', () => {
    expect(entries.length).toBeGreaterThan(150);
  });

  it('each is an AsyncFunction at run time', async () => {
    const plain: string[] = [];
    for (const { file, path } of entries) {
      let value: unknown = await import(file);
      for (const name of path) value = (value as Record<string, unknown>)[name];
      if (typeof value === 'function' && value.constructor.name !== 'AsyncFunction') plain.push(`${file.slice(root.length + 1)}: ${path.join('.')}`);
    }
    expect(plain).toEqual([]);
  });
});
