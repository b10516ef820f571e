/**
 * The Start form. Every control has a label; errors sit next to their field
 * (aria-invalid, aria-describedby); a refusal from the server (stopped, busy)
 * is shown beside Start and tied to it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ServerView } from '../../store/index.js';
import {
  FORM_MAX_EMBEDDING_BATCH, FORM_MAX_ITEM_TOKENS, FORM_MAX_RERANK_DOCUMENTS, parseCount, parseLevelsText, parseMoney, parseOutputTokens, parseRequestsPerLevel, shortOutputWarning, when,
} from '../view/index.js';
import { ApiFailure, api } from './api.js';
import { ServerRegister } from './server-register.js';

interface Props {
  servers: ServerView[] | null;
  liveRunId: number | null;
  onServersChanged(probe: boolean): void;
  onStarted(runId: number): void;
}

type Errors = Partial<Record<'server' | 'levels' | 'outputTokens' | 'promptTokens' | 'requests' | 'hourlyCost' | 'baselineRate' | 'items' | 'itemTokens' | 'queryTokens', string>>;

type Endpoint = 'chat' | 'embeddings' | 'rerank';

/** What one request carries on each non-streaming endpoint, as the form's labels read. */
const ITEMS = {
  embeddings: { label: 'Inputs per request', tokens: 'Tokens per input', max: FORM_MAX_EMBEDDING_BATCH, example: 16 },
  rerank: { label: 'Documents per query', tokens: 'Tokens per document', max: FORM_MAX_RERANK_DOCUMENTS, example: 32 },
} as const;

function statusText(s: ServerView): string {
  const st = s.status;
  const head = st.state === 'running' ? `running · answers with model ${st.model ?? '?'}` : st.state;
  return `${head}${st.detail ? ` — ${st.detail}` : ''} · checked ${when(st.checkedAt)}`;
}

