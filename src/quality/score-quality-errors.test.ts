/**
 * scoreQuality when something is missing or broken: servers without prompt
 * logprobs (recorded llama-server answers), without first-token logprobs,
 * refusing every k, failing, dying, or not there. Fake servers on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimServer } from '../sim/index.js';
import { closedPort, startServer, type TestServer } from '../test-support/scripted-server.js';
import { QualityError } from './quality-error.js';
import { scoreQuality } from './score-quality.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'stories260K', object: 'model' }] });

/** A fake server: `/v1/models` lists stories260K; POSTs go to `answer(path, headers)` → [status, body]. */
function fake(answer: (path: string, req: IncomingMessage) => [number, string]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const [status, body] = req.url === '/v1/models' ? [200, MODELS] : answer(req.url ?? '', req);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  };
}

/** llama-server: logprobs on chat and completions (list shape), no echo: recorded answers. */
const llama = fake((path) => [200, fixture(path === '/v1/chat/completions' ? 'llama-chat-logprobs.json' : 'llama-completions-logprobs.json')]);

let sim: SimServer;
let llamaA: TestServer;
let llamaB: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ model: 'stories260K', prefillBaseMs: 0, prefillMsPerToken: 0, decodeStepMs: 0.2 });
  [llamaA, llamaB] = await Promise.all([startServer(llama), startServer(llama)]);
});
afterAll(async () => {
  await Promise.all([sim.close(), llamaA.close(), llamaB.close()]);
});

async function failure(p: Promise<unknown>): Promise<QualityError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QualityError);
  return err as QualityError;
}

describe('perplexity not recorded', () => {
  it('neither server returns prompt logprobs: the composite is not recorded and says why; KL is still measured', async () => {
    const s = await scoreQuality({ baseline: { baseUrl: llamaA.url }, candidate: { baseUrl: llamaB.url } });
    expect(s.composite).toBeNull();
    expect(s.compositeProvenance).toBe('not recorded');
    expect(s.components.kl.value).toBe(0);
    expect(s.components.pplDelta.provenance).toBe('not recorded');
    expect(s.components.pplDelta.value).toBeNull();
    const reason = s.components.pplDelta.provenance === 'not recorded' ? s.components.pplDelta.reason : '';
    expect(reason).toMatch(/^the baseline server's \/v1\/completions: choices\[0\]\.logprobs has no token_logprobs/);
    expect(reason).toMatch(/; the candidate server's \/v1\/completions: /);
    const echo = JSON.parse(llamaA.requests.find((r) => r.url === '/v1/completions')?.body ?? '{}') as Record<string, unknown>;
    expect(echo).toMatchObject({ echo: true, logprobs: 1, max_tokens: 1, model: 'stories260K' });
  });

  it('only one server returns them: still not recorded, naming the other', async () => {
    const s = await scoreQuality({ baseline: { baseUrl: sim.url }, candidate: { baseUrl: llamaA.url } });
    expect(s.composite).toBeNull();
    expect(s.components.kl.value).toBeGreaterThan(0);
    const reason = s.components.pplDelta.provenance === 'not recorded' ? s.components.pplDelta.reason : '';
    // Stored with the score and publishable: the side and the route, never the address.
    expect(reason).toMatch(/^the candidate server's \/v1\/completions: /);
    expect(reason).not.toMatch(/127\.0\.0\.1|http/);
  });

  it('a 4xx to echo is a reason, not an error', async () => {
    const server = await startServer(
      fake((path) => (path === '/v1/completions' ? [400, '{"error":{"message":"echo is not supported"}}'] : [200, fixture('llama-chat-logprobs.json')])),
    );
    const s = await scoreQuality({ baseline: { baseUrl: server.url }, candidate: { baseUrl: server.url } });
    await server.close();
    expect(s.components.pplDelta).toMatchObject({
      provenance: 'not recorded',
      reason: expect.stringMatching(/^the baseline server's \/v1\/completions refused echo \+ logprobs \(HTTP 400: echo is not supported\)/),
    });
  });
});

describe('no score: a QualityError with a clear message', () => {
  it('a server that is not there', async () => {
    const port = await closedPort();
    const err = await failure(scoreQuality({ baseline: { baseUrl: sim.url }, candidate: { baseUrl: `http://127.0.0.1:${port}` } }));
    expect(err.code).toBe('preflight-refused');
    expect(err.message).toMatch(new RegExp(`^candidate: http://127\\.0\\.0\\.1:${port}/v1/models could not be reached`));
  });

  it('a URL that is not http(s)', async () => {
    const err = await failure(scoreQuality({ baseline: { baseUrl: 'ftp://127.0.0.1:1' }, candidate: { baseUrl: sim.url } }));
    expect(err.message).toMatch(/^baseline: "ftp:\/\/127\.0\.0\.1:1" must start with http:\/\/ or https:\/\//);
  });

  it('a model the server does not serve', async () => {
    const err = await failure(scoreQuality({ baseline: { baseUrl: sim.url }, candidate: { baseUrl: llamaA.url }, model: 'nope' }));
    expect(err.message).toMatch(/^baseline: Model "nope" is not served/);
  });

  it('a server that answers without logprobs', async () => {
    const server = await startServer(fake(() => [200, '{"choices":[{"message":{"content":"hi"},"logprobs":null}]}']));
    const err = await failure(scoreQuality({ baseline: { baseUrl: server.url }, candidate: { baseUrl: sim.url } }));
    await server.close();
    expect(err.code).toBe('no-logprobs');
    expect(err.message).toMatch(
      /^baseline http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered without usable first-token logprobs \(the answer has no choices\[0\]\.logprobs\)/,
    );
  });

  it('a server that refuses every top_logprobs', async () => {
    const server = await startServer(fake(() => [400, '{"error":{"message":"logprobs are disabled"}}']));
    const err = await failure(scoreQuality({ baseline: { baseUrl: sim.url }, candidate: { baseUrl: server.url } }));
    await server.close();
    expect(err.code).toBe('no-logprobs');
    expect(err.message).toMatch(/refused every top_logprobs value tried \(20, 10, 5, 2, 1\); last answer HTTP 400: logprobs are disabled/);
    expect(server.requests.filter((r) => r.url === '/v1/chat/completions').map((r) => (JSON.parse(r.body) as { top_logprobs: number }).top_logprobs)).toEqual([
      20, 10, 5, 2, 1,
    ]);
  });

  it('a server error never leaks the API key', async () => {
    const key = 'sk-test-secret-123';
    const server = await startServer(fake((_path, req) => [500, JSON.stringify({ error: { message: `internal error for ${req.headers.authorization}` } })]));
    const err = await failure(scoreQuality({ baseline: { baseUrl: server.url, apiKey: key }, candidate: { baseUrl: sim.url } }));
    await server.close();
    expect(err.code).toBe('http-error');
    expect(err.message).toMatch(/answered HTTP 500: internal error for Bearer \[redacted\]/);
    expect(err.message).not.toContain(key);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
  });

  it('a server that dies during the evaluation', async () => {
    const dying = await startSimulator({ model: 'stories260K', prefillBaseMs: 0, decodeStepMs: 0.2, faults: { dieAfterRequests: 4 } });
    const err = await failure(scoreQuality({ baseline: { baseUrl: sim.url }, candidate: { baseUrl: dying.url } }));
    await dying.close();
    expect(err.code).toBe('unreachable');
    expect(err.message).toMatch(/^candidate http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions could not be reached/);
  });
});
