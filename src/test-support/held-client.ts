/** A sweep's client whose every send waits `holdMs` before it starts: send lateness injected without blocking the event loop. */
import { type StreamingClient, createStreamingClient } from '../client/index.js';
import type { SweepDeps } from '../runner/index.js';

export const heldClient =
  (url: string, holdMs: number): NonNullable<SweepDeps['client']> =>
  (_spec, connections, dialect) => {
    const real = createStreamingClient({ baseUrl: url }, { connections, dialect });
    const held: StreamingClient = {
      ...real,
      send: async (req, meta, signal) => {
        await new Promise((r) => setTimeout(r, holdMs));
        return real.send(req, meta, signal);
      },
    };
    return held;
  };
