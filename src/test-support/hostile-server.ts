/**
 * Test support: servers that try to make the client grow without limit. Each
 * answers with a head, then writes one pre-built piece again and again (no
 * allocation per write, honouring backpressure) until the client hangs up or
 * `maxBytes` have gone out, so a test is bounded even if the client were not.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Writes `head`, then `piece` repeatedly until the socket closes or `maxBytes` are sent; then ends. */
export function endless(opts: { status?: number; contentType?: string; head?: string; piece: string | Buffer; maxBytes?: number }) {
  const piece = Buffer.from(opts.piece);
  const maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.writeHead(opts.status ?? 200, { 'content-type': opts.contentType ?? 'text/event-stream' });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    let sent = 0;
    if (opts.head !== undefined) sent += Buffer.byteLength(opts.head);
    if (opts.head !== undefined) res.write(opts.head);
    while (!closed && sent < maxBytes) {
      sent += piece.length;
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    if (!closed) res.end();
  };
}

/** Bytes a test server wrote before the client went away, for "stopped early" assertions. */
export function counting(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const state = { written: 0 };
  const wrapped = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const write = res.write.bind(res) as (chunk: Buffer | string) => boolean;
    res.write = ((chunk: Buffer | string) => {
      state.written += Buffer.byteLength(chunk);
      return write(chunk);
    }) as typeof res.write;
    await handler(req, res);
  };
  return { handler: wrapped, state };
}
