/**
 * Test support: a loopback server speaking the rerank and scoring dialects a
 * test scripts — vLLM's `/score`, TEI's `/rerank` and `/embed`, Cohere's
 * `/v1/rerank` — each POST answered with what the script returns (a missing
 * score, a duplicate index, NaN, a body past our limit). With `tei`, it has no
 * `/v1/models` and answers `/info` as TEI does.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RankAnswer {
  status?: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}
/** The answer to one POST at `path` with its parsed JSON body; `n` counts POSTs from 0 (the probe first). */
export type RankScript = (path: string, body: Record<string, unknown>, n: number) => RankAnswer | 'huge';

/** TEI's `/info` for a reranker, as router/src/lib.rs `Info` serialises it. */
export const TEI_INFO = {
  model_id: 'BAAI/bge-reranker-base',
  model_sha: null,
  model_dtype: 'float16',
  model_type: { reranker: { id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 } } },
  max_concurrent_requests: 512,
  max_input_length: 512,
  max_batch_tokens: 16384,
  max_batch_requests: null,
  max_client_batch_size: 32,
  auto_truncate: false,
  tokenization_workers: 2,
  version: '1.5.0',
  sha: null,
  docker_label: null,
};

/** Sends `bytes` of a JSON-looking body in 1 MiB pieces, stopping when the client goes away. */
function sendHuge(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const piece = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  const more = () => {
    while (sent < bytes && !res.destroyed) {
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    res.end();
  };
  res.write('[');
  more();
}

export async function startRankServer(
  script: RankScript,
  opts: { tei?: boolean; hugeBytes?: number } = {},
): Promise<{ url: string; posts: string[]; close(): Promise<void> }> {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && req.url === '/v1/models' && opts.tei !== true)
        return json(200, { object: 'list', data: [{ id: 'rank-1', object: 'model' }] });
      if (req.method === 'GET' && req.url === '/info' && opts.tei === true) return json(200, TEI_INFO);
      if (req.method !== 'POST') return json(404, { error: `Not found: ${req.url ?? ''}` });
      posts.push(req.url ?? '');
      const answer = script(req.url ?? '', JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, posts.length - 1);
      if (answer === 'huge') return sendHuge(res, opts.hugeBytes ?? 0);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
