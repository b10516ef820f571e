// A run signed where it was measured (goodput run --sign) ships its signature
// beside its evidence; a receipt whose run signature does not verify, or does
// not sign the evidence it ships, is refused naming the file and the rule.
// Unsigned runs are accepted (the untouched receipt carries none).
import { createPublicKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodReceipt } from '../test-support/receipt-dir.js';
import { signaturePath } from './evidence-files.js';
import { recomputeReceipt } from './receipt-file.js';
import { keyIdOf, newKeyPair, parseKey, signedResult } from './site-signing.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-run-signature-'));
const TODAY = '2026-07-01';
const pem = newKeyPair();
const key = (() => {
  const k = parseKey(pem.privatePem, 'private');
  if (!k.ok) throw new Error(k.problem);
  return k.key;
})();
let n = 0;

/**
 * The good receipt in its own folder with `envelope(ref)` written beside the baseline's evidence; with `stated`, the
 * receipt also states the signer, as receipt create does when it finds the signature (fact set 3 names it).
 */
async function withSignature(envelope: (ref: string) => string, stated = false) {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const d = goodReceipt(join(dir, 'r.json'));
  writeFileSync(join(dir, signaturePath(d.refs.baseline)), envelope(d.refs.baseline));
  const receipt = JSON.parse(d.text) as { signatures: { baseline: { keyid: string | null } } };
  if (stated) receipt.signatures.baseline.keyid = keyIdOf(createPublicKey(key));
  return { d, r: await recomputeReceipt(stated ? JSON.stringify(receipt) : d.text, dir, TODAY) };
}
const messages = (r: Awaited<ReturnType<typeof recomputeReceipt>>) => (r.ok ? [] : r.refusals.map((x) => x.message));

describe('run signatures shipped with a receipt', () => {
  it('a signature over the shipped evidence verifies and is shipped with it', async () => {
    const { d, r } = await withSignature((ref) => signedResult(Buffer.from('the result file as written'), key, ref), true);
    expect(messages(r)).toEqual([]);
    expect(r.ok && r.files.has(signaturePath(d.refs.baseline))).toBe(true);
  });

  it('a signature added beside the evidence after the receipt was made is refused: the receipt does not name its signer', async () => {
    const { r } = await withSignature((ref) => signedResult(Buffer.from('the result file as written'), key, ref));
    expect(messages(r)).toEqual([
      `signatures.baseline.keyid: states null, the evidence gives "${keyIdOf(createPublicKey(key))}" [rule: stated-equals-recomputed]`,
    ]);
  });

  it('an unsigned run is accepted and ships no signature', async () => {
    const dir = join(root, 'unsigned');
    mkdirSync(dir, { recursive: true });
    const d = goodReceipt(join(dir, 'r.json'));
    const r = await recomputeReceipt(d.text, dir, TODAY);
    expect(messages(r)).toEqual([]);
    expect(r.ok && [...r.files.keys()].some((p) => p.endsWith('.dsse.json'))).toBe(false);
  });

  const cases: Array<[string, (ref: string) => string, RegExp]> = [
    [
      'a signature whose bytes were changed',
      (ref) => {
        const env = JSON.parse(signedResult(Buffer.from('x'), key, ref)) as { signatures: Array<{ sig: string }> };
        const sig = Buffer.from(env.signatures[0]?.sig ?? '', 'base64');
        sig[0] = (sig[0] ?? 0) ^ 1;
        (env.signatures[0] as { sig: string }).sig = sig.toString('base64');
        return JSON.stringify(env);
      },
      /the signature by ed25519:[0-9a-f]{32} does not verify/,
    ],
    ["a signature of another run's evidence", () => signedResult(Buffer.from('x'), key, 'c'.repeat(64)), /signs the published copy c{64}, not this evidence/],
    ['a signature of the result file alone (no published copy)', () => signedResult(Buffer.from('x'), key), /signs no published copy, not this evidence/],
    ['a file that is not a signature', () => '{"payloadType": "x"}', /is not a goodput result signature/],
  ];
  for (const [what, envelope, why] of cases) {
    it(what, async () => {
      const { d, r } = await withSignature(envelope);
      const hit = messages(r).find(
        (m) => m.startsWith(`evidence.baseline: ${signaturePath(d.refs.baseline)}: `) && why.test(m) && m.endsWith('[rule: signature]'),
      );
      expect(hit, messages(r).join('\n')).toBeDefined();
    });
  }

  it('a signature file too large to be one is refused before it is parsed', async () => {
    const { r } = await withSignature(() => ' '.repeat(70 * 1024));
    expect(messages(r)).toContainEqual(expect.stringMatching(/more than a signature envelope .*\[rule: signature\]$/));
  });
});
