/**
 * What a price table may not say about a receipt, through `goodput publish`:
 * a source at an internal address, and a server's hourly rate below the cited
 * per-GPU price times the GPUs its label names. Each is refused with exit 2,
 * the rule and the row or number named, and nothing written; the honest
 * table publishes.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { qualityReceipt } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-price-claims-'));
const file = (name: string, body: string) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};
const LABEL = '8× H100 SXM 80GB';
/** One H100's hourly price (a whole 8-GPU instance at 80 USD/h), stated as the rate of all eight. */
const pairAt = (hourly: number) => evidencePair({ baseline: { label: LABEL, hourly }, optimized: { label: LABEL, hourly } });
const instanceRow = (url: string) =>
  `instancePrices:\n  - { provider: Example Cloud, sku: p5-H100, gpus: 8, usdPerHourWholeInstance: 80, sourceUrl: "${url}", asOf: 2026-06-01 }\n`;

async function receiptAt(name: string, hourly: number): Promise<string> {
  const out = join(dir, name, 'r.json');
  await qualityReceipt(dir, name, pairAt(hourly), out);
  return out;
}

let honest: string;
let oneGpu: string;
beforeAll(async () => {
  honest = await receiptAt('honest', 80);
  oneGpu = await receiptAt('one-gpu', 10);
});

const publish = (receipt: string, prices: string, out: string) => cli(['publish', '--receipts', receipt, '--prices', prices, '--out', out]);

describe('cost sanity: the hourly rate against the cited per-GPU price', () => {
  it('a rate of eight GPUs at the cited price publishes', async () => {
    const out = join(dir, 'site-honest');
    const r = await publish(honest, file('honest.yaml', instanceRow('https://example.com/instances')), out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('"8× H100" billed at one GPU\'s hourly price: exit 2, the rate and the cited row named, nothing written', async () => {
    const out = join(dir, 'site-one-gpu');
    const r = await publish(oneGpu, file('one-gpu.yaml', instanceRow('https://example.com/instances')), out);
    expect(r.code).toBe(2);
    for (const cfg of ['baseline', 'optimized'])
      expect(r.stderr).toContain(
        `${cfg}.hourlyRate (GPU hourly rate, ${cfg}): is 10 USD/h for ${LABEL}, below 8 × 10 USD/h, the cheapest per-GPU price cited (Example Cloud p5-H100, https://example.com/instances); cite the price paid as an instance row, or state the rate of every GPU the label names [rule: cost-cited]`,
      );
    expect(existsSync(out)).toBe(false);
  });

  it('a price table that names no GPU of the label has nothing to compare: the receipt publishes', async () => {
    const out = join(dir, 'site-other-gpu');
    const other = instanceRow('https://example.com/instances').replace('p5-H100', 'p4d-A100');
    const r = await publish(oneGpu, file('other.yaml', other), out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('no local addresses in price sources', () => {
  const cases: Array<[string, string, string]> = [
    ['a private IP with a port', 'https://10.1.2.3:8443/prices', 'an IP address ("10.1.2.3")'],
    ['an internal hostname', 'https://grafana.corp.internal/d/gpu-costs', 'an internal hostname ("grafana.corp.internal")'],
    ['localhost', 'http://localhost:3000/prices', 'a hostname ("localhost")'],
    ['a link-local address', 'http://169.254.169.254/latest/meta-data', 'an IP address ("169.254.169.254")'],
    ['an IPv6 literal', 'http://[fe80::1]/prices', 'an IP address ("[fe80::1]")'],
    ['a .local name', 'https://prices.office.local/gpu', 'an internal hostname ("prices.office.local")'],
  ];
  for (const [what, url, named] of cases) {
    it(`${what}: exit 2, the row and rule named, nothing written`, async () => {
      const out = join(dir, `site-${what.replace(/\W+/g, '-')}`);
      const r = await publish(honest, file(`${what.replace(/\W+/g, '-')}.yaml`, instanceRow(url)), out);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `prices instance row 1 (Example Cloud p5-H100) sourceUrl: cites a page at ${named}; a price's source is a public page a reader can open [rule: no-internal-identifiers]`,
      );
      expect(existsSync(out)).toBe(false);
    });
  }
});
