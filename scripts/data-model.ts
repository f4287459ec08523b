/**
 * docs/data-model.md's item tables, written from the entity declarations (each domain's `entities.ts`, and the generic
 * items of lib/store and lib/http):
 * each `| entity | …` table under a `## <section>` heading lists the items declared for that
 * section, in declaration order. Everything else in the file (prose, access-pattern tables) is
 * kept as written. `npm run generate` writes it; tests/unit/generated.test.ts fails when stale.
 */
import { declared, type EntityDoc } from '#lib/store/entity';
import '#lib/access/entities';
import '#lib/access/audit/entities';
import '#lib/http/idempotency';
import '#lib/config/entities';
import '#lib/watchers/entities';
import '#lib/notify/entities';
import '#lib/notify/mail/entities';
import '#lib/alarms/inhibition/entities';
import '#lib/store/caps';
import '#lib/inventory/entities';
import '#lib/devices/entities';
import '#lib/rollups/entities';
import '#lib/alarms/entities';
import '#lib/maintenance/entities';
import '#lib/store/leases';
import '#lib/live/entities';
import '#lib/locations/entities';
import '#lib/reports/entities';

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
