// A server's words reach the terminal only sanitised, and a failing level says
// why under the table: `goodput sweep` in-process against a loopback server
// whose error messages and model list carry clear-screen and OSC 52 clipboard
// writes. A model id that carries them is refused before any request (it would
// be sent, recorded and published), naming where it is, with nothing escaped.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';

const EVIL = '\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m';
const HOSTILE_ID = `tiny${EVIL}`;
const OVERFLOW = 'request (1365 tokens) exceeds the available context size (1024 tokens), try increasing it';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const hostile = (modelId: string) => (req: IncomingMessage, res: ServerResponse) => answer(modelId, req, res);

function answer(modelId: string, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0];
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (path === '/v1/models') return json(200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: `me${EVIL}` }] });
  if (path === '/v1/chat/completions') return json(400, { error: { code: 400, message: `${OVERFLOW}${EVIL}`, type: 'exceed_context_size_error' } });
  json(404, { error: 'not found' });
}

describe('terminal text from a hostile server', () => {
  it('prints no escape sequence from the server, and the first failure of each failing level under the table', async () => {
    const server = await startServer(hostile('tiny'));
    servers.push(server);
    const ran = await cli([
      'sweep',
      '--url',
      server.url,
      '--levels',
      '1,2',
      '--requests-per-level',
      '2',
      '--warmup',
      '0',
      '--no-server-metrics',
      '--gpu-source',
      'none',
    ]);
    const all = ran.stdout + ran.stderr;
    expect(all).not.toContain('\u001b]52');
    expect(all).not.toContain('\u001b[2J');
    expect(all).not.toContain('\u009b');
    expect(all).toContain('tiny');
    expect(ran.stdout).toContain('First failure of each failing level:');
    expect(ran.stdout).toContain(`  1 stream: HTTP 400: ${OVERFLOW}`);
    expect(ran.stdout).toContain(`  2 streams: HTTP 400: ${OVERFLOW}`);
  });

  it('refuses a model id that carries terminal controls, before any request, escaping nothing', async () => {
    const server = await startServer(hostile(HOSTILE_ID));
    servers.push(server);
    const ran = await cli(['sweep', '--url', server.url, '--levels', '1', '--requests-per-level', '1', '--no-server-metrics', '--gpu-source', 'none']);
    const all = ran.stdout + ran.stderr;
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`${server.url} cannot be benchmarked: its /v1/models data[0].id holds a control character or a line break`);
    expect(all).not.toContain('\u001b]52');
    expect(all).not.toContain('\u001b[2J');
    expect(all).not.toContain('\u009b');
    expect(server.requests.map((r) => r.url)).not.toContain('/v1/chat/completions');
  });
});
