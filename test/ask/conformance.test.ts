// The 15 conformance cases of NLWeb's /ask protocol, over real HTTP against a bare app serving /ask.
import t from 'tap';
import type { Test } from 'tap';
import { ask, sseData, startAskServer } from './server.ts';
import * as v from 'valibot';
import { buildAskIndex } from '../../server/ask/index.ts';
import { AskAnswerSchema, AskFailureSchema } from '../../server/ask/schema.ts';

const B = { query: { text: 'assinatura eletrônica' } };
// B's text is not a topic of our corpus, so results may be empty; this one has results, so item checks bite.
const Q = { query: { text: 'restaurar arquivo da lixeira' } };

const srv = await startAskServer();
t.teardown(() => srv.close());

function checkAnswer(t: Test, body: any) {
  t.ok(v.is(AskAnswerSchema, body), 'matches the published Answer schema');
  t.equal(body._meta.response_type, 'Answer');
  t.equal(body._meta.version, '0.54');
  t.equal(body._meta.response_format, 'conv_search');
  t.equal(body._meta.mode, 'list');
  t.type(body._meta.request_id, 'string');
  t.ok(Array.isArray(body.results));
  for (const item of body.results) {
    t.type(item['@type'], 'string');
    t.type(item.name, 'string');
    t.match(item.url, /^https?:\/\//);
    t.type(item.grounding, 'object');
    t.ok(item.grounding.source_urls.includes(item.url));
    t.ok(Number.isInteger(item.score) && item.score >= 0 && item.score <= 100);
  }
}

function checkFailure(t: Test, res: { status: number; headers: any; json: any }, status: number, code: string) {
  t.equal(res.status, status);
  t.match(res.headers['content-type'], /^application\/json/);
  t.ok(v.is(AskFailureSchema, res.json), 'matches the published Failure schema');
  t.equal(res.json._meta.response_type, 'Failure');
  t.equal(res.json._meta.version, '0.54');
  t.equal(res.json.error.code, code);
  t.type(res.json.error.message, 'string');
  t.same(res.json.results, []);
}

t.test('1. streaming false → JSON Answer with typed, grounded items', async (t) => {
  for (const base of [B, Q]) {
    const res = await ask(srv.url, { ...base, prefer: { streaming: false } });
    t.equal(res.status, 200);
    t.match(res.headers['content-type'], /^application\/json/);
    checkAnswer(t, res.json);
  }
  const res = await ask(srv.url, { ...Q, prefer: { streaming: false } });
  t.ok(res.json.results.length > 0, 'the Portuguese query finds pages');
});

t.test('2. no prefer → SSE with exactly one data event, then the stream ends', async (t) => {
  const res = await ask(srv.url, Q);
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^text\/event-stream/);
  t.equal(res.headers['cache-control'], 'no-cache');
  t.equal(res.text.split('\n').filter((l) => l.startsWith('data:')).length, 1);
  t.ok(res.text.endsWith('\n\n'), 'the event ends with a blank line');
  t.notMatch(res.text, /^event:/m);
  const body = sseData(res.text);
  checkAnswer(t, body);
  t.ok(body.results.length > 0);
});

t.test('3. streaming null or prefer null → SSE', async (t) => {
  for (const prefer of [{ streaming: null }, null, { streaming: true }, {}]) {
    const res = await ask(srv.url, { ...B, prefer });
    t.equal(res.status, 200, JSON.stringify(prefer));
    t.match(res.headers['content-type'], /^text\/event-stream/);
    checkAnswer(t, sseData(res.text));
  }
});

t.test('4. max_results bounds the result count; 20 is accepted', async (t) => {
  let res = await ask(srv.url, { query: { text: 'x', max_results: 3 }, prefer: { streaming: false } });
  t.equal(res.status, 200);
  t.ok(res.json.results.length <= 3);
  res = await ask(srv.url, { query: { text: 'arquivos', max_results: 3 }, prefer: { streaming: false } });
  t.equal(res.json.results.length, 3, 'a broad query fills the 3 slots');
  res = await ask(srv.url, { query: { text: 'arquivos', max_results: 20 }, prefer: { streaming: false } });
  t.equal(res.status, 200);
  t.ok(res.json.results.length > 3 && res.json.results.length <= 20);
  res = await ask(srv.url, { query: { text: 'arquivos', max_results: null }, prefer: { streaming: false } });
  t.ok(res.json.results.length <= 9, 'the default is 9');
});

