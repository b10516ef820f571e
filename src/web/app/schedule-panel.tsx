/** Open-loop levels: TTFT and e2e from the scheduled send beside those from the actual send, and the lag between. */
import type { LevelResult } from '../../core/index.js';
import { SCHEDULE_HEADERS, scheduleRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function SchedulePanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = scheduleRows(levels);
  if (rows.length === 0) return null;
  return (
    <section class="charts" aria-labelledby="schedule-title">
      <h3 id="schedule-title">From the schedule</h3>
      <p class="hint">
        Open-loop latency measured from each request's scheduled send: what a user due at that moment waits, our send lag included. It exceeds the figures from
        the send by the schedule lag.
      </p>
      <LevelTable headers={SCHEDULE_HEADERS} rows={rows} label="Latency from the schedule by level" />
    </section>
  );
}
