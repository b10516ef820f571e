/**
 * `goodput publish --receipts FILES|DIR [--prices prices.yaml] --out DIR`: the
 * static public site. The flags go to publish's publishReceipts, which
 * recomputes every receipt and puts the whole set through the provenance
 * gate; any problem or violation is listed, one per line, and nothing is
 * written.
 */
import type { Command } from 'commander';
import { KEY_FILE_BYTES, PublishRefused, publishReceipts, readBounded } from '../publish/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { signingKey } from './keys-command.js';
import { siteVersionsFile } from './verify-command.js';

export interface PublishFlags {
  receipts: string[];
  prices?: string;
  site?: string;
  out: string;
  key?: string;
  sign?: boolean;
  previous?: string;
  stateDir?: string;
  measurerKey?: string[];
  requireSigned?: boolean;
}

/** Each --measurer-key file's text: a public key, bounded like every key file (the key itself is checked where the site is built). */
async function measurerKeys(files: readonly string[] | undefined): Promise<Array<{ name: string; pem: string }>> {
  const out: Array<{ name: string; pem: string }> = [];
  for (const file of files ?? []) {
    const read = await readBounded(file, KEY_FILE_BYTES);
    if (!read.ok) throw new CliError(EXIT.usage, `--measurer-key: ${file} ${read.problem}`);
    out.push({ name: `--measurer-key: ${file}`, pem: read.bytes.toString('utf8') });
  }
  return out;
}

/** --previous: the newest site version the key signed before, a whole number. */
function previousOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text))
    throw new CliError(EXIT.usage, `--previous: ${JSON.stringify(text.slice(0, 40))} is not a site version (a whole number, 0 or more)`);
  return Number(text);
}

export async function publishFromFlags(f: PublishFlags, today = new Date().toISOString().slice(0, 10)): Promise<string[]> {
  const signs = f.key !== undefined || f.sign === true;
  const previous = previousOf(f.previous);
  if (previous !== undefined && !signs) throw new CliError(EXIT.usage, '--previous: only a signed site carries a version; add --sign or --key');
  if (f.requireSigned === true && (f.measurerKey ?? []).length === 0)
    throw new CliError(EXIT.usage, '--require-signed: name the measurer keys whose signatures count with --measurer-key FILE.pub');
  const measurers = await measurerKeys(f.measurerKey);
  try {
    return await publishReceipts({
      receipts: f.receipts,
      prices: f.prices,
      site: f.site,
      out: f.out,
      today,
      ...(measurers.length === 0 ? {} : { measurerKeys: measurers }),
      ...(f.requireSigned === true ? { requireSigned: true } : {}),
      ...(signs
        ? {
            signer: () => signingKey(f.key === undefined ? '--sign' : '--key', f.key),
            versions: siteVersionsFile(f.stateDir),
            ...(previous === undefined ? {} : { previous }),
          }
        : {}),
    });
  } catch (err) {
    if (err instanceof PublishRefused) throw new CliError(EXIT.usage, err.message);
    throw err;
  }
}

export function registerPublishCommand(program: Command): void {
  program
    .command('publish')
    .description('publish receipts as a static site (index, one page per receipt, dataset.json, share images) behind the provenance gate')
    .requiredOption('--receipts <paths...>', 'receipt files (goodput receipt create) or directories of them')
    .option('--prices <file>', 'rented list prices, YAML or JSON (see examples/prices.yaml)')
    .option('--site <file>', "your statements of what the site does not claim, YAML or JSON (see examples/site.yaml); default goodput's own")
    .requiredOption('--out <dir>', 'the site directory (replaced whole, only when everything passes)')
    .option('--sign', "sign the site's manifest with the data folder's publisher key (goodput keys create)")
    .option('--key <file>', 'sign with this Ed25519 private key file instead')
    .option('--previous <n>', "the newest site version this key signed before, when neither --out's site nor this machine's state holds it")
    .option('--state-dir <dir>', 'where the newest site version per key is kept (default: GOODPUT_STATE_DIR, or ~/.local/state/goodput)')
    .option(
      '--measurer-key <file...>',
      "a measurer's Ed25519 public key (goodput keys create writes one); repeatable: the site lists them, and a run signed by one stands as signed",
    )
    .option('--require-signed', 'refuse any run or quality score not signed by a listed measurer key')
    .action(async (f: PublishFlags) => {
      const files = await publishFromFlags(f);
      process.stdout.write(`published ${files.length} files to ${f.out}: ${files.join(', ')}\n`);
    });
}
