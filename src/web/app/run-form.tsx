/**
 * The Start form. Its fields, their defaults and checks are the option
 * catalogue's start body fields for the chosen endpoint (core's RUN_OPTIONS),
 * so the page asks what the command line and the API take. Every control has
 * a label; errors sit next to their field (aria-invalid, aria-describedby); a
 * refusal from the server (stopped, busy) is shown beside Start and tied to it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ServerView } from '../../store/index.js';
import { type AgentTraceBody, LIMITS, type RunOption, START_ENDPOINTS, type StartEndpoint, startFormFields } from '../../core/index.js';
import { type FieldRule, type FieldValue, checkField, shortOutputWarning, when } from '../view/index.js';
import { ApiFailure, api } from './api.js';
import { FormFieldView } from './form-field.js';
import { ServerRegister } from './server-register.js';

interface Props {
  servers: ServerView[] | null;
  liveRunId: number | null;
  onServersChanged(probe: boolean): void;
  onStarted(runId: number): void;
}

/** What each field holds, by its start body name: text, a checkbox's state, or a picked agent trace. */
type Values = Record<string, string | boolean | AgentTraceBody>;
/** Errors by start body field name, and 'server'. */
type Errors = Record<string, string>;

const ENDPOINT_LABELS: Readonly<Record<StartEndpoint, string>> = { chat: 'Chat (text generation)', embeddings: 'Embeddings', rerank: 'Rerank' };

/** What a field holds at first: the form's own initial text, else the option's default. */
function initialOf(option: RunOption, check: string, initial: string | undefined): string | boolean {
  return check === 'boolean' ? option.default === 'on' : (initial ?? option.default ?? '');
}

/** How the page checks a field: the option's limit and default, the field's name. */
export function ruleOf(option: RunOption, check: FieldRule['check'], name: string): FieldRule {
  const v = option.value;
  const limit = v.type === 'number' ? v.limit : undefined;
  const own = v.type === 'number' ? v.max : undefined;
  return {
    check,
    name,
    max: Math.min(limit === undefined ? Number.MAX_SAFE_INTEGER : LIMITS[limit].max, own ?? Number.MAX_SAFE_INTEGER),
    example: Number(option.default),
    positive: v.type === 'number' && v.exclusiveMin === true,
    integer: v.type === 'number' && v.integer === true,
  };
}

function initialValues(endpoint: StartEndpoint): Values {
  return Object.fromEntries(startFormFields(endpoint).map(({ option, field, form }) => [field.field, initialOf(option, form.check, form.initial)]));
}

function statusText(s: ServerView): string {
  const st = s.status;
  const head = st.state === 'running' ? `running · answers with model ${st.model ?? '?'}` : st.state;
  return `${head}${st.detail ? ` — ${st.detail}` : ''} · checked ${when(st.checkedAt)}`;
}

