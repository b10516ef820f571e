/** Speculative decoding by level, where the server reported it: its acceptance beside our tokens per chunk. */
import type { LevelResult } from '../../core/index.js';
import { SPEC_DECODE_CAPTION, SPEC_DECODE_HEADERS, specDecodeRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function SpecDecodePanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = specDecodeRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="Speculative decoding">
      <LevelTable plain caption={SPEC_DECODE_CAPTION} headers={SPEC_DECODE_HEADERS} rows={rows} />
    </section>
  );
}
