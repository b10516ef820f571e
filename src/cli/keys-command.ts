/**
 * `goodput keys create [--dir DIR]`: the publisher's Ed25519 key pair, which
 * `goodput publish --sign` signs a site's manifest with and `goodput run
 * --sign` signs a result with. The private key is written 0600 and never
 * replaced (a lost key is a new identity, not an overwrite); the public key
 * and its id are what readers pin (`goodput verify --key-id`).
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { KeyObject } from 'node:crypto';
import { LIMITS } from '../core/index.js';
import { FileRefusal, readRegularFile } from '../files/index.js';
import { KEY_FILE_BYTES, checkSignedResult, keyIdOf, newKeyPair, parseKey, readBounded } from '../publish/index.js';
import { goodputHome } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';

export const PRIVATE_KEY_FILE = 'publisher.key';
export const PUBLIC_KEY_FILE = 'publisher.pub';

/** The folder keys live in: --dir, or `keys` in the data folder (~/.goodput, or GOODPUT_HOME). */
export const keysDir = (dir?: string): string => dir ?? join(goodputHome(), 'keys');

export async function createKeys(dir?: string): Promise<{ keyId: string; privatePath: string; publicPath: string }> {
  const folder = keysDir(dir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const pair = newKeyPair();
  const privatePath = join(folder, PRIVATE_KEY_FILE);
  const publicPath = join(folder, PUBLIC_KEY_FILE);
  try {
    // 'wx': never replace a key; mode 0600 from the first byte, and again in case the umask widened it.
    await writeFile(privatePath, pair.privatePem, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CliError(EXIT.usage, `keys: ${privatePath} already exists; a publisher key is never replaced (move it away first, or give --dir)`);
    throw new CliError(EXIT.usage, `keys: cannot write ${privatePath} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  await chmod(privatePath, 0o600);
  await writeFile(publicPath, pair.publicPem, { mode: 0o644 });
  return { keyId: pair.keyId, privatePath, publicPath };
}

/** The signing key for `--key FILE`, or the data folder's when `--sign` is given alone. */
export async function signingKey(flag: string, file: string | undefined): Promise<KeyObject> {
  const path = file ?? join(keysDir(), PRIVATE_KEY_FILE);
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, { bytes: KEY_FILE_BYTES, what: 'bytes expected' }, { secret: true });
  } catch (err) {
    if (!(err instanceof FileRefusal)) throw err;
    throw new CliError(
      EXIT.usage,
      `${flag}: ${path} ${err.detail}${file === undefined && err.code === 'ENOENT' ? ' (make one with goodput keys create)' : ''}`,
    );
  }
  const key = parseKey(bytes.toString('utf8'), 'private');
  if (!key.ok) throw new CliError(EXIT.usage, `${flag}: ${path} ${key.problem}`);
  return key.key;
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('the publisher key that signs results and published sites');
  keys
    .command('create')
    .description('make an Ed25519 key pair (private key 0600) in the data folder; print its id')
    .option('--dir <dir>', 'where to write publisher.key and publisher.pub (default: ~/.goodput/keys, or GOODPUT_HOME/keys)')
    .action(async (f: { dir?: string }) => {
      const k = await createKeys(f.dir);
      process.stdout.write(
        `created key ${k.keyId}\n  private: ${k.privatePath} (0600; keep it secret)\n  public:  ${k.publicPath} (give it to readers: goodput verify SITE --key ${PUBLIC_KEY_FILE})\n`,
      );
    });
  keys
    .command('verify-result')
    .description('check a result signed by goodput run --sign (FILE.dsse.json beside it) against the key you trust')
    .argument('<result.json>', 'the result file')
    .requiredOption('--key <file>', "the signer's public key (PEM) you trust")
    .action(async (file: string, f: { key: string }) => {
      const pub = await readBounded(f.key, KEY_FILE_BYTES);
      const key = pub.ok ? parseKey(pub.bytes.toString('utf8'), 'public') : { ok: false as const, problem: pub.problem };
      if (!key.ok) throw new CliError(EXIT.usage, `--key: ${f.key} ${key.problem}`);
      const bytes = await readBounded(file, LIMITS.inputFileBytes.max);
      if (!bytes.ok) throw new CliError(EXIT.usage, `${file} ${bytes.problem}`);
      const env = await readBounded(`${file}.dsse.json`, KEY_FILE_BYTES * 4);
      if (!env.ok) throw new CliError(EXIT.usage, `${file}.dsse.json ${env.problem} (sign results with goodput run --sign)`);
      const checked = checkSignedResult(bytes.bytes, env.bytes.toString('utf8'), { key: key.key });
      if (!checked.ok) throw new CliError(EXIT.usage, `${file}.dsse.json: ${checked.problem} [rule: signature]`);
      process.stdout.write(`${file}: signed by ${checked.keyId}, the key you trust\n`);
    });
  keys
    .command('show')
    .description("print the id of the data folder's key (or --dir's)")
    .option('--dir <dir>', 'the keys folder')
    .action(async (f: { dir?: string }) => {
      const key = await signingKey('keys', join(keysDir(f.dir), PRIVATE_KEY_FILE));
      process.stdout.write(`${keyIdOf(key)}\n`);
    });
}
