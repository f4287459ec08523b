import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declared, entityTypes } from '#lib/store/entity';
import { renderDataModel } from '../../scripts/data-model';
import { root } from '../../scripts/registry';

describe('docs/data-model.md from the entity declarations', () => {
  const committed = readFileSync(join(root, 'docs/data-model.md'), 'utf8');

  it('lists every declared item type in the item table of its section, as declared (run `npm run generate`)', () => {
    expect(renderDataModel(committed)).toBe(committed);
  });

  it('fails when a declared section has no item table, or an item table no declaration', () => {
    expect(() => renderDataModel(committed.replace('## Watchers', '## Watchers (renamed)'))).toThrow();
    expect(() => renderDataModel(`${committed}\n## Nothing declared\n\n| entity | PK |\n|---|---|\n`)).toThrow();
  });

  it('declares each item type once', () => {
    const names = declared.map(({ type, doc }) => `${doc.section}/${doc.name ?? type}`);
    expect(names.length).toBeGreaterThan(30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every declared item type its row (the `dataModel:` statement beside its declaration)', () => {
    const documentedTypes = new Set(declared.map(({ type }) => type));
    expect(entityTypes.length).toBeGreaterThan(30);
    expect(entityTypes.filter((type) => !documentedTypes.has(type))).toEqual([]);
  });
});
