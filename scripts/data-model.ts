/**
 * docs/data-model.md's item tables, written from the entity declarations (lib/store/entities/):
 * each `| entity | …` table under a `## <section>` heading lists the items declared for that
 * section, in declaration order. Everything else in the file (prose, access-pattern tables) is
 * kept as written. `npm run generate` writes it; tests/unit/generated.test.ts fails when stale.
 */
import { declared, type EntityDoc } from '#lib/store/entity';
import '#lib/store/entities/account';
import '#lib/store/entities/config';
import '#lib/store/entities/inventory';
import '#lib/store/entities/alarms';
import '#lib/store/entities/notify';
import '#lib/store/entities/locations';
import '#lib/store/entities/reports';
import '#lib/store/entities/acknowledgements';

const HEADER = ['| entity | PK | SK | GSI1 | GSI2 | notes |', '|---|---|---|---|---|---|'];
const cell = (text: string | undefined) => (text === undefined || text === '' ? '–' : text);

const row = (type: string, doc: EntityDoc) =>
  `| ${doc.name ?? type} | ${doc.PK || ' '} | ${doc.SK || ' '} | ${cell(doc.GSI1)} | ${cell(doc.GSI2)} | ${cell(doc.notes)} |`;

/** The document with every item table replaced by the declarations of its section. */
export const renderDataModel = (document: string): string => {
  const lines = document.split('\n');
  const out: string[] = [];
  const written = new Set<string>();
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('| entity |')) {
      out.push(line);
      continue;
    }
    while (lines[i + 1]?.startsWith('|')) i++;
    const rows = declared.filter((entry) => entry.doc.section === section);
    if (rows.length === 0) throw new Error(`docs/data-model.md: the item table under "${section}" has no declared entity`);
    out.push(...HEADER, ...rows.map(({ type, doc }) => row(type, doc)));
    written.add(section);
  }
  const missing = [...new Set(declared.map((entry) => entry.doc.section))].filter((name) => !written.has(name));
  if (missing.length) throw new Error(`docs/data-model.md has no item table under: ${missing.join(', ')}`);
  return out.join('\n');
};
