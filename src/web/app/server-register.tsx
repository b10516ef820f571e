/** Registering a server from the page: name, URL, key (stored, never shown again), model, engine, GPU, cost. */
import { useState } from 'preact/hooks';
import type { ServerView } from '../../store/index.js';
import { ApiFailure, api } from './api.js';

const FIELDS = [
  ['name', 'Name', 'text', 'e.g. h100-vllm'],
  ['baseUrl', 'Base URL', 'url', 'http://127.0.0.1:8000'],
  ['apiKey', 'API key', 'password', 'optional; stored, never shown'],
  ['model', 'Model', 'text', 'optional; default: the first it serves'],
  ['engine', 'Engine', 'text', 'optional, e.g. vllm 0.11'],
  ['gpuLabel', 'GPU', 'text', 'optional, e.g. 1× H100 80GB'],
  ['hourlyCostUsd', 'Server hourly cost (USD)', 'text', 'optional'],
] as const;

type Key = (typeof FIELDS)[number][0];

export function ServerRegister({ onRegistered }: { onRegistered(s: ServerView): void }) {
  const [values, setValues] = useState<Partial<Record<Key, string>>>({});
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: Event) {
    e.preventDefault();
    setError(null);
    const body: Record<string, unknown> = {};
    for (const [k] of FIELDS) {
      const v = values[k]?.trim();
      if (!v) continue;
      if (k === 'hourlyCostUsd' && !Number.isFinite(Number(v))) {
        setError({ field: k, message: `hourlyCostUsd: "${v}" is not a number (e.g. 6.50)` });
        return;
      }
      body[k] = k === 'hourlyCostUsd' ? Number(v) : v;
    }
    try {
      const s = await api.addServer(body);
      setValues({});
      setDone(`Registered ${s.name}: ${s.status.state}.`);
      onRegistered(s);
    } catch (err) {
      const f = err as ApiFailure;
      setError({ field: f.field ?? null, message: f.message });
    }
  }

  return (
    <details id="register" class="register">
      <summary>Register a server</summary>
      <form onSubmit={submit} noValidate>
        {FIELDS.map(([k, label, type, hint]) => (
          <div class="field">
            <label for={`reg-${k}`}>{label}</label>
            <input
              id={`reg-${k}`}
              type={type}
              placeholder={hint}
              value={values[k] ?? ''}
              autoComplete="off"
              aria-invalid={error?.field === k ? true : undefined}
              aria-describedby={error?.field === k ? 'reg-error' : undefined}
              onInput={(e) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value })}
            />
          </div>
        ))}
        <div class="actions wide">
          <button type="submit">Register server</button>
          <p id="reg-error" class="refusal" role="alert">
            {error?.message ?? ''}
          </p>
          <p class="hint" role="status">
            {done ?? ''}
          </p>
        </div>
      </form>
    </details>
  );
}
