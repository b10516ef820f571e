/**
 * `goodput publish --receipts FILES|DIR [--prices prices.yaml] --out DIR`: the
 * static public site. The flags go to publish's publishReceipts, which
 * recomputes every receipt and puts the whole set through the provenance
 * gate; any problem or violation is listed, one per line, and nothing is
 * written.
 */
import type { Command } from 'commander';
import { PublishRefused, publishReceipts } from '../publish/index.js';
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
  try {
    return await publishReceipts({
      receipts: f.receipts,
      prices: f.prices,
      site: f.site,
      out: f.out,
      today,
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
    .action(async (f: PublishFlags) => {
      const files = await publishFromFlags(f);
      process.stdout.write(`published ${files.length} files to ${f.out}: ${files.join(', ')}\n`);
    });
}
