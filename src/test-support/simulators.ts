/**
 * Simulators for a test file: `const sim = useSimulators(DEFAULTS)` registers
 * an afterEach that closes every simulator the file's tests started.
 */
import { afterEach } from 'vitest';
import { type SimServer, type SimServerOptions, startSimulator } from '../sim/index.js';

export function useSimulators(defaults: SimServerOptions = {}): (options?: SimServerOptions) => Promise<SimServer> {
  const started: SimServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const s = await startSimulator({ ...defaults, ...options });
    started.push(s);
    return s;
  };
}
