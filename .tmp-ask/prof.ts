import { loadAskIndex } from '../server/ask/load.ts';
import { loadQueries } from '../server/ask/relevance.ts';
const index = (await loadAskIndex())!;
const qs = await loadQueries('fixtures/site/queries.json');
const t0 = performance.now();
for (let r = 0; r < 100; r++) for (const q of qs) index.search({ text: q.text });
console.log('mean ms', ((performance.now() - t0) / (100 * qs.length)).toFixed(3));