t.test('5. max_results 0, 21, 2.5, "5" → 400 Failure', async (t) => {
  for (const max_results of [0, 21, 2.5, '5', true]) {
    const res = await ask(srv.url, { query: { text: 'x', max_results }, prefer: { streaming: false } });
    checkFailure(t, res, 400, 'INVALID_REQUEST');
    t.equal(res.json.error.details.pointer, '/query/max_results');
  }
});

t.test('6. text length: "" and 1001 code points → 400; 1000 code points → 200', async (t) => {
  checkFailure(t, await ask(srv.url, { query: { text: '' } }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, { query: { text: 'a'.repeat(1001) } }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, { query: { text: '😀'.repeat(1001) } }), 400, 'INVALID_REQUEST');
  t.equal((await ask(srv.url, { query: { text: 'a'.repeat(1000) } })).status, 200);
  // 1000 astral code points are 2000 UTF-16 units: still 1000 characters (and 4002 bytes of JSON, under the limit).
  t.equal((await ask(srv.url, { query: { text: '😀'.repeat(1000) } })).status, 200);
  checkFailure(t, await ask(srv.url, { query: { text: '   ' } }), 400, 'INVALID_REQUEST');
});

t.test('7. unknown properties at any level → 400', async (t) => {
  for (const body of [
    { ...B, meta: { api_version: '0.54' } },
    { ...B, context: {} },
    { query: { text: 'x', num_results: 50 } },
    { query: { text: 'x', min_score: 51 } },
    { ...B, prefer: { 'user-agent': 'test' } },
  ]) {
    const res = await ask(srv.url, body);
    checkFailure(t, res, 400, 'INVALID_REQUEST');
    t.match(res.json.error.message, /not a known property/);
  }
});

t.test('8. site: example.com → 400; the allowed values and null → 200 with site hosts only', async (t) => {
  checkFailure(t, await ask(srv.url, { query: { text: 'x', site: 'example.com' } }), 400, 'INVALID_REQUEST');
  for (const site of ['all', 'siglata.com', 'www.siglata.com', null]) {
    const res = await ask(srv.url, { query: { text: 'lixeira', site }, prefer: { streaming: false } });
    t.equal(res.status, 200, String(site));
    t.equal(res.json._meta.site, site ?? 'all');
    t.ok(res.json.results.length > 0);
    for (const r of res.json.results) t.ok(['siglata.com', 'www.siglata.com'].includes(new URL(r.url).hostname));
  }
});

t.test('9. mode, response_format and accept-language enums', async (t) => {
  for (const prefer of [
    { mode: 'summarize' },
    { mode: 'generate' },
    { mode: 'list, summarize' },
    { response_format: 'chatgpt_app' },
    { 'accept-language': 'fr' },
    { 'accept-language': 'pt-PT' },
  ]) {
    checkFailure(t, await ask(srv.url, { ...B, prefer }), 400, 'INVALID_REQUEST');
  }
  for (const prefer of [
    { 'accept-language': 'pt-BR' },
    { 'accept-language': 'en-US' },
    { 'accept-language': 'pt' },
    { 'accept-language': 'en' },
    { mode: 'list', response_format: 'conv_search' },
    { mode: null, response_format: null, 'accept-language': null },
  ]) {
    t.equal((await ask(srv.url, { ...B, prefer: { ...prefer, streaming: false } })).status, 200, JSON.stringify(prefer));
  }
});

t.test('10. invalid JSON, an array, a missing query, a numeric text → 400', async (t) => {
  checkFailure(t, await ask(srv.url, null, { raw: '{"query":' }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, null, { raw: '' }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, [B]), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, {}), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, { query: { text: 42 } }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, { query: [] }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, { ...B, prefer: [] }), 400, 'INVALID_REQUEST');
  checkFailure(t, await ask(srv.url, null, { raw: Buffer.from([0x7b, 0xff, 0x7d]) }), 400, 'INVALID_REQUEST');
});

