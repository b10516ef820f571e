/**
 * What a server said about itself when a run started (goodput run): public-safe
 * fields only. Its own file so that both a result and a quality score can carry
 * one without importing each other.
 */
import { z } from 'zod';

const accountText = z.string().max(120);
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

export const serverAccountSchema = z
  .object({
    models: z.array(z.object({ id: accountText, ownedBy: accountText.nullable(), maxModelLen: z.number().nullable() }).strict()).max(16),
    server: accountText.nullable(),
    version: accountText.nullable(),
    props: z.object({ modelFile: accountText.nullable(), contextTokens: z.number().nullable(), build: accountText.nullable() }).strict().nullable(),
    simulator: z.object({ version: accountText.nullable(), dialect: accountText.nullable(), configSha256: sha256Schema }).strict().nullable(),
  })
  .strict();

export type ServerAccount = z.infer<typeof serverAccountSchema>;
