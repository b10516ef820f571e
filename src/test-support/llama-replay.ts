/**
 * llama-server's recorded prefix-scoring answers (src/quality/fixtures/
 * llama-prefix-scoring-*.txt: build b9928, stories260K with F32 or Q8_0
 * weights) served byte for byte: a logprobs completion gets the answer recorded
 * for its prompt, and `/tokenize` with pieces the recorded pieces. Everything
 * else is 404, or forwarded to a live server (a simulator), so a whole
 * `goodput run` can measure against it and score its quality from the
 * recordings.
 */
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';

/** The recorded answers of one transcript: completion bodies by prompt, in order, and the /tokenize answer. */
export function llamaTranscript(file: string): { completions: Map<string, string>; tokenize: string } {
  const text = readFileSync(new URL(`../quality/fixtures/${file}`, import.meta.url), 'utf8');
  const completions = new Map<string, string>();
  let tokenize = '';
  for (const block of text.split(/^\$ curl /m).slice(1)) {
    const body = block.trimEnd().split('\n').at(-1) as string;
    const sent = /-d '(.*)'$/m.exec(block.split('\n')[0] as string)?.[1];
    if (sent !== undefined && block.startsWith('-s -i http://127.0.0.1:PORT/v1/completions'))
      completions.set((JSON.parse(sent) as { prompt: string }).prompt, body);
    else if (block.includes('/tokenize')) tokenize = body;
  }
  return { completions, tokenize };
}

/**
 * The recorded answer for `prompt`: the one recorded for it, else for the
 * longest recorded prompt it starts with, else one chosen by the prompt's
 * length (the recordings hold three prompts; a quality run sends more).
 */
function answerFor(recorded: Map<string, string>, prompt: string): string {
  const exact = recorded.get(prompt);
  if (exact !== undefined) return exact;
  const prefixes = [...recorded.keys()].filter((p) => prompt.startsWith(p)).sort((a, b) => b.length - a.length);
  const bodies = [...recorded.values()];
  return recorded.get(prefixes[0] ?? '') ?? (bodies[prompt.length % bodies.length] as string);
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Forwards a request to `base` and streams the answer back as it comes. */
function forward(base: string, req: IncomingMessage, res: ServerResponse, body: string): void {
  const out = request(new URL(req.url ?? '/', base), { method: req.method, headers: { ...req.headers, host: new URL(base).host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  out.end(body);
}

/**
 * A handler replaying `file`'s quality answers (non-streamed `/v1/completions`
 * with logprobs, `/tokenize` with pieces), forwarding every other request to
 * `upstream` (or answering 404 without one).
 */
export function llamaQualityReplay(file: string, upstream?: string): Handler {
  const recorded = llamaTranscript(file);
  return (req, res, raw) => {
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', server: 'llama.cpp' });
      res.end(body);
    };
    const path = (req.url ?? '').split('?')[0];
    let body: Record<string, unknown> = {};
    try {
      body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      /* not JSON: not a quality request */
    }
    if (path === '/tokenize' && body['with_pieces'] === true) return send(200, recorded.tokenize);
    if (path === '/v1/completions' && body['stream'] !== true && body['logprobs'] !== undefined)
      return send(200, answerFor(recorded.completions, String(body['prompt'])));
    if (upstream !== undefined) return forward(upstream, req, res, raw);
    send(404, '{"error":{"code":404,"message":"not recorded","type":"not_found_error"}}');
  };
}