export function RunForm({ servers, liveRunId, onServersChanged, onStarted }: Props) {
  const [serverId, setServerId] = useState<number | null>(null);
  const [levels, setLevels] = useState('1, 2, 4, 8, 16');
  const [outputTokens, setOutputTokens] = useState('256');
  const [promptTokens, setPromptTokens] = useState('512');
  const [requests, setRequests] = useState('');
  const [thinking, setThinking] = useState(false);
  const [hourlyCost, setHourlyCost] = useState('');
  const [baselineRate, setBaselineRate] = useState('');
  const [endpoint, setEndpoint] = useState<Endpoint>('chat');
  const [items, setItems] = useState('16');
  const [itemTokens, setItemTokens] = useState('512');
  const [queryTokens, setQueryTokens] = useState('32');
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const server = servers?.find((s) => s.id === serverId) ?? null;

  useEffect(() => {
    if (serverId === null && servers && servers.length > 0) select(servers.find((s) => s.status.state === 'running') ?? servers[0] as ServerView);
  }, [servers]);

  function select(s: ServerView) {
    setServerId(s.id);
    setHourlyCost(s.hourlyCostUsd === null ? '' : String(s.hourlyCostUsd));
    setRefusal(null);
  }

  const tokens = parseOutputTokens(outputTokens);
  const warning = tokens.ok ? shortOutputWarning(tokens.value) : null;

  async function start(e: Event) {
    e.preventDefault();
    setRefusal(null);
    if (endpoint !== 'chat') return startEmbeddingsOrRerank(endpoint);
    const lv = parseLevelsText(levels);
    const hc = parseMoney('Hourly cost', hourlyCost, { positive: false });
    const br = parseMoney('Baseline rate', baselineRate, { positive: true });
    const pt = parseCount('Prompt tokens', promptTokens, FORM_MAX_ITEM_TOKENS, 512);
    const rq = parseRequestsPerLevel(requests);
    const next: Errors = {};
    if (server === null) next.server = 'Pick a server to benchmark.';
    if (!lv.ok) next.levels = lv.message;
    if (!tokens.ok) next.outputTokens = tokens.message;
    if (!pt.ok) next.promptTokens = pt.message;
    if (!rq.ok) next.requests = rq.message;
    if (!hc.ok) next.hourlyCost = hc.message;
    if (!br.ok) next.baselineRate = br.message;
    setErrors(next);
    if (Object.keys(next).length > 0 || !server || !lv.ok || !tokens.ok || !pt.ok || !rq.ok || !hc.ok || !br.ok) return;
    setBusy(true);
    try {
      const { runId } = await api.start({
        serverId: server.id, levels: lv.value, outputTokens: tokens.value, promptTokens: pt.value, requestsPerLevel: rq.value, thinking, hourlyCostUsd: hc.value, baselineRateUsdPer1M: br.value,
      });
      onStarted(runId);
    } catch (err) {
      const f = err as ApiFailure;
      const field = ({
        levels: 'levels', outputTokens: 'outputTokens', promptTokens: 'promptTokens', requestsPerLevel: 'requests', hourlyCostUsd: 'hourlyCost', baselineRateUsdPer1M: 'baselineRate',
      } as const)[f.field?.split('.')[0] as 'levels'];
      if (f.status === 400 && field) setErrors({ [field]: f.message });
      else setRefusal(f.message);
      if (f.code === 'server-not-running') onServersChanged(false);
    } finally {
      setBusy(false);
    }
  }

  /** An embeddings or rerank sweep: its own fields, the same levels, server and hourly cost. */
  async function startEmbeddingsOrRerank(kind: 'embeddings' | 'rerank') {
    const it = ITEMS[kind];
    const lv = parseLevelsText(levels);
    const hc = parseMoney('Hourly cost', hourlyCost, { positive: false });
    const n = parseCount(it.label, items, it.max, it.example);
    const tk = parseCount(it.tokens, itemTokens, FORM_MAX_ITEM_TOKENS, 512);
    const qt = parseCount('Query tokens', queryTokens, FORM_MAX_ITEM_TOKENS, 32);
    const rq = parseRequestsPerLevel(requests);
    const next: Errors = {};
    if (server === null) next.server = 'Pick a server to benchmark.';
    if (!lv.ok) next.levels = lv.message;
    if (!hc.ok) next.hourlyCost = hc.message;
    if (!n.ok) next.items = n.message;
    if (!tk.ok) next.itemTokens = tk.message;
    if (kind === 'rerank' && !qt.ok) next.queryTokens = qt.message;
    if (!rq.ok) next.requests = rq.message;
    setErrors(next);
    if (Object.keys(next).length > 0 || !server || !lv.ok || !hc.ok || !n.ok || !tk.ok || !rq.ok) return;
    setBusy(true);
    try {
      const { runId } = await api.start({
        serverId: server.id, endpoint: kind, levels: lv.value, itemsPerRequest: n.value, itemTokens: tk.value, queryTokens: qt.ok ? qt.value : 32, requestsPerLevel: rq.value, hourlyCostUsd: hc.value,
      });
      onStarted(runId);
    } catch (err) {
      const f = err as ApiFailure;
      const field = ({
        levels: 'levels', itemsPerRequest: 'items', itemTokens: 'itemTokens', queryTokens: 'queryTokens', requestsPerLevel: 'requests', hourlyCostUsd: 'hourlyCost',
      } as const)[f.field?.split('.')[0] as 'levels'];
      if (f.status === 400 && field) setErrors({ [field]: f.message });
      else setRefusal(f.message);
      if (f.code === 'server-not-running') onServersChanged(false);
    } finally {
      setBusy(false);
    }
  }

  async function stop() {
    if (liveRunId === null) return;
    try { await api.stop(liveRunId); } catch (err) { setRefusal((err as Error).message); }
  }

  const field = (id: keyof Errors) => ({ 'aria-invalid': errors[id] ? true : undefined });
  const pooled = endpoint === 'chat' ? null : ITEMS[endpoint];
  return (
    <section class="panel" aria-labelledby="form-title">
      <h2 id="form-title">New sweep</h2>
      <form onSubmit={start} noValidate>
        <div class="field wide">
          <label for="server">Server</label>
          <div class="row">
            <select id="server" value={serverId ?? ''} disabled={!servers?.length} {...field('server')} aria-describedby="server-status server-error"
              onChange={(e) => { const s = servers?.find((x) => x.id === Number((e.target as HTMLSelectElement).value)); if (s) select(s); }}>
              {servers === null && <option value="">loading…</option>}
              {servers?.length === 0 && <option value="">no servers registered</option>}
              {servers?.map((s) => <option value={s.id}>{`${s.name} — ${s.status.state}`}</option>)}
            </select>
            <button type="button" class="secondary" onClick={() => onServersChanged(true)}>Check status</button>
          </div>
          {servers?.length === 0 && <p id="server-status" class="hint">No servers registered yet. <a href="#register" onClick={() => { (document.getElementById('register') as HTMLDetailsElement | null)?.setAttribute('open', ''); }}>Register one below</a>, or run <code>goodput servers add NAME URL</code>.</p>}
          {server && <p id="server-status" class={`hint state-${server.status.state}`}>{statusText(server)}</p>}
          {errors.server && <p id="server-error" class="field-error">{errors.server}</p>}
        </div>
        <div class="field">
          <label for="endpoint">Endpoint</label>
          <select id="endpoint" value={endpoint} aria-describedby="endpoint-hint"
            onChange={(e) => { const v = (e.target as HTMLSelectElement).value as Endpoint; setEndpoint(v); setErrors({}); if (v !== 'chat') setItems(String(ITEMS[v].example)); }}>
            <option value="chat">Chat (text generation)</option>
            <option value="embeddings">Embeddings</option>
            <option value="rerank">Rerank</option>
          </select>
          <p id="endpoint-hint" class="hint">{pooled === null ? 'streamed answers, timed token by token' : 'whole answers, timed request by request'}</p>
        </div>
        <div class="field">
          <label for="levels">Concurrency levels</label>
          <input id="levels" type="text" value={levels} {...field('levels')} aria-describedby="levels-hint levels-error" onInput={(e) => setLevels((e.target as HTMLInputElement).value)} />
          <p id="levels-hint" class="hint">e.g. 1, 2, 4, 8 — run one at a time, ascending</p>
          {errors.levels && <p id="levels-error" class="field-error">{errors.levels}</p>}
        </div>
        <div class="field">
          <label for="requests">Requests per level</label>
          <input id="requests" type="text" inputMode="numeric" placeholder="auto" value={requests} {...field('requests')} aria-describedby="requests-hint requests-error" onInput={(e) => setRequests((e.target as HTMLInputElement).value)} />
          <p id="requests-hint" class="hint">measured, after a warm-up; blank: max(8, 4 × concurrency)</p>
          {errors.requests && <p id="requests-error" class="field-error">{errors.requests}</p>}
        </div>
        {pooled !== null && <>
          <div class="field">
            <label for="items">{pooled.label}</label>
            <input id="items" type="number" min={1} step={1} value={items} {...field('items')} aria-describedby="items-error" onInput={(e) => setItems((e.target as HTMLInputElement).value)} />
            {errors.items && <p id="items-error" class="field-error">{errors.items}</p>}
          </div>
          <div class="field">
            <label for="item-tokens">{pooled.tokens}</label>
            <input id="item-tokens" type="number" min={1} step={1} value={itemTokens} {...field('itemTokens')} aria-describedby="item-tokens-hint item-tokens-error" onInput={(e) => setItemTokens((e.target as HTMLInputElement).value)} />
            <p id="item-tokens-hint" class="hint">in the server's own tokens where it can count them</p>
            {errors.itemTokens && <p id="item-tokens-error" class="field-error">{errors.itemTokens}</p>}
          </div>
          {endpoint === 'rerank' && <div class="field">
            <label for="query-tokens">Query tokens</label>
            <input id="query-tokens" type="number" min={1} step={1} value={queryTokens} {...field('queryTokens')} aria-describedby="query-tokens-error" onInput={(e) => setQueryTokens((e.target as HTMLInputElement).value)} />
            {errors.queryTokens && <p id="query-tokens-error" class="field-error">{errors.queryTokens}</p>}
          </div>}
        </>}
        {pooled === null && <>
        <div class="field">
          <label for="prompt-tokens">Prompt tokens</label>
          <input id="prompt-tokens" type="number" min={1} step={1} value={promptTokens} {...field('promptTokens')} aria-describedby="prompt-tokens-hint prompt-tokens-error" onInput={(e) => setPromptTokens((e.target as HTMLInputElement).value)} />
          <p id="prompt-tokens-hint" class="hint">per request, in the server's own tokens where it can count them</p>
          {errors.promptTokens && <p id="prompt-tokens-error" class="field-error">{errors.promptTokens}</p>}
        </div>
        <div class="field">
          <label for="output-tokens">Output tokens</label>
          <input id="output-tokens" type="number" min={1} step={1} value={outputTokens} {...field('outputTokens')} aria-describedby="tokens-note tokens-error" onInput={(e) => setOutputTokens((e.target as HTMLInputElement).value)} />
          {warning ? <p id="tokens-note" class="warning">{warning}</p> : <p id="tokens-note" class="hint">per request; 256 by default, forced where the engine allows</p>}
          {errors.outputTokens && <p id="tokens-error" class="field-error">{errors.outputTokens}</p>}
        </div>
        <div class="field check">
          <input id="thinking" type="checkbox" checked={thinking} aria-describedby="thinking-hint" onChange={(e) => setThinking((e.target as HTMLInputElement).checked)} />
          <label for="thinking">Thinking</label>
          <p id="thinking-hint" class="hint">off by default, so models compare on their answers; reasoning tokens count either way</p>
        </div>
        </>}
        <div class="field">
          <label for="hourly-cost">Hourly cost (USD per hour)</label>
          <input id="hourly-cost" type="text" inputMode="decimal" placeholder="optional" value={hourlyCost} {...field('hourlyCost')} aria-describedby="cost-hint cost-error" onInput={(e) => setHourlyCost((e.target as HTMLInputElement).value)} />
          <p id="cost-hint" class="hint">blank: no cost figure is produced</p>
          {errors.hourlyCost && <p id="cost-error" class="field-error">{errors.hourlyCost}</p>}
        </div>
        {pooled === null && <div class="field">
          <label for="baseline-rate">Baseline rate (USD per 1M output tokens)</label>
          <input id="baseline-rate" type="text" inputMode="decimal" placeholder="optional" value={baselineRate} {...field('baselineRate')} aria-describedby="baseline-error" onInput={(e) => setBaselineRate((e.target as HTMLInputElement).value)} />
          {errors.baselineRate && <p id="baseline-error" class="field-error">{errors.baselineRate}</p>}
        </div>}
        <div class="actions wide">
          <button type="submit" disabled={busy} aria-describedby="start-refusal">Start</button>
          <button type="button" class="stop" disabled={liveRunId === null} onClick={stop}>Stop</button>
          <p id="start-refusal" class="refusal" role="alert">{refusal ?? ''}</p>
        </div>
      </form>
      <ServerRegister onRegistered={(s) => { onServersChanged(false); select(s); }} />
    </section>
  );
}
