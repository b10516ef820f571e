/** Figures per LoRA adapter by level (a run over several, --lora); nothing for a run without. */
import type { LevelResult } from '../../core/index.js';
import { ADAPTER_CAPTION, ADAPTER_HEADERS, adapterRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function AdaptersPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = adapterRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="LoRA adapters">
      <LevelTable plain caption={ADAPTER_CAPTION} headers={ADAPTER_HEADERS} rows={rows} />
    </section>
  );
}
