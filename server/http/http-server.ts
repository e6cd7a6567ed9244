// The node:http server every instance (and every test app) listens with, and its time limits on clients. A client
// that stalls must not hold a connection, a part buffer or a file handle for long:
// - headers: Node's own headersTimeout (from the first byte of a request to the end of its headers), checked often
//   enough that the limit holds within a fraction of itself;
// - bodies and responses: idle-based, never a total: a slow 8 MiB part or a slow download succeeds as long as bytes
//   keep moving. The clock runs only while the server waits on the client (a reader takes the request body, or a
//   response write waits for the client to read); time the server spends on its own work never counts.
// A stalled exchange is answered 408 request_timeout when nothing was sent yet, and its connection is destroyed:
// body readers see the request aborted (releasing their buffers) and a streamed download's source is destroyed
// (closing its file handle).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../../runtime-api/index.ts';
import { localeOf } from '../middleware/request-context.ts';

export interface HttpTimeouts {
  /** Longest wait for a request's headers, from its first byte (or from the connection, for its first request). */
  headersMs: number;
  /** Longest time a request body or a response may make no progress while the server waits on the client. */
  idleMs: number;
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
  progress: string;
  since: number;
}

/** Bytes the client has sent and taken: changes only when the client moves. */
function progressOf(socket: Socket): string {
  return `${socket.bytesRead}/${socket.bytesWritten - socket.writableLength}`;
}

/** The server waits on the client: a reader wants body bytes that are not coming, or a write waits to be taken. */
function waitsOnClient(x: Exchange): boolean {
  const readingBody = !x.req.complete && x.req.readableFlowing === true;
  return readingBody || x.socket.writableLength > 0;
}

function drop(x: Exchange): void {
  if (!x.res.headersSent && x.socket.writable) {
    const body = JSON.stringify(new ServiceError('request_timeout').toBody(localeOf(x.req.headers['x-service-locale'] as string | undefined)));
    x.socket.write(
      `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  x.socket.destroy();
}

function watchStalls(server: Server, idleMs: number): void {
  const open = new Set<Exchange>();
  const step = Math.max(20, Math.min(1000, Math.floor(idleMs / 5)));
  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    const now = performance.now();
    for (const x of open) {
      if (x.socket.destroyed) {
        open.delete(x);
        continue;
      }
      const progress = progressOf(x.socket);
      if (progress !== x.progress || !waitsOnClient(x)) {
        x.progress = progress;
        x.since = now;
      } else if (now - x.since >= idleMs) {
        open.delete(x);
        drop(x);
      }
    }
    if (open.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
  const track = (req: IncomingMessage, res: ServerResponse) => {
    const x: Exchange = { req, res, socket: req.socket, progress: progressOf(req.socket), since: performance.now() };
    open.add(x);
    res.once('close', () => open.delete(x));
    timer ??= setInterval(tick, step).unref();
  };
  // prependListener: tracked before the app handles it. checkContinue replaces 'request' for Expect: 100-continue.
  server.prependListener('request', track);
  server.prependListener('checkContinue', track);
}

/** A node:http server with the instance's client time limits (attach the app with serveApp). */
export function createHttpServer(timeouts: HttpTimeouts): Server {
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    // No limit on a whole request: a slow but moving part upload must finish. Stalls are caught by idleMs.
    requestTimeout: 0,
    // Node checks headersTimeout on this period; default 30 s would let a stalled header live 1.5x its limit.
    connectionsCheckingInterval: Math.max(20, Math.min(5000, Math.floor(timeouts.headersMs / 5))),
  });
  watchStalls(server, timeouts.idleMs);
  return server;
}
