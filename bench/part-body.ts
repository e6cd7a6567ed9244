// bench/part-body.ts: why part uploads do not go through koa-body. The same 8 MiB parts (4 in flight) are received
// over loopback by two Koa routes in this process: the part route's own reader (server/routes/transfers/part-body.ts: raw
// chunks copied into one preallocated buffer) and koa-body, whose only way to hand over bytes it does not parse is
// a text body decoded as latin1 and turned back into a Buffer. Figures: MiB/s and the process's peak RSS (each
// strategy runs in its own process; the shared part buffers are outside V8's heap counts, so only RSS sees them). Absolute numbers depend on the machine; the ratio is the point.
//   npm run bench -- part-body          (BENCH_PARTS=64)
import { createServer, type Server } from 'node:http';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { Agent, request } from 'undici';
import { bufferPool } from '../server/routes/transfers/buffer-pool.ts';
import { readBody } from '../server/routes/transfers/part-body.ts';

const SELF = fileURLToPath(import.meta.url);
const MiB = 1024 * 1024;
const PART = 8 * MiB;
const PARTS = Number(process.env.BENCH_PARTS ?? 64);
const IN_FLIGHT = 4;

interface Received {
  length: number;
  first: number;
  last: number;
}
type Receive = (ctx: Koa.Context) => Promise<Received>;

const summary = (bytes: Buffer): Received => ({ length: bytes.length, first: bytes[0], last: bytes[bytes.length - 1] });

/** The route's own pool of reusable part buffers, one per part in flight. */
const streamed = (): Receive => {
  const pool = bufferPool(IN_FLIGHT);
  return async (ctx) => {
    const buf = await pool.acquire();
    try {
      const got = await readBody(ctx.req, buf, PART);
      return summary(buf.subarray(0, got.length));
    } finally {
      pool.release(buf);
    }
  };
};

const viaKoaBody = (): Receive => {
  const parse = koaBody({ json: false, urlencoded: false, text: true, textTypes: ['application/octet-stream'], textLimit: PART, encoding: 'latin1' });
  return async (ctx) => {
    await parse(ctx as never, async () => {});
    return summary(Buffer.from((ctx.request as { body?: string }).body ?? '', 'latin1'));
  };
};

async function serve(receive: Receive): Promise<{ server: Server; url: string }> {
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.body = await receive(ctx);
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` };
}

async function run(name: string, receive: Receive, body: Buffer): Promise<{ name: string; mibPerSec: number; peakMiB: number }> {
  const { server, url } = await serve(receive);
  const dispatcher = new Agent({ connections: IN_FLIGHT });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < PARTS) {
        next++;
        const res = await request(url, { method: 'PUT', body, dispatcher, headers: { 'content-type': 'application/octet-stream' } });
        const answer = (await res.body.json()) as Received;
        if (answer.length !== PART || answer.first !== body[0] || answer.last !== body[PART - 1]) throw new Error(`${name}: bytes differ`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  await new Promise((resolve) => server.close(resolve));
  return { name, mibPerSec: (PARTS * PART) / MiB / seconds, peakMiB: process.resourceUsage().maxRSS / 1024 };
}

const STRATEGIES: Record<string, [string, () => Receive]> = {
  stream: ['part route reader (raw chunks → pooled 8 MiB buffers)', streamed],
  koabody: ['koa-body (latin1 text → Buffer)', viaKoaBody],
};

/** One strategy in a fresh process (so one's resident memory does not hide the other's): warmed once, then measured. */
function measure(strategy: string): Promise<{ name: string; mibPerSec: number; peakMiB: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, [strategy], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as { name: string; mibPerSec: number; peakMiB: number }));
    child.once('exit', (code) => code === 0 || reject(new Error(`${strategy}: exit ${code}`)));
  });
}

export async function main(): Promise<void> {
  const rows = [await measure('stream'), await measure('koabody')];
  console.log(`| ${PARTS} parts of 8 MiB, ${IN_FLIGHT} in flight | MiB/s | peak RSS MiB |`);
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.mibPerSec.toFixed(0)} | ${r.peakMiB.toFixed(0)} |`);
  console.log(
    `ratio: part reader ${(rows[0].mibPerSec / rows[1].mibPerSec).toFixed(2)}× the throughput, peak RSS ${rows[0].peakMiB.toFixed(0)} vs ${rows[1].peakMiB.toFixed(0)} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const strategy = STRATEGIES[process.argv[2] ?? ''];
  if (strategy) {
    const body = randomBytes(PART);
    await run('warm', strategy[1](), body);
    process.send!(await run(strategy[0], strategy[1](), body));
    process.disconnect();
  } else await main();
}
