/**
 * What a server said about itself when a run started (goodput run): public-safe
 * fields only. Its own file so that both a result and a quality score can carry
 * one without importing each other.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

const accountText = z.string().max(120);
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

/** A setting's own name in the server's answer: a dotted path (`default_generation_settings.n_ctx`). */
const settingName = z.string().regex(/^[A-Za-z_][\w.]{0,79}$/, 'must be a dotted name of letters, digits and underscores');

/** One setting as the server reported it: its own name and its value (a finite number, a flag or short printable text). */
export const serverSettingSchema = z.object({ name: settingName, value: z.union([z.number().finite(), z.boolean(), accountText]) }).strict();

/**
 * The server's configuration as it reported it when the run started: whose
 * names they are (`llamacpp`, `sglang`, `tgi`, `vllm`, `goodput-sim`), the route
 * they came from, and the settings; or none and why (`note`). Absent in results
 * written before configurations were recorded.
 */
export const serverConfigurationSchema = z
  .object({
    engine: accountText.nullable(),
    source: accountText.nullable(),
    settings: z.array(serverSettingSchema).max(LIMITS.serverSettings.max),
    note: accountText.nullable(),
  })
  .strict();

export const serverAccountSchema = z
  .object({
    models: z.array(z.object({ id: accountText, ownedBy: accountText.nullable(), maxModelLen: z.number().nullable() }).strict()).max(16),
    server: accountText.nullable(),
    version: accountText.nullable(),
    props: z.object({ modelFile: accountText.nullable(), contextTokens: z.number().nullable(), build: accountText.nullable() }).strict().nullable(),
    simulator: z.object({ version: accountText.nullable(), dialect: accountText.nullable(), configSha256: sha256Schema }).strict().nullable(),
    configuration: serverConfigurationSchema.optional(),
  })
  .strict();

export type ServerAccount = z.infer<typeof serverAccountSchema>;
export type ServerConfiguration = z.infer<typeof serverConfigurationSchema>;
export type ServerSetting = z.infer<typeof serverSettingSchema>;
