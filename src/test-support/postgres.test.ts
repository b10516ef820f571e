/** The PostgreSQL harness fails loudly when PostgreSQL cannot start: the store suite must never skip silently. */
import { describe, expect, it } from 'vitest';
import { startTestPostgres } from './postgres.js';

describe('test PostgreSQL', () => {
  it('refuses with a message naming what is missing when the binaries are not there', async () => {
    const saved = process.env['GOODPUT_PG_BIN'];
    process.env['GOODPUT_PG_BIN'] = '/nonexistent/postgresql/bin';
    try {
      await expect(startTestPostgres()).rejects.toThrow(/could not start the test PostgreSQL: .*\/nonexistent\/postgresql\/bin\/initdb/);
    } finally {
      if (saved === undefined) delete process.env['GOODPUT_PG_BIN'];
      else process.env['GOODPUT_PG_BIN'] = saved;
    }
  });
  it('starts on a free loopback port, creates databases, and stops', async () => {
    const pg = await startTestPostgres();
    try {
      expect(pg.url).toMatch(/^postgres:\/\/goodput@127\.0\.0\.1:\d+\/postgres$/);
      expect(await pg.createDatabase()).toMatch(/\/t\d+_1$/);
    } finally {
      pg.stop();
    }
  });
});
