/**
 * The command line read from the option catalogue (core's RUN_OPTIONS): the
 * commander flags of a group, a flag's text read by its declared type and
 * bounds, and docs/cli.md's flag table. No flag's name, default or bound is
 * written here: adding an option to the catalogue adds it to --help and the doc.
 */
import { type Command, Option } from 'commander';
import {
  type OptionGroup,
  type ParsedOptionKey,
  type ParsedValue,
  RUN_OPTIONS,
  type RunOption,
  optionKey,
  parseOptionText,
  runOption,
  secondsOf,
} from '../core/index.js';
import { ENGINE_CHOICES } from '../client/index.js';
import { GPU_SOURCE_CHOICES } from '../telemetry/index.js';
import { badFlag, parseNumber } from './parse-flags.js';

/** The lists help texts name, kept where they are defined. */
const HELP_LISTS: Readonly<Record<string, string>> = {
  engines: ENGINE_CHOICES.filter((c) => c !== 'auto').join(', '),
  gpuSources: GPU_SOURCE_CHOICES.join(', '),
};

/** An option's --help text: `{default}` and the named lists filled in. */
export function helpText(o: RunOption): string {
  return o.help.replace(/\{(\w+)\}/g, (whole, name: string) => (name === 'default' ? (o.default ?? whole) : (HELP_LISTS[name] ?? whole)));
}

function commanderOption(o: RunOption): Option {
  const opt = new Option(o.arg === undefined ? o.flag : `${o.flag} ${o.arg}`, helpText(o));
  if (o.value.type === 'choice' && o.value.strict) opt.choices(o.value.choices);
  if (o.value.type === 'repeat') opt.argParser((value: string, given: string[] | undefined) => [...(given ?? []), value]);
  if (o.default !== undefined && !o.unset) opt.default(o.default);
  if (o.required) opt.makeOptionMandatory();
  return opt;
}

/** Adds the catalogue's options of `group` to a command, in catalogue order; `skip` leaves flags out (demo has no --url). */
export function addRunOptions(cmd: Command, group: OptionGroup, skip: readonly string[] = [], options: readonly RunOption[] = RUN_OPTIONS): Command {
  for (const o of options) if (o.group === group && !skip.includes(o.flag)) cmd.addOption(commanderOption(o));
  return cmd;
}

/** The text of the flag stored under `key`, read as the catalogue declares its value: a CliError naming the flag otherwise. */
export function flagNumber(key: string, text: string): number {
  const o = runOption(key);
  if (o.value.type !== 'number') throw new Error(`${o.flag} is not a number flag`);
  const v = o.value;
  return parseNumber(o.flag, text, {
    ...(v.integer ? { integer: true } : {}),
    ...(v.min === undefined ? {} : { min: v.min }),
    ...(v.exclusiveMin ? { exclusiveMin: true } : {}),
    ...(v.max === undefined ? {} : { max: v.max }),
    ...(v.limit ? { limit: v.limit } : {}),
  });
}

/** A flag whose text has its own grammar (`--rate-limit`, `--lora`), read by the parser the API reads it with: a CliError naming the flag otherwise. */
export function flagParsed<K extends ParsedOptionKey>(key: K, text: string): ParsedValue<K> {
  const read = parseOptionText(key, text);
  if (!read.ok) throw badFlag(runOption(key).flag, read.message);
  return read.value;
}

/** A time flag (`60s`, `2m`, `1h` or seconds) → seconds above 0 within its limits row: a CliError naming the flag otherwise. */
export function flagSeconds(key: string, text: string): number {
  const o = runOption(key);
  if (o.value.type !== 'seconds') throw new Error(`${o.flag} is not a time flag`);
  const read = secondsOf(text, o.value.limit);
  if ('problem' in read) throw badFlag(o.flag, read.problem);
  return read.seconds;
}

/** A number flag that also takes 'auto'. */
export function flagNumberOrAuto(key: string, text: string): number | 'auto' {
  return text === 'auto' ? 'auto' : flagNumber(key, text);
}

/** An optional flag: its text read, or its declared default when it was not given. */
export function flagNumberOr(key: string, text: string | undefined): number {
  return flagNumber(key, text ?? runOption(key).default ?? '');
}

/** `--retry` (a count or off) and `--retry-max-wait-s` → the retry policy a spec holds, or a CliError naming the flag. */
export function retryFromFlags(f: { retry?: string | undefined; retryMaxWaitS?: string | undefined }): { retries: number; maxWaitMs: number } {
  return { retries: f.retry === 'off' ? 0 : flagNumberOr('retry', f.retry), maxWaitMs: flagNumberOr('retryMaxWaitS', f.retryMaxWaitS) * 1000 };
}

/** "50,90,99" → [50, 90, 99]: each above 0 and at most 100, at most 20 of them, ascending as given. */
export function parsePercentiles(flag: string, text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) throw badFlag(flag, 'give at least one percentile, e.g. 50,90,99');
  if (items.length > 20) throw badFlag(flag, `${items.length} percentiles is more than 20`);
  return items.map((s) => {
    const p = Number(s);
    if (s === '' || !Number.isFinite(p) || p <= 0 || p > 100) throw badFlag(flag, `'${s}' is not a percentile above 0 and at most 100 (e.g. 50,90,99)`);
    return p;
  });
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** docs/cli.md's placeholder: a strict choice lists its values. */
function docFlag(o: RunOption): string {
  const arg = o.doc?.arg ?? (o.value.type === 'choice' && o.value.strict ? `<${o.value.choices.join('|')}>` : o.arg);
  return `\`${cell(arg === undefined ? o.flag : `${o.flag} ${arg}`)}\``;
}

function docDefault(o: RunOption): string {
  if (o.doc?.default !== undefined) return o.doc.default;
  if (o.required) return 'required';
  return o.default === undefined ? 'none' : `\`${o.default}\``;
}

/** The flag table of docs/cli.md: one row per flag, in catalogue order (a start body field with no flag has none). */
export function cliFlagTable(options: readonly RunOption[] = RUN_OPTIONS): string {
  const rows = options.filter((o) => o.group !== 'body').map((o) => `| ${docFlag(o)} | ${docDefault(o)} | ${o.doc?.meaning ?? cell(helpText(o))} |`);
  return ['| flag | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

export const FLAG_TABLE_BEGIN = '<!-- flag table: generated from src/core/run-options.ts by `npm run docs:cli`; do not edit by hand -->';
export const FLAG_TABLE_END = '<!-- end of flag table -->';

/** `doc` with its flag table replaced by `table`; throws when the markers are missing. */
export function withFlagTable(doc: string, table: string): string {
  const begin = doc.indexOf(FLAG_TABLE_BEGIN);
  const end = doc.indexOf(FLAG_TABLE_END);
  if (begin < 0 || end < begin) throw new Error('docs/cli.md has no flag table markers');
  return `${doc.slice(0, begin + FLAG_TABLE_BEGIN.length)}\n${table}\n${doc.slice(end)}`;
}

/** Keys of the group's options (commander's), for refusing flags a kind of run has no use for. */
export function groupKeys(group: OptionGroup): Array<{ key: string; flag: string }> {
  return RUN_OPTIONS.filter((o) => o.group === group).map((o) => ({ key: optionKey(o), flag: o.flag }));
}
