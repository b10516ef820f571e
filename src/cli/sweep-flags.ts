/**
 * The sweep's flags as commander hands them over (strings as typed, switches
 * as booleans), their names and types read from the option catalogue: an
 * option declared there is a field here with no other edit. A flag with a
 * default (or required) is always present; one without, or whose absence
 * means something, may be missing.
 */
import type { DeclaredOption, OptionGroup } from '../core/index.js';
import type { SaveFlags } from './save-run.js';

/** 'output-tokens' → 'outputTokens', as commander names a flag's key (core's optionKey). */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type KeyOf<Flag extends string> = Flag extends `--no-${infer Name}` ? Camel<Name> : Flag extends `--${infer Name}` ? Camel<Name> : never;
type ValueOf<O extends DeclaredOption> = O['value']['type'] extends 'switch' ? boolean : O['value']['type'] extends 'repeat' ? string[] : string;
/** Present whatever was typed: required, held by commander as a default, or a `--no-` switch (on unless turned off). */
type Present<O> = O extends { required: true }
  ? true
  : O extends { unset: true }
    ? false
    : O extends { default: string }
      ? true
      : O extends { flag: `--no-${string}` }
        ? true
        : false;

/** The flags of a group of the catalogue, keyed as commander keys them. */
export type FlagsOf<G extends OptionGroup> = {
  [O in Extract<DeclaredOption, { group: G }> as Present<O> extends true ? KeyOf<O['flag']> : never]: ValueOf<O>;
} & { [O in Extract<DeclaredOption, { group: G }> as Present<O> extends true ? never : KeyOf<O['flag']>]?: ValueOf<O> };

/** Read with their own default when absent, so a command that builds these flags itself (demo, replay) may leave them out. */
type ReaderDefaults = 'tokenizer' | 'toolChoice' | 'schemaControl' | 'maxSpend' | 'retry' | 'retryMaxWaitS' | 'traceparent';

/** The flags every sweep-like command takes (sweep, demo, replay, sessions), with the store's. */
export type SweepFlags = Omit<FlagsOf<'sweep'>, ReaderDefaults> & Partial<Pick<FlagsOf<'sweep'>, ReaderDefaults>> & SaveFlags;
/** How many inputs or documents one request carries, the rerank query's length, the latency objective, the route. */
export type PoolingFlags = FlagsOf<'pooling'>;
