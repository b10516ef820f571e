/**
 * Test support: a loopback server that lists one model and answers every
 * embeddings request with what a test scripts (a wrong vector count, a NaN,
 * mixed dimensions, an HTTP status), for the checks a level makes of each answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers to one embeddings request for `inputs` inputs: a status and a body. */
export type EmbeddingsScript = (inputs: number, n: number) => { status: number; body: string };

/** `count` vectors of `dim` numbers in OpenAI's shape; `mutate` may change the text. */
export function vectorsBody(count: number, dim: number | ((i: number) => number), tokens = 0): string {
  const data = Array.from({ length: count }, (_, index) => ({
    object: 'embedding',
    index,
    embedding: Array.from({ length: typeof dim === 'number' ? dim : dim(index) }, (_, j) => (j % 7) / 10),
  }));
  return JSON.stringify({ object: 'list', data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** Starts the server on a free loopback port. */
export async function startEmbeddingsServer(script: EmbeddingsScript): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ object: 'list', data: [{ id: 'embed-1', object: 'model' }] }));
      }
      if (req.method === 'POST' && (req.url === '/v1/embeddings' || req.url === '/api/embed')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] | string };
        const inputs = Array.isArray(body.input) ? body.input.length : 1;
        const answer = script(inputs, n++);
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        return void res.end(answer.body);
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Not found: ${req.url ?? ''}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
