// The front page at `/`, as a newcomer finds it: what the service is, a sign-in link that comes back to the console,
// the console, the public documentation, OpenAPI and /ask; a question asked on the page answered from the same index
// as POST /ask; both languages; the console's strict CSP (no inline script or style).
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';

t.test('the front page', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);

  t.test('a newcomer: what it is and the ways in, under a strict CSP', async (t) => {
    const res = await http(`${app.url}/`);
    c.check(t, 'get', '/', res);
    t.equal(res.status, 200);
    t.match(res.headers['content-type'], /^text\/html/);
    t.match(res.text, /<html lang="en-US">/);
    t.match(res.text, /<h1 id="title">Siglata: a workspace your agents can work in<\/h1>/);
    t.match(res.text, /href="\/auth\/sign-in\?lang=en-US&amp;returnTo=%2Fconsole">Sign in<\/a>/, 'sign in comes back to the console');
    t.match(res.text, /href="\/console\?lang=en-US">Open the console<\/a>/);
    t.match(res.text, /href="https:\/\/siglata\.com\/docs\/en\/getting-started">Documentation<\/a>/);
    t.match(res.text, /href="\/openapi\.json"/);
    t.match(res.text, /href="https:\/\/siglata\.com\/docs\/en\/public-search">Search API for programs \(POST \/ask\)<\/a>/);
    t.match(res.text, new RegExp(`<code>${app.config.publicBaseUrl.replace(/[.]/g, '\\.')}/mcp</code>`), 'where agents connect');
    const csp = String(res.headers['content-security-policy']);
    t.match(csp, /script-src 'self'/);
    t.notMatch(csp, /unsafe-inline|nonce-/);
    t.notMatch(res.text, /<script|\sstyle=|<style|\son[a-z]+=/i, 'no script, inline style or handler at all');
    t.equal(res.headers['x-frame-options'], 'DENY');
  });

  t.test('in Portuguese, by lang or by Accept-Language', async (t) => {
    const pt = await http(`${app.url}/?lang=pt-BR`);
    t.match(pt.text, /<html lang="pt-BR">/);
    t.match(pt.text, />Entrar<\/a>/);
    t.match(pt.text, /href="https:\/\/siglata\.com\/docs\/pt\/primeiros-passos"/);
    const byHeader = await http(`${app.url}/`, { headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    t.match(byHeader.text, /Abrir o console/);
  });

  t.test('a question asked on the page lists the documentation pages that answer it', async (t) => {
    const en = await http(`${app.url}/?q=${encodeURIComponent('how do I restore a deleted file')}`);
    c.check(t, 'get', '/', en);
    t.match(en.text, /Pages that answer “how do I restore a deleted file”/);
    t.match(en.text, /<a href="https:\/\/siglata\.com\/docs\/en\/trash">/, 'the trash page answers');
    t.match(en.text, /value="how do I restore a deleted file"/, 'the question stays in the box');
    const pt = await http(`${app.url}/?lang=pt-BR&q=${encodeURIComponent('como restaurar um arquivo da lixeira')}`);
    t.match(pt.text, /<a href="https:\/\/siglata\.com\/docs\/pt\/lixeira">/);
    const none = await http(`${app.url}/?q=${encodeURIComponent('zxqv plorf')}`);
    t.match(none.text, /No page of the documentation answers that/);
    const hostile = await http(`${app.url}/?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    t.notMatch(hostile.text, /<img src=x/, 'the question is escaped');
  });

  t.test('signed in: the page says who you are and opens the console', async (t) => {
    const alice = await w.user('front-alice@example.com');
    const res = await alice.get('/');
    t.match(res.text, /You are signed in as <strong>front-alice@example\.com<\/strong>/);
    t.notMatch(res.text, />Sign in<\/a>/);
    t.match(res.text, /Open the console/);
  });
});
