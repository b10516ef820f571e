/**
 * A dataset row's send time (`--column timestamp=COL` or `timestamp_ms=COL`),
 * read from whatever the file holds there: a number, a numeric text, a date and
 * time as text, a Parquet timestamp; checked against a trace's horizon.
 */
import { WorkloadError } from './errors.js';
import { TRACE_HORIZON_MS, azureTime, shown } from './trace-read.js';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A row's send time in ms from the dataset's own zero: a number (seconds for `timestamp`, ms for
 * `timestamp_ms`), a date and time (`timestamp` only: `2024-05-10 00:00:00.009930+00:00`, ISO 8601,
 * no zone = UTC) or a Parquet timestamp.
 * @throws WorkloadError naming the row, the field and its column.
 */
export function datasetTimeMs(where: string, field: 'timestamp' | 'timestamp_ms', column: string, v: unknown): number {
  const name = `${field} (column "${column}")`;
  const text = typeof v === 'string' ? v.trim() : null;
  let ms: number;
  if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'number' || typeof v === 'bigint' || (text !== null && NUMBER.test(text))) ms = Number(text ?? v) * (field === 'timestamp' ? 1000 : 1);
  else if (text !== null && text !== '' && field === 'timestamp') ms = azureTime(where, text, name);
  else
    throw new WorkloadError(
      'bad-format',
      `${where}: ${name} ${shown(typeof v === 'bigint' ? String(v) : v)} is not ${field === 'timestamp' ? 'a number of seconds or a date and time' : 'a number of milliseconds'}`,
    );
  // Past the horizon a time is no trace's (and a timer could not wait for it).
  if (!(Math.abs(ms) <= TRACE_HORIZON_MS))
    throw new WorkloadError('bad-format', `${where}: ${name} is past the horizon of ${TRACE_HORIZON_MS / 1000} s a trace's times may reach`);
  return ms;
}
