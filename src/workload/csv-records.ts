/**
 * A CSV file's records, RFC 4180: quoted fields may hold commas, doubled quotes
 * and newlines (a dataset's prompts do), so a record is not a line. Each record
 * comes with the line it starts on, for messages; every field is bounded while
 * it is read, so one unclosed quote cannot swallow the file unnoticed.
 */
import { WorkloadError } from './errors.js';

export interface CsvRecord {
  fields: string[];
  /** The 1-based line the record starts on. */
  line: number;
}

/** The records of `text` (blank lines skipped, a CR before each newline dropped). @throws WorkloadError naming `name` and the line. */
export function* csvRecords(name: string, text: string, maxFieldBytes: number): Generator<CsvRecord> {
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let v = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new WorkloadError('bad-format', `${name}: line ${start}: a quoted field is never closed`);
          const c = text[i] as string;
          if (c === '"' && text[i + 1] === '"') {
            v += '"';
            i += 2;
          } else if (c === '"') {
            i++;
            break;
          } else {
            if (c === '\n') line++;
            v += c;
            i++;
          }
          if (v.length > maxFieldBytes) throw new WorkloadError('length', `${name}: line ${start}: a field is longer than ${maxFieldBytes} bytes`);
        }
      } else {
        let end = i;
        while (end < text.length && text[end] !== ',' && text[end] !== '\n') end++;
        v = text.slice(i, end).replace(/\r$/, '').trim();
        if (Buffer.byteLength(v) > maxFieldBytes) throw new WorkloadError('length', `${name}: line ${start}: a field is longer than ${maxFieldBytes} bytes`);
        i = end;
      }
      fields.push(v);
      if (text[i] === '\r') i++;
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (i < text.length && text[i] !== '\n') throw new WorkloadError('bad-format', `${name}: line ${line}: text after a closing quote`);
      i++;
      line++;
      break;
    }
    if (!(fields.length === 1 && fields[0] === '')) yield { fields, line: start };
  }
}
