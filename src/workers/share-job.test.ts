import { describe, expect, it } from 'vitest';
import { NO_RUN_STATE, sweepSpecSchema } from '../runner/index.js';
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
