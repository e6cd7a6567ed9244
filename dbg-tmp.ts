import { createEngine } from './engine/index.ts';
import { loadConfig } from './server/config.ts';
const config = { ...loadConfig({}).engine, queueMax: 32, onHostCrash: (d: unknown) => console.log('died', d) };
const t0 = performance.now();
const pool = createEngine(config);
const inProcess = createEngine({ ...config, hosts: 0 });
await Promise.all([pool.ready(), inProcess.ready()]);
console.log('ready', (performance.now() - t0).toFixed(0), JSON.stringify(pool.stats()));
let lag = 0; let last = performance.now();
const iv = setInterval(() => { const now = performance.now(); lag = Math.max(lag, now - last - 50); last = now; }, 50);
const hostCall = async () => ({ ok: true as const, json: '{"files":[]}' });
for (let round = 0; round < 6; round++) {
  const t = performance.now(); let n = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { while (performance.now() - t < 1000) { const r = await pool.execute({ source: 'return 1+1', bindings: [], hostCall }); if (!r.ok) console.log(r.error); n++; } }));
  console.log('round', round, n, 'maxlag', lag.toFixed(0), JSON.stringify(pool.stats().slots)); lag = 0;
}
clearInterval(iv);
await pool.close(); await inProcess.close();
