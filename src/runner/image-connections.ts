/**
 * Who may hold goodput's image server's connections. Any process that can reach
 * it can open connections and send nothing: held long enough, they would take
 * every slot and the model server's fetches would be refused (blamed on it). So
 * a connection must send its request's headers within a short deadline; a peer
 * may hold only a few connections that have not yet; and when every slot is
 * taken, the oldest connection still waiting (or idle between requests) makes
 * way for the new one. A fetching engine sends its headers at once, so only
 * connections that sit silent are ever closed.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Connections open at once: an engine fetches a batch's images in parallel, a stray client cannot hold more. */
export const IMAGE_SERVER_CONNECTIONS = 256;
/** A connection that has not sent a whole request's headers by then is closed, ms. */
export const IMAGE_HEADERS_DEADLINE_MS = 2000;
/** Connections one peer address may hold waiting for their headers (a batch's parallel fetches fit). */
export const IMAGE_PEER_WAITING = 64;

/** What the guard closed, so a level's failed fetches can be put down to the image server, not the model server. */
export interface ConnectionsClosed {
  /** Connections closed for sending no request within the deadline. */
  silent: number;
  /** Waiting or idle connections closed to make way for a new one (their peer held too many, or every slot was taken). */
  evicted: number;
}

interface Held {
  peer: string;
  waiting: boolean;
  timer: NodeJS.Timeout | null;
}

/** Guards `server`'s connections; returns the counts of what it closed (live). */
export function guardConnections(server: Server): ConnectionsClosed {
  const closed: ConnectionsClosed = { silent: 0, evicted: 0 };
  // A Map keeps insertion order: the first waiting entry is the oldest.
  const held = new Map<Socket, Held>();
  const wait = (socket: Socket, h: Held) => {
    h.waiting = true;
    if (h.timer !== null) clearTimeout(h.timer);
    h.timer = setTimeout(() => {
      closed.silent++;
      socket.destroy();
    }, IMAGE_HEADERS_DEADLINE_MS);
    h.timer.unref();
  };
  const evictOldest = (peer: string | null): boolean => {
    for (const [socket, h] of held) {
      if (h.waiting && (peer === null || h.peer === peer)) {
        closed.evicted++;
        held.delete(socket);
        if (h.timer !== null) clearTimeout(h.timer);
        socket.destroy();
        return true;
      }
    }
    return false;
  };
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    let waitingFromPeer = 0;
    for (const h of held.values()) if (h.waiting && h.peer === peer) waitingFromPeer++;
    if (waitingFromPeer >= IMAGE_PEER_WAITING) evictOldest(peer);
    if (held.size >= IMAGE_SERVER_CONNECTIONS && !evictOldest(null)) {
      closed.evicted++;
      socket.destroy();
      return;
    }
    const h: Held = { peer, waiting: true, timer: null };
    held.set(socket, h);
    wait(socket, h);
    socket.once('close', () => {
      if (h.timer !== null) clearTimeout(h.timer);
      held.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    const h = held.get(req.socket);
    if (h === undefined) return;
    h.waiting = false;
    if (h.timer !== null) clearTimeout(h.timer);
    h.timer = null;
    // Between requests a kept-alive connection waits again: for its next headers, and to be evicted first.
    res.once('finish', () => {
      if (held.get(req.socket) === h) wait(req.socket, h);
    });
  });
  return closed;
}

/**
 * The level's warning when the image server closed connections: a fetch that failed then
 * failed at goodput's image server (held by someone else), not at the model server.
 */
export function imageServerWarning(concurrency: number, closed: number, failed: number): { code: string; message: string } {
  const failures =
    failed > 0
      ? `; the level's ${failed} failed request${failed === 1 ? '' : 's'} may have failed fetching an image from it, which is not the model server's doing`
      : '';
  return {
    code: 'image-server-contended',
    message: `concurrency ${concurrency}: goodput's image server closed ${closed} connection${closed === 1 ? '' : 's'} that sent no request within ${IMAGE_HEADERS_DEADLINE_MS / 1000} s or made way for others: another process on this machine may be holding it${failures}`,
  };
}
