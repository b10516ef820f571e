// The defaults core's settings table cites for the simulator are the ones its
// profile applies: a flag's default changed in one place fails here.
import { describe, expect, it } from 'vitest';
import { settingsOf } from '../core/index.js';
import { simProfileSchema } from './profile-schema.js';

describe("the simulator's documented defaults", () => {
  it('match the profile with every default applied', () => {
    const profile = simProfileSchema.parse({}) as unknown as Record<string, unknown>;
    const sim = settingsOf('goodput-sim');
    expect(sim.length).toBeGreaterThan(5);
    for (const s of sim) {
      const value = profile[s.name.replace(/^profile\./, '')];
      expect(value, s.name).toBeDefined();
      if (s.default !== null) expect(value, s.name).toBe(s.default);
    }
  });
});
