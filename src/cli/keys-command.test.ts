// A private key signs only from the user's own file that no one else can read, as ssh insists.
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeys, signingKey } from './keys-command.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('signingKey', () => {
  it('signs with a 0600 key of the user, and refuses one readable by others, naming the mode', async () => {
    const { privatePath } = await createKeys(join(dir, 'open'));
    await expect(signingKey('--key', privatePath)).resolves.toBeDefined();
    for (const mode of [0o644, 0o640, 0o604]) {
      chmodSync(privatePath, mode);
      await expect(signingKey('--key', privatePath)).rejects.toThrow(
        new RegExp(`--key: .*publisher\\.key has mode 0${mode.toString(8)}, open to other users; a private key must be 0600`),
      );
    }
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a 0600 key owned by another user (run as root, which can chown)', async () => {
    const { privatePath } = await createKeys(join(dir, 'theirs'));
    chownSync(privatePath, 4242, 4242);
    await expect(signingKey('--key', privatePath)).rejects.toThrow(/publisher\.key is owned by user 4242, not by you \(0\)/);
  });
});
