import { loadAskIndex } from '../server/ask/load.ts';
import { loadQueries } from '../server/ask/relevance.ts';
const index = (await loadAskIndex())!;
const qs = await loadQueries('fixtures/site/queries.json');
for (let r = 0; r < 20; r++) for (const q of qs) index.search({ text: q.text });
const times = qs.map(q => { const t0 = performance.now(); for (let i = 0; i < 50; i++) index.search({ text: q.text }); return [(performance.now() - t0) / 50, q.text] as const; });
times.sort((a, b) => b[0] - a[0]);
console.log(times.slice(0, 8).map(([t, q]) => t.toFixed(3) + ' ' + q).join('\n'));
console.log('mean', (times.reduce((a, b) => a + b[0], 0) / times.length).toFixed(3));
