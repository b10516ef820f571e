// The request/response core the embeddings, rerank and transcription clients share: what each ending of a POST
// becomes, with and without an idle limit of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { monotonicNs } from './clock.js';
import { postWhole, type WholeAnswerLimits, wholeAnswerPool } from './whole-answer.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function post(handler: Parameters<typeof startServer>[0], limits: WholeAnswerLimits) {
  const server = await startServer(handler);
  servers.push(server);
  const pool = wholeAnswerPool(server.url, 1, limits);
  try {
    return await postWhole(pool, { path: '/x', headers: { 'content-type': 'application/json' }, body: '{}' }, limits, monotonicNs);
  } finally {
    await pool.close();
  }
}

const stalls: Parameters<typeof startServer>[0] = async (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"text":"a');
  await new Promise(() => {});
};

describe('postWhole', () => {
  it('gives the whole text and headers of a 2xx answer, and the message of a non-2xx one', async () => {
    const ok = await post(
      async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-compute-tokens': '7' });
        res.end('{"text":"hello"}');
      },
      { timeoutMs: 5_000, idleMs: null },
    );
    expect(ok).toMatchObject({ ok: true, text: '{"text":"hello"}', headers: { 'x-compute-tokens': '7' } });
    const refused = await post(
      async (_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such model"}}');
      },
      { timeoutMs: 5_000, idleMs: null },
    );
    expect(refused).toMatchObject({ ok: false, outcome: { kind: 'http-error', status: 404 } });
  });

  it('without an idle limit, a body that stalls fails at the whole limit and says so', async () => {
    const r = await post(stalls, { timeoutMs: 300, idleMs: null });
    expect(r).toMatchObject({ ok: false, outcome: { kind: 'timeout', message: 'no complete answer within 300 ms' } });
  });

  it('with an idle limit, a body that stalls fails at it, saying the answer went silent', async () => {
    const r = await post(stalls, { timeoutMs: 600_000, idleMs: 300 });
    expect(r).toMatchObject({ ok: false, outcome: { kind: 'timeout', message: 'the answer went silent: no bytes for 300 ms after its headers' } });
  });
});
