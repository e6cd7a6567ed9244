// Attaching the Koa app to a node:http server, with `Expect: 100-continue` honoured: the 100 goes out only when
// something starts reading the body, so a request refused before that (401, 415, 404...) is answered at once and
// the client never sends the body it would have had to push into a closing connection.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Koa from 'koa';

const READS = new Set(['read', 'resume', 'pipe']);
const READ_EVENTS = new Set(['data', 'readable', 'end']);

function continueOnFirstRead(req: IncomingMessage, res: ServerResponse): void {
  let sent = false;
  const send = () => {
    if (sent || res.headersSent) return;
    sent = true;
    res.writeContinue();
  };
  const target = req as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['read', 'resume', 'pipe', 'on', 'once', 'addListener']) {
    const original = target[method];
    target[method] = function (this: unknown, ...args: unknown[]) {
      if (READS.has(method) || READ_EVENTS.has(args[0] as string)) send();
      return original.apply(this, args);
    };
  }
  // Answered without asking for the body: the client will not send it, so the connection cannot be reused.
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!sent) this.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

export function serveApp(server: Server, app: Koa): void {
  const handle = app.callback();
  server.on('request', handle);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueOnFirstRead(req, res);
    void handle(req, res);
  });
}
