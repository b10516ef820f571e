/** A disaggregated server's pools by level: each pool's figures, then the KV moved and the TTFT split; nothing for a run without pools. */
import type { LevelResult } from '../../core/index.js';
import { DISAGG_KV_CAPTION, DISAGG_KV_HEADERS, DISAGG_ROLE_CAPTION, DISAGG_ROLE_HEADERS, disaggKvRows, disaggRoleRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function DisaggPanel({ levels }: { levels: readonly LevelResult[] }) {
  const roles = disaggRoleRows(levels);
  if (roles.length === 0) return null;
  const kv = disaggKvRows(levels);
  return (
    <section aria-label="Disaggregated pools">
      <LevelTable plain caption={DISAGG_ROLE_CAPTION} headers={DISAGG_ROLE_HEADERS} rows={roles} />
      {kv.length > 0 && <LevelTable plain caption={DISAGG_KV_CAPTION} headers={DISAGG_KV_HEADERS} rows={kv} />}
    </section>
  );
}
