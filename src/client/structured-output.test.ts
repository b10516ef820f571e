// Structured output against the simulator over loopback: the schema sent in each engine's form (OpenAI
// response_format, TGI's grammar, Ollama's native `format`), answers judged valid at the simulator's configured
// rate, controls sent without the schema; hostile answers (not JSON, empty) judged unparsed.
import { describe, expect, it } from 'vitest';
import { summarizeStructured, type RequestRecord, type ResponseSchemaSpec } from '../core/index.js';
import type { SimDialectKind } from '../sim/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { scripted, startServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import type { DialectKind } from './dialects/types.js';
import { createStreamingClient } from './streaming-client.js';
import type { RequestSpec } from './types.js';

const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
const schema: ResponseSchemaSpec = {
  label: 'order.json',
  name: 'order',
  control: 0.5,
  schema: {
    type: 'object',
    required: ['sku', 'quantity', 'express'],
    additionalProperties: false,
    properties: { sku: { type: 'string', maxLength: 12 }, quantity: { type: 'integer', minimum: 1, maximum: 9 }, express: { type: 'boolean' } },
  },
};
const spec = (control: boolean): RequestSpec => ({
  endpoint: 'chat',
  model: 'goodput-sim-1',
  prompt: 'order something',
  maxTokens: 256,
  forceLength: false,
  thinking: false,
  structured: { spec: schema, control },
});

async function run(url: string, dialect: DialectKind, n: number): Promise<RequestRecord[]> {
  const client = createStreamingClient({ baseUrl: url }, { connections: 4, dialect: dialects[dialect] });
  const out = await Promise.all(
    Array.from({ length: n }, (_, seq) => client.send(spec(seq % 2 === 1), { seq, concurrency: 4, warmup: false, targetSendNs: 0 })),
  );
  await client.close();
  return out;
}

describe('structured output through the real client against the simulator', () => {
  const engines: Array<[SimDialectKind, DialectKind]> = [
    ['goodput', 'vllm'],
    ['tgi', 'tgi'],
    ['llamacpp', 'llamacpp'],
    ['ollama', 'ollama-native'],
    ['sglang', 'sglang'],
  ];
  for (const [played, dialect] of engines) {
    it(`${dialect}: the schema in the engine's form; answers valid at the configured rate; controls answer in words`, async () => {
      const s = await sim({ dialect: played, structuredOutput: { invalid: 0.2 } });
      const records = await run(s.url, dialect, 40);
      expect(
        records.every((r) => r.outcome.kind === 'ok'),
        JSON.stringify(records.find((r) => r.outcome.kind !== 'ok')?.outcome),
      ).toBe(true);
      const t = summarizeStructured(records) as NonNullable<ReturnType<typeof summarizeStructured>>;
      expect(t.requests).toBe(20);
      expect(t.controls).toBe(20);
      // The simulator spreads its invalid answers over its JSON answers: exactly 20 % of 20.
      expect(t.valid + t.invalid).toBe(20);
      expect(t.invalid).toBe(4);
      expect(t.cost.ttftMs?.controlP50).toBeGreaterThan(0);
      for (const r of records.filter((x) => x.structured?.schema === false)) expect(r.structured).toEqual({ schema: false, verdict: null, problem: null });
      for (const r of records.filter((x) => x.structured?.verdict === 'invalid'))
        expect(r.structured?.problem).toMatch(/the answer: \(root\) must have required property/);
    });
  }

  it('an answer that is not JSON, an empty one, or one cut by the output cap is unparsed', async () => {
    const server = await startServer(
      scripted([{ delayMs: 0, bytes: 'data: {"choices":[{"delta":{"content":"Sure! {\\"sku\\":"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n' }]),
    );
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.generic });
    const r = await client.send(spec(false), { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 });
    await client.close();
    await server.close();
    expect(r.structured).toEqual({ schema: true, verdict: 'unparsed', problem: 'the answer is not JSON' });
    const s = await sim();
    const c2 = createStreamingClient({ baseUrl: s.url }, { connections: 1 });
    const cut = await c2.send({ ...spec(false), maxTokens: 2 }, { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 });
    await c2.close();
    expect(cut.finishReason).toBe('length');
    expect(cut.structured?.verdict).toBe('unparsed');
  });

  it("sends the schema in each engine's form, and nothing for a control", async () => {
    const server = await startServer(
      scripted([{ delayMs: 0, bytes: 'data: {"choices":[{"delta":{"content":"{}"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n' }]),
    );
    const bodies: Array<Record<string, unknown>> = [];
    for (const [dialect, control] of [
      ['vllm', false],
      ['tgi', false],
      ['ollama-native', false],
      ['llamacpp', true],
    ] as const) {
      const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects[dialect] });
      await client.send(spec(control), { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 });
      await client.close();
      bodies.push(JSON.parse(server.requests.at(-1)?.body ?? '{}') as Record<string, unknown>);
    }
    await server.close();
    expect(bodies[0]?.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'order', schema: schema.schema, strict: true } });
    expect(bodies[1]?.response_format).toEqual({ type: 'json', value: schema.schema });
    expect(bodies[2]?.format).toEqual(schema.schema);
    expect(bodies[3]).not.toHaveProperty('response_format');
  });
});
