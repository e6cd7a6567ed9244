// A loopback HTTP proxy that adds `Authorization: Bearer <token>` to every request and forwards it otherwise
// unchanged (method, path, Host, Origin, body), for third-party tools that cannot send a token themselves (the MCP
// conformance runner). The service behind it sees exactly what the tool sent, plus the token.
import { createServer, request, type Server } from 'node:http';
import type { Test } from 'tap';

export interface BearerProxy {
  url: string;
  origin: string;
  target(url: string, token: string): void;
}

export async function startBearerProxy(t: Test): Promise<BearerProxy> {
  let to: { url: URL; token: string } | null = null;
  const server: Server = createServer((req, res) => {
    if (!to) {
      res.writeHead(503).end();
      return;
    }
    const upstream = request(
      {
        host: to.url.hostname,
        port: to.url.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${to.token}` },
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: origin,
    origin,
    target(url, token) {
      to = { url: new URL(url), token };
    },
  };
}