export function RunForm({ servers, liveRunId, onServersChanged, onStarted }: Props) {
  const [serverId, setServerId] = useState<number | null>(null);
  const [endpoint, setEndpoint] = useState<StartEndpoint>('chat');
  const [values, setValues] = useState<Values>(() => initialValues('chat'));
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const server = servers?.find((s) => s.id === serverId) ?? null;
  const fields = startFormFields(endpoint);

  useEffect(() => {
    if (serverId === null && servers && servers.length > 0) select(servers.find((s) => s.status.state === 'running') ?? (servers[0] as ServerView));
  }, [servers]);

  function select(s: ServerView) {
    setServerId(s.id);
    // A field the server registers a value for (its hourly cost) starts from it.
    const own = Object.fromEntries(
      fields.filter((f) => f.field.omitted === 'server').map((f) => [f.field.field, s.hourlyCostUsd === null ? '' : String(s.hourlyCostUsd)]),
    );
    setValues((v) => ({ ...v, ...own }));
    setRefusal(null);
  }

  /**
   * Another endpoint: a field it shares keeps its text unless it starts elsewhere there (inputs per request vs
   * documents per query). A picked file is dropped: the new file input shows none, so none may be sent.
   */
  function switchTo(next: StartEndpoint) {
    const before = initialValues(endpoint);
    const after = initialValues(next);
    setValues((v) => {
      const out = { ...v };
      for (const [k, init] of Object.entries(after)) if (!(k in v) || before[k] !== init || typeof v[k] === 'object') out[k] = init;
      return out;
    });
    setEndpoint(next);
    setErrors({});
  }

  const set = (field: string, value: string | boolean | AgentTraceBody) => setValues((v) => ({ ...v, [field]: value }));
  const outputField = fields.find((f) => f.form.check === 'output-tokens');
  const outputChecked = outputField
    ? checkField(ruleOf(outputField.option, 'output-tokens', outputField.form.label), values[outputField.field.field] ?? '')
    : null;
  const warning = outputChecked?.ok ? shortOutputWarning(outputChecked.value as number) : null;

  async function start(e: Event) {
    e.preventDefault();
    setRefusal(null);
    const next: Errors = {};
    const body: Record<string, FieldValue | string | number> = {};
    if (server === null) next['server'] = 'Pick a server to benchmark.';
    for (const { option, field, form } of fields) {
      const checked = checkField(ruleOf(option, form.check, form.name ?? form.label), values[field.field] ?? '');
      if (checked.ok) body[field.field] = checked.value;
      else next[field.field] = checked.message;
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !server) return;
    setBusy(true);
    try {
      // Chat is the body's default endpoint: its body is sent as it always was, without one.
      const { runId } = await api.start({ serverId: server.id, ...(endpoint === 'chat' ? {} : { endpoint }), ...body });
      onStarted(runId);
    } catch (err) {
      const f = err as ApiFailure;
      const field = f.field?.split('.')[0];
      if (f.status === 400 && field !== undefined && fields.some((x) => x.field.field === field)) setErrors({ [field]: f.message });
      else setRefusal(f.message);
      if (f.code === 'server-not-running') onServersChanged(false);
    } finally {
      setBusy(false);
    }
  }

  async function stop() {
    if (liveRunId === null) return;
    try {
      await api.stop(liveRunId);
    } catch (err) {
      setRefusal((err as Error).message);
    }
  }

  return (
    <section class="panel" aria-labelledby="form-title">
      <h2 id="form-title">New sweep</h2>
      <form onSubmit={start} noValidate>
        <div class="field wide">
          <label for="server">Server</label>
          <div class="row">
            <select
              id="server"
              value={serverId ?? ''}
              disabled={!servers?.length}
              aria-invalid={errors['server'] ? true : undefined}
              aria-describedby="server-status server-error"
              onChange={(e) => {
                const s = servers?.find((x) => x.id === Number((e.target as HTMLSelectElement).value));
                if (s) select(s);
              }}
            >
              {servers === null && <option value="">loading…</option>}
              {servers?.length === 0 && <option value="">no servers registered</option>}
              {servers?.map((s) => (
                <option value={s.id}>{`${s.name} — ${s.status.state}`}</option>
              ))}
            </select>
            <button type="button" class="secondary" onClick={() => onServersChanged(true)}>
              Check status
            </button>
          </div>
          {servers?.length === 0 && (
            <p id="server-status" class="hint">
              No servers registered yet.{' '}
              <a
                href="#register"
                onClick={() => {
                  (document.getElementById('register') as HTMLDetailsElement | null)?.setAttribute('open', '');
                }}
              >
                Register one below
              </a>
              , or run <code>goodput servers add NAME URL</code>.
            </p>
          )}
          {server && (
            <p id="server-status" class={`hint state-${server.status.state}`}>
              {statusText(server)}
            </p>
          )}
          {errors['server'] && (
            <p id="server-error" class="field-error">
              {errors['server']}
            </p>
          )}
        </div>
        <div class="field">
          <label for="endpoint">Endpoint</label>
          <select
            id="endpoint"
            value={endpoint}
            aria-describedby="endpoint-hint"
            onChange={(e) => switchTo((e.target as HTMLSelectElement).value as StartEndpoint)}
          >
            {START_ENDPOINTS.map((x) => (
              <option value={x}>{ENDPOINT_LABELS[x]}</option>
            ))}
          </select>
          <p id="endpoint-hint" class="hint">
            {endpoint === 'chat' ? 'streamed answers, timed token by token' : 'whole answers, timed request by request'}
          </p>
        </div>
        {fields.map(({ option, field, form }) => (
          <FormFieldView
            key={`${endpoint}-${field.field}`}
            option={option}
            form={form}
            value={values[field.field] ?? ''}
            error={errors[field.field]}
            warning={form.check === 'output-tokens' ? warning : null}
            onChange={(v) => set(field.field, v)}
          />
        ))}
        <div class="actions wide">
          <button type="submit" disabled={busy} aria-describedby="start-refusal">
            Start
          </button>
          <button type="button" class="stop" disabled={liveRunId === null} onClick={stop}>
            Stop
          </button>
          <p id="start-refusal" class="refusal" role="alert">
            {refusal ?? ''}
          </p>
        </div>
      </form>
      <ServerRegister
        onRegistered={(s) => {
          onServersChanged(false);
          select(s);
        }}
      />
    </section>
  );
}
