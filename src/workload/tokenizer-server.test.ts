/** The server's /tokenize as the token counter, and `auto` falling back to the labelled approximation. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type TestServer, startServer } from '../test-support/scripted-server.js';
import { WorkloadError } from './errors.js';
import { exactPrompt } from './exact-prompt.js';
import { resolveTokenizer } from './resolve-tokenizer.js';
import { tokenizeUrl } from './tokenizer-server.js';

let sim: SimServer;
let bare: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  bare = await startServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([sim.close(), bare.close()]);
});

describe('server tokenizer', () => {
  it('finds /tokenize beside /v1, keeping a path prefix', () => {
    expect(tokenizeUrl('http://h:8000/v1/')).toBe('http://h:8000/tokenize');
    expect(tokenizeUrl('http://h:8000/proxy/v1')).toBe('http://h:8000/proxy/tokenize');
  });
  it('counts with the server (the simulator: one word, one token) and builds exact prompts with it', async () => {
    const counter = await resolveTokenizer({ kind: 'server' }, { url: `${sim.url}/v1`, model: 'goodput-sim-1' });
    expect(counter.info).toMatchObject({ kind: 'server', exact: true, label: expect.stringMatching(/^exact: the server's tokenizer \(POST .*\/tokenize/) });
    expect(await counter.count('one two  three')).toBe(3);
    expect((await exactPrompt(counter, 37, 'rsalt', 4)).split(' ')).toHaveLength(37);
  });
  it("auto: the server's when it has one, else the approximation, labelled with why", async () => {
    expect((await resolveTokenizer({ kind: 'auto' }, { url: sim.url, model: 'goodput-sim-1' })).info.kind).toBe('server');
    const approx = await resolveTokenizer({ kind: 'auto' }, { url: bare.url, model: 'm' });
    expect(approx.info).toMatchObject({ kind: 'approximate', exact: false });
    expect(approx.info.label).toMatch(/^approximate \(words; this server has no tokenizer route\): POST .*\/tokenize answered HTTP 404$/);
  });
  it('server required but absent: an error that says so', async () => {
    await expect(resolveTokenizer({ kind: 'server' }, { url: bare.url, model: 'm' })).rejects.toSatisfy(
      (e: unknown) => e instanceof WorkloadError && /asks for the server's tokenizer, but POST .* answered HTTP 404/.test(e.message),
    );
  });
});

/** llama-server's recorded answers to the three body shapes (client/fixtures/llama-server/40-42), served by which field the body fills. */
function llamaRecordings(): Map<string, Buffer> {
  const byField = new Map<string, Buffer>();
  const recorded = [
    ['prompt', '40-tokenize-vllm-body'],
    ['content', '41-tokenize-llama-body'],
    ['inputs', '42-tokenize-tgi-body'],
    ['messages', '43-apply-template'],
    ['parse_special', '44-tokenize-templated'],
  ] as const;
  for (const [field, name] of recorded) {
    const text = readFileSync(new URL(`../client/fixtures/llama-server/${name}.http`, import.meta.url), 'latin1');
    byField.set(field, Buffer.from(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1'));
  }
  return byField;
}

/** Serves the recordings: /apply-template, the templated count (parse_special), else by the field the body fills. */
async function llamaReplay(bodies: string[]): Promise<TestServer> {
  const recorded = llamaRecordings();
  return startServer((req, res, body) => {
    bodies.push(body);
    const keys = Object.keys(JSON.parse(body) as object);
    const field =
      req.url === '/apply-template' ? 'messages' : keys.includes('parse_special') ? 'parse_special' : (keys.find((k) => recorded.has(k)) ?? 'prompt');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(recorded.get(field));
  });
}

describe("server tokenizer against llama-server's recorded answers", () => {
  it('skips the vLLM body llama.cpp answers with no tokens and counts with its own `content` body', async () => {
    const bodies: string[] = [];
    const llama = await llamaReplay(bodies);
    try {
      const counter = await resolveTokenizer({ kind: 'server' }, { url: llama.url, model: 'stories260K' });
      expect(counter.info.label).toMatch(/llama\.cpp body/);
      // The recording counts six tokens in "hello world"; the replay answers that to every `content` body.
      expect(await counter.count('hello world')).toBe(6);
      expect(JSON.parse(bodies[0] ?? '{}')).toHaveProperty('prompt', 'hello world');
      expect(JSON.parse(bodies.at(-1) ?? '{}')).toEqual({ content: 'hello world', add_special: false });
    } finally {
      await llama.close();
    }
  });
  it("measures the chat template's own tokens before sending: /apply-template, then a count with special tokens (46 − 6 = 40)", async () => {
    const bodies: string[] = [];
    const llama = await llamaReplay(bodies);
    try {
      const counter = await resolveTokenizer({ kind: 'server' }, { url: llama.url, model: 'stories260K' });
      // 40 is what llama-server's usage.prompt_tokens added to a 256-token chat prompt in the same build (296).
      expect(await counter.chatTemplateTokens?.()).toBe(40);
      expect(bodies.map((b) => JSON.parse(b) as unknown)).toContainEqual({ messages: [{ role: 'user', content: 'hello world' }] });
    } finally {
      await llama.close();
    }
  });
  it('the simulator applies no template: 0; a server that cannot render one: null', async () => {
    expect(await (await resolveTokenizer({ kind: 'server' }, { url: sim.url, model: 'goodput-sim-1' })).chatTemplateTokens?.()).toBe(0);
    const noTemplate = await startServer((req, res, body) => {
      const messages = 'messages' in (JSON.parse(body) as object);
      res.writeHead(messages ? 400 : 200, { 'content-type': 'application/json' });
      res.end(messages ? '{"error":"messages not supported"}' : '{"count":2}');
    });
    try {
      expect(await (await resolveTokenizer({ kind: 'server' }, { url: noTemplate.url, model: 'm' })).chatTemplateTokens?.()).toBeNull();
    } finally {
      await noTemplate.close();
    }
  });
  it('a server that counts every shape at zero has no tokenizer, and says why', async () => {
    const empty = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"tokens":[]}');
    });
    try {
      const approx = await resolveTokenizer({ kind: 'auto' }, { url: empty.url, model: 'm' });
      expect(approx.info).toMatchObject({ kind: 'approximate', exact: false });
      expect(approx.info.label).toMatch(/counted 0 tokens in "hello world" \(it does not read the vLLM, SGLang, goodput sim body\)$/);
    } finally {
      await empty.close();
    }
  });
});
