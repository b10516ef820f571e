import { describe, expect, it } from 'vitest';
import { NO_RUN_STATE, poolingSpecSchema, sweepSpecSchema } from '../runner/index.js';
import { checkShareJob } from './share-job.js';

const sweep = 'ab'.repeat(12);
const job = (extra: object = {}) => ({
  share: `${sweep}/4/0`,
  sweep,
  index: 0,
  count: 1,
  concurrency: 4,
  requests: 16,
  promptOffset: 0,
  spec: { url: 'http://127.0.0.1:8000', levels: [4] },
  needsApiKey: false,
  model: 'm',
  dialect: 'vllm',
  runId: 'r1',
  connections: 4,
  expiresAtMs: 1_000,
  ...extra,
});

describe('a share job carries what the sweep set for itself beside its spec', () => {
  it("the image server address travels in the job's state, not in its spec", () => {
    const checked = checkShareJob(job({ state: { imagesServedAt: 'http://10.0.0.2:9000/secret' } }));
    expect(checked.ok && checked.job.state).toEqual({ imagesServedAt: 'http://10.0.0.2:9000/secret' });
    // A spec is what the CLI, the API or a contract asks: a field only the sweep sets is not part of it.
    expect(sweepSpecSchema.parse({ url: 'http://127.0.0.1:8000', levels: [4], imagesServedAt: 'x' })).not.toHaveProperty('imagesServedAt');
  });

  it('a job without a state has none (images, if any, inline); a state with other fields is refused, naming it', () => {
    const checked = checkShareJob(job());
    expect(checked.ok && checked.job.state).toEqual(NO_RUN_STATE);
    const odd = checkShareJob(job({ state: { imagesServedAt: null, extra: 1 } }));
    expect(odd).toMatchObject({ ok: false, why: expect.stringMatching(/^state/) });
  });
});

const poolingJob = (plan: object, extra: object = {}) => ({
  kind: 'pooling',
  share: `${sweep}/2/0`,
  sweep,
  index: 0,
  count: 1,
  concurrency: 2,
  spec: poolingSpecSchema.parse({ url: 'http://127.0.0.1:8000', endpoint: 'embeddings', levels: [2], itemsPerRequest: 2, itemTokens: 8 }),
  needsApiKey: false,
  model: 'm',
  dialect: 'vllm',
  connections: 2,
  expiresAtMs: 1_000,
  plan,
  ...extra,
});
const send = (seq: number, inputs: string[]) => ({ seq, payload: { endpoint: 'embeddings', inputs } });

describe('a share job carries its run kind: an embeddings share carries its plan, checked against its spec', () => {
  it("a pooling job is read with the pooling spec's schema and keeps its plan", () => {
    const plan = { streams: 2, warmups: [send(0, ['a', 'b'])], measured: [send(1, ['c', 'd']), send(2, ['e'])] };
    const checked = checkShareJob(poolingJob(plan));
    expect(checked.ok && checked.job.kind).toBe('pooling');
    expect(checked.ok && checked.job.kind === 'pooling' && checked.job.plan).toEqual(plan);
    expect(checked.ok && checked.job.spec.endpoint).toBe('embeddings');
  });

  it("a job without a kind is text generation's; an unknown kind is refused", () => {
    const text = checkShareJob(job());
    expect(text.ok && text.job.kind).toBe('text');
    expect(checkShareJob({ ...job(), kind: 'speech' })).toEqual({ ok: false, why: 'kind: is not a run kind' });
  });

  it('a job of a kind whose driver takes no workers (transcriptions) is refused, naming the kind', () => {
    expect(checkShareJob({ ...job(), kind: 'transcriptions' })).toEqual({ ok: false, why: 'kind: transcriptions runs do not run on workers' });
  });

  it('a plan past its spec or of another endpoint is refused, naming the field', () => {
    const plan = (measured: object[]) => ({ streams: 1, warmups: [], measured });
    expect(checkShareJob(poolingJob(plan([send(0, ['a', 'b', 'c'])])))).toEqual({ ok: false, why: "plan.measured.0.payload: 3 items, above the spec's 2" });
    const rerank = { seq: 0, payload: { endpoint: 'rerank', query: 'q', documents: ['a'] } };
    expect(checkShareJob(poolingJob(plan([rerank])))).toEqual({ ok: false, why: "plan.measured.0.payload.endpoint: is not the spec's endpoint (embeddings)" });
    const odd = checkShareJob(poolingJob(plan([{ ...send(0, ['a']), extra: 1 }])));
    expect(odd).toMatchObject({ ok: false, why: expect.stringMatching(/^plan\.measured\.0/) });
    // The spec goes through the pooling schema: a text spec in a pooling job is refused.
    const wrongSpec = checkShareJob(poolingJob(plan([]), { spec: { url: 'http://127.0.0.1:8000', levels: [2] } }));
    expect(wrongSpec).toMatchObject({ ok: false, why: expect.stringMatching(/^spec\./) });
  });
});
