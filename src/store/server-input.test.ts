import { describe, expect, it } from 'vitest';
import { serverInputSchema } from './server-input.js';

describe('serverInputSchema name', () => {
  it('refuses a name of digits only, naming the field, since it would read as a server id', () => {
    const r = serverInputSchema.safeParse({ name: '42', baseUrl: 'http://127.0.0.1:1' });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ path: ['name'], message: 'name must contain a letter or symbol, not only digits: it would read as a server id' }),
    ]);
  });
  it('accepts names with a digit and a letter or symbol', () => {
    for (const name of ['gpu42', '4090-box', '1.5', 'a']) expect(serverInputSchema.safeParse({ name, baseUrl: 'http://127.0.0.1:1' }).success).toBe(true);
  });
});
