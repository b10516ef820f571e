/**
 * A small OpenAI-compatible engine on 127.0.0.1 with a tokenizer of its own,
 * for prompt-length tests: `llama` reads llama.cpp's `POST /tokenize` body
 * (`content` in, `tokens` out) and adds template tokens on chat; `vllm` reads
 * vLLM's (`prompt` in, `count` out); `none` has no tokenize route. Its token
 * counts are not words (a word of n letters is ⌈n/3⌉ tokens for `llama`,
 * ⌈n/4⌉ for the others), and usage.prompt_tokens is counted the same way.
 */
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TokenizerKind = 'llama' | 'vllm' | 'none';

export interface TokenizingServer {
  url: string;
  close(): Promise<void>;
  tokens(text: string): number;
}

/** Chat template tokens the `llama` server adds per message, and once per request. */
export const LLAMA_TEMPLATE = { perMessage: 4, perRequest: 3 };

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
}

/** @param o.short answers end this many tokens before the request's cap (a server that stops early) */
export async function startTokenizingServer(kind: TokenizerKind, o: { short?: number } = {}): Promise<TokenizingServer> {
  const per = kind === 'llama' ? 3 : 4;
  const tokens = (text: string) =>
    text
      .split(/\s+/)
      .filter(Boolean)
      .reduce((a, w) => a + Math.ceil(w.length / per), 0);
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      if (req.method === 'GET' && path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
      if (req.method !== 'POST') return json(res, 404, { error: 'not found' });
      const body = await bodyOf(req);
      if (path === '/tokenize') {
        if (kind === 'none') return json(res, 404, { error: 'not found' });
        // As llama-server b9928 answers (fixtures/llama-server/40-42): a body without `content` counts as no tokens, HTTP 200.
        if (kind === 'llama')
          return json(res, 200, { tokens: Array.from({ length: typeof body['content'] === 'string' ? tokens(body['content']) : 0 }, (_, i) => i) });
        return typeof body['prompt'] === 'string'
          ? json(res, 200, { count: tokens(body['prompt']), max_model_len: 8192 })
          : json(res, 400, { message: 'prompt is required' });
      }
      const chat = path === '/v1/chat/completions';
      if (!chat && path !== '/v1/completions') return json(res, 404, { error: 'not found' });
      const messages = (body['messages'] ?? []) as Array<{ content: string }>;
      const prompt = chat
        ? messages.reduce(
            (a, m) => a + tokens(m.content) + (kind === 'llama' ? LLAMA_TEMPLATE.perMessage : 2),
            kind === 'llama' ? LLAMA_TEMPLATE.perRequest : 1,
          )
        : tokens(String(body['prompt']));
      const n = Math.max(1, Number(body['max_tokens'] ?? body['max_completion_tokens'] ?? 4) - (o.short ?? 0));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const piece = (i: number) =>
        chat
          ? { index: 0, delta: { content: ' a' }, finish_reason: i === n - 1 ? 'length' : null }
          : { index: 0, text: ' a', finish_reason: i === n - 1 ? 'length' : null };
      for (let i = 0; i < n; i++) res.write(`data: ${JSON.stringify({ id: 'x', choices: [piece(i)] })}\n\n`);
      res.write(`data: ${JSON.stringify({ id: 'x', choices: [], usage: { prompt_tokens: prompt, completion_tokens: n, total_tokens: prompt + n } })}\n\n`);
      res.end('data: [DONE]\n\n');
    })().catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
