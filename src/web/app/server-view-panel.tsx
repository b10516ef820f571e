/** The server's own account of each level beside ours, as the terminal's "Server view" prints it. */
import type { LevelResult } from '../../core/index.js';
import { SERVER_VIEW_CAPTION, SERVER_VIEW_HEADERS, serverViewRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function ServerViewPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = serverViewRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="Server's own account">
      <LevelTable plain caption={SERVER_VIEW_CAPTION} headers={SERVER_VIEW_HEADERS} rows={rows} />
    </section>
  );
}
