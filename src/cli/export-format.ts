/**
 * What an export format is: its description, whether it needs the request
 * records, and its rendering. The formats implement it and the export command
 * keeps them in its registry; declared apart so the formats do not import the
 * command that lists them.
 */
import type { RawRecord, SweepResult } from '../core/index.js';

/** What a format renders from. `records` is null when the format needs none. */
export interface ExportInput {
  result: SweepResult;
  resultPath: string;
  records: RawRecord[] | null;
}

export interface ExportFormat {
  description: string;
  /** True when the format needs the request records (`--raw`). */
  needsRecords: boolean;
  /** True when the format reads `--raw` if given but works without it (the records add per-request figures). */
  usesRecords?: boolean;
  render(input: ExportInput): string;
  /** Formats holding one level per file: the files under the reading tool's own names (`--out-dir`). */
  files?(input: ExportInput): ExportFile[];
}

/** One file of a per-level format. */
export interface ExportFile {
  name: string;
  text: string;
}
