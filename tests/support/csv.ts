/**
 * A strict RFC 4180 reader for tests: CRLF row ends (a bare CR or LF only inside quotes), quoted
 * fields with doubled quotes. Throws on anything else, so a malformed document fails the test.
 */
export const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  if (text === '') return rows;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside a bare field at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
      if (i === text.length) return rows;
      continue;
    }
    throw new Error(i >= text.length ? 'the last row lacks its CRLF' : `unexpected ${JSON.stringify(text[i])} at ${i}`);
  }
};

/** Cells the CSV writer must quote, and how it writes them: a comma, a quote (doubled), a line break. */
export const QUOTED_CELLS: readonly (readonly [string, string])[] = [
  ['a,b', '"a,b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
];