t.test('11. Content-Type: text/plain or missing → 415; application/json; charset=utf-8 → 200', async (t) => {
  checkFailure(t, await ask(srv.url, B, { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  checkFailure(t, await ask(srv.url, B, { headers: { 'content-type': 'application/ld+json' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  const { request } = await import('undici');
  const res = await request(`${srv.url}/ask`, { method: 'POST', body: Buffer.from(JSON.stringify(B)) });
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(res.statusCode, 415);
  t.equal(JSON.parse(await res.body.text()).error.code, 'UNSUPPORTED_MEDIA_TYPE');
  t.equal((await ask(srv.url, B, { headers: { 'content-type': 'application/json; charset=utf-8' } })).status, 200);
  t.equal((await ask(srv.url, B, { headers: { 'content-type': 'Application/JSON' } })).status, 200);
});

t.test('12. over 8192 bytes → 413 (padded with JSON white space); 8192 bytes → not 413', async (t) => {
  const valid = JSON.stringify({ ...B, prefer: { streaming: false } });
  const exactly = valid.slice(0, -1) + ' '.repeat(8192 - Buffer.byteLength(valid)) + '}';
  t.equal(Buffer.byteLength(exactly), 8192);
  t.equal((await ask(srv.url, null, { raw: exactly })).status, 200);
  const over = valid.slice(0, -1) + ' '.repeat(8193 - Buffer.byteLength(valid)) + '}';
  checkFailure(t, await ask(srv.url, null, { raw: over }), 413, 'PAYLOAD_TOO_LARGE');
  // Multi-byte characters count as bytes: 3000 "ç" are 3000 characters but 6000 bytes; 5000 are past 8192 bytes.
  checkFailure(t, await ask(srv.url, { query: { text: 'ç'.repeat(5000) } }), 413, 'PAYLOAD_TOO_LARGE');
  // 413 wins over 400 (the oversized body is invalid too) and 415 wins over 413.
  checkFailure(t, await ask(srv.url, null, { raw: '['.repeat(9000) }), 413, 'PAYLOAD_TOO_LARGE');
  checkFailure(t, await ask(srv.url, null, { raw: over, headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  // Chunked (no Content-Length), through undici: a streamed body.
  const { Readable } = await import('node:stream');
  const { request } = await import('undici');
  const res = await request(`${srv.url}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Readable.from([Buffer.from(over.slice(0, 4000)), Buffer.from(over.slice(4000))]),
  });
  t.equal(res.statusCode, 413);
  t.equal(JSON.parse(await res.body.text()).error.code, 'PAYLOAD_TOO_LARGE');
});

t.test('13. corpus missing or empty → 503 Failure, also when streaming was asked', async (t) => {
  for (const index of [null, buildAskIndex([])]) {
    srv.setIndex(index);
    for (const prefer of [undefined, { streaming: true }, { streaming: false }]) {
      const res = await ask(srv.url, { ...B, ...(prefer ? { prefer } : {}) });
      checkFailure(t, res, 503, 'CORPUS_UNAVAILABLE');
      t.equal(res.headers['retry-after'], undefined, 'no promise that a retry will help');
      t.match(res.json.error.message, /not loaded on this server/);
    }
    // 400 still comes before 503.
    checkFailure(t, await ask(srv.url, { query: {} }), 400, 'INVALID_REQUEST');
  }
  srv.setIndex(srv.index);
  t.equal((await ask(srv.url, B)).status, 200);
});

t.test('14. a nonsense query → 200 with results []', async (t) => {
  for (const text of ['zzqxv kjhgf', 'qwpzx', 'xkcd zzz 123456']) {
    const res = await ask(srv.url, { query: { text }, prefer: { streaming: false } });
    t.equal(res.status, 200);
    t.equal(res.json._meta.response_type, 'Answer');
    t.same(res.json.results, [], text);
  }
});

t.test('15. determinism and verbatim citations', async (t) => {
  for (const text of ['restaurar arquivo da lixeira', 'how do I upload a large file', 'escopos oauth', 'rate limit headers']) {
    const body = { query: { text, max_results: 20 }, prefer: { streaming: false } };
    const a = await ask(srv.url, body);
    const b = await ask(srv.url, body);
    t.same(a.json.results, b.json.results, text);
    t.ok(a.json.results.length > 0, text);
    for (let i = 1; i < a.json.results.length; i++) {
      const [p, q] = [a.json.results[i - 1], a.json.results[i]];
      t.ok(p.score > q.score || (p.score === q.score && p.url < q.url), 'score desc, then url asc');
    }
    for (const item of a.json.results) {
      const page = srv.index.pages.find((p) => p.url === item.url)!;
      t.ok(page, item.url);
      t.ok(item.grounding.source_urls.includes(item.url));
      t.ok(item.grounding.citations.length >= 1 && item.grounding.citations.length <= 3);
      const text_ = page.blocks.join('\n');
      for (const c of item.grounding.citations) t.ok(text_.includes(c), `verbatim in ${item.url}: ${c}`);
    }
  }
});
