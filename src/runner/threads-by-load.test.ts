import { describe, expect, it } from 'vitest';
import { threadsFor } from './client-threads.js';

describe('client threads of a level', () => {
  it('auto takes the cores, never more for a bigger burst (measured slower), never more than the streams', () => {
    expect(threadsFor('auto', 1, 2)).toBe(1);
    expect(threadsFor('auto', 100, 2)).toBe(2);
    expect(threadsFor('auto', 4096, 2)).toBe(2);
    expect(threadsFor('auto', 4096, 16)).toBe(16);
  });

  it("an asked number is kept, never more than the level's streams", () => {
    expect(threadsFor(8, 1024, 2)).toBe(8);
    expect(threadsFor(8, 3, 2)).toBe(3);
    expect(threadsFor(1, 4096, 2)).toBe(1);
  });
});
