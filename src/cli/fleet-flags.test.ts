// A fleet's flags read into the spec (`--url` repeated, `--route`, `--prometheus --selector`), and each
// refusal with its exact message: from the flags, and from the spec where the API sends the same fields.
import { describe, expect, it } from 'vitest';
import { sweepSpecSchema } from '../runner/index.js';
import { fleetFromFlags } from './fleet-flags.js';
import { oneUrl } from './parse-flags.js';

const A = 'http://127.0.0.1:8000';
const B = 'http://127.0.0.1:8001';
const read = (over: Partial<Parameters<typeof fleetFromFlags>[0]>) => fleetFromFlags({ url: [A, B], serverMetrics: true, ...over });
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('fleet flags', () => {
  it('reads one URL as before, several as a fleet routed round-robin unless told', () => {
    expect(read({ url: [`${A}/`] })).toEqual({ url: A });
    expect(read({})).toEqual({ url: A, fleet: { urls: [A, B], route: 'round-robin' } });
    expect(read({ route: 'session' }).fleet).toEqual({ urls: [A, B], route: 'session' });
    expect(read({ prometheus: 'http://prom:9090', selector: ' {job="vllm"} ' }).prometheus).toEqual({ url: 'http://prom:9090', selector: '{job="vllm"}' });
  });

  it('refuses what cannot work, naming the flag', () => {
    expect(refusal(() => read({ route: 'fastest' }))).toBe("--route: 'fastest' is not one of round-robin, least-in-flight, session");
    expect(refusal(() => read({ url: [A], route: 'least-in-flight' }))).toBe('--route: routes requests over a fleet: give --url more than once');
    expect(refusal(() => read({ route: '/score' }))).toBe(
      "--route: '/score' is a path, the engine's route of --endpoint embeddings or rerank; text generation routes a fleet: round-robin, least-in-flight, session",
    );
    expect(refusal(() => read({ url: [A, B, A] }))).toBe(`--url: ${A} is given twice; give each target once`);
    // The same server written another way: before, it became a second target splitting its own figures in two.
    expect(refusal(() => read({ url: [A, B, `${A}/v1`] }))).toBe(`--url: ${A}/v1 is ${A} again, written another way; give each target once`);
    expect(refusal(() => read({ url: ['http://LOCALHOST:80', 'http://localhost/'] }))).toBe(
      '--url: http://localhost is http://LOCALHOST:80 again, written another way; give each target once',
    );
    const many = Array.from({ length: 65 }, (_, i) => `http://127.0.0.1:${9000 + i}`);
    expect(refusal(() => read({ url: many }))).toBe(
      '--url: targets 65 is above the limit of 64 targets one run routes its requests over (--url given more than once)',
    );
    expect(refusal(() => read({ url: [A, 'nope'] }))).toBe("--url: 'nope' is not a URL (e.g. http://127.0.0.1:8000)");
    expect(refusal(() => read({ prometheus: 'http://prom:9090' }))).toBe('--prometheus: needs the other: --prometheus URL --selector \'{job="vllm"}\'');
    expect(refusal(() => read({ selector: '{job="vllm"}' }))).toBe('--selector: needs the other: --prometheus URL --selector \'{job="vllm"}\'');
    expect(refusal(() => read({ prometheus: 'http://prom:9090', selector: 'job=vllm' }))).toBe(
      "--selector: 'job=vllm' is not label matchers in braces, e.g. '{job=\"vllm\"}'",
    );
    expect(refusal(() => read({ prometheus: 'http://prom:9090', selector: '{job="vllm"}', serverMetrics: false }))).toBe(
      '--prometheus: cannot be combined with --no-server-metrics',
    );
    expect(refusal(() => oneUrl([A, B], 'embeddings'))).toBe(
      "--url: is given 2 times; --endpoint embeddings sends to one server (a fleet of targets is text generation's)",
    );
  });

  it('refuses the same in the spec the API and tests send', () => {
    const problem = (over: Record<string, unknown>) => {
      const r = sweepSpecSchema.safeParse({ url: A, levels: [1], fleet: { urls: [A, B] }, ...over });
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(problem({})).toBeNull();
    expect(problem({ fleet: { urls: [B, A] } })).toBe('fleet.urls.0: the first target must be url');
    expect(problem({ fleet: { urls: [A] } })).toBe('fleet.urls: fleet.urls must list at least two targets');
    expect(problem({ fleet: { urls: [A, B, B] } })).toBe(`fleet.urls.2: ${B} is given twice; each target once`);
    expect(problem({ fleet: { urls: [A, `${B}/v1/`, B] } })).toBe(`fleet.urls.2: ${B} is ${B}/v1/ again, written another way; each target once`);
    expect(problem({ fleet: { urls: [A, B], route: 'session' } })).toBe(
      'fleet.route: session routing keeps a session on one target: it needs sessions or an agent trace',
    );
    expect(problem({ metricsUrl: `${A}/metrics` })).toBe(
      "metricsUrl: one metrics URL cannot speak for a fleet: each target's own endpoint is scraped, or give a Prometheus server (prometheus)",
    );
    expect(problem({ serverHooks: { resetCache: 'every-level' } })).toBe("serverHooks: server hooks call one server's admin routes: a fleet run takes none");
    expect(problem({ fleet: { urls: Array.from({ length: 65 }, (_, i) => `http://127.0.0.1:${9000 + i}`) }, url: 'http://127.0.0.1:9000' })).toMatch(
      /^fleet\.urls: fleet\.urls 65 is above the limit of 64 targets one run routes its requests over/,
    );
    expect(problem({ fleet: null, prometheus: { url: 'http://prom:9090', selector: 'job' } })).toBe(
      'prometheus.selector: prometheus.selector must be label matchers in braces, e.g. {job="vllm"}',
    );
  });
});
