/**
 * What a receipt of fact set 3 states about who signed its evidence: each
 * side's run signature (the key whose signature over the side's evidence
 * verified, and the key of a signed repeat set), what of the server's own
 * account corroborates the side's figures, and where the quality score came
 * from and who signed it. All of it is recomputed from the evidence and its
 * signature files; each fact's standing on a site (standing.ts) rests on it
 * and on the measurer keys the site lists.
 */
import { z } from 'zod';

const keyid = z.string().regex(/^ed25519:[0-9a-f]{32}$/, 'must be a key id (ed25519: and 32 hex digits)');

export const sideSignatureSchema = z.object({
  /** The key whose signature over this side's evidence verified (goodput run --sign), or null: the run is not signed. */
  keyid: keyid.nullable(),
  /** The runs in the side's evidence (goodput run --repeats). */
  runs: z.number().int().positive(),
  /** The key of the signed set manifest every run of the set is signed under, or null: no signed set (a single run, or a set without its manifest). */
  setKeyid: keyid.nullable(),
  /** What of the server's own account corroborates the side's figures ("its /metrics at 4 of 4 levels"), or null. */
  server: z.string().nullable(),
});

export const runSignaturesSchema = z.object({
  baseline: sideSignatureSchema,
  optimized: sideSignatureSchema,
  /** The quality score: measured in the optimized run (and signed with it) or a standalone score file (never signed); null without a score. */
  quality: z.object({ source: z.enum(['in-run', 'file']), keyid: keyid.nullable() }).nullable(),
});

export type SideSignature = z.infer<typeof sideSignatureSchema>;
export type RunSignatures = z.infer<typeof runSignaturesSchema>;
