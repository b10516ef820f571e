/** The clients each split level went through (threads or workers), and the live workers a sweep can use. */
import { useEffect, useState } from 'preact/hooks';
import type { LevelResult } from '../../core/index.js';
import type { WorkerView } from '../../store/index.js';
import { CLIENT_HEADERS, WORKER_HEADERS, clientRows, workerRows } from '../view/index.js';
import { api } from './api.js';
import { LevelTable } from './level-table.js';

export function ClientsPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = clientRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="Clients">
      <LevelTable plain caption="Clients: each split level's share per thread or worker, judged on its own" headers={CLIENT_HEADERS} rows={rows} />
    </section>
  );
}

/** How often the live workers are read while the page is open, ms. */
const WORKERS_EVERY_MS = 2000;

export function WorkersPanel() {
  const [workers, setWorkers] = useState<WorkerView[]>([]);
  useEffect(() => {
    let stopped = false;
    const read = () =>
      api.workers().then(
        (w) => {
          if (!stopped) setWorkers(w);
        },
        () => {},
      );
    void read();
    const t = setInterval(read, WORKERS_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, []);
  if (workers.length === 0) return null;
  return (
    <section class="panel" aria-label="Workers">
      <h2>Workers</h2>
      <LevelTable
        plain
        caption={`${workers.length} live goodput worker process${workers.length === 1 ? '' : 'es'}`}
        headers={WORKER_HEADERS}
        rows={workerRows(workers)}
      />
    </section>
  );
}
