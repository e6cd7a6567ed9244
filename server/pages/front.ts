// The front page at `/`, for people: what the service is, how to sign in, the console, the public documentation and
// a search over it (the same index as POST /ask, answered here as a page: no script needed). Served with the
// console's stylesheet and strict CSP.
import type Koa from 'koa';
import type { Locale } from '../../runtime-api/index.ts';
import { escapeHtml, texts } from './layout.ts';
import { FRONT } from './texts.ts';
import { assetUrl } from './console/assets.ts';
import { CONSOLE_HOME, strictPageHeaders } from './console/layout.ts';

/** The public documentation's entry page in each language (the site /ask searches). */
export const PUBLIC_DOCS: Record<Locale, string> = {
  'en-US': 'https://siglata.com/docs/en/getting-started',
  'pt-BR': 'https://siglata.com/docs/pt/primeiros-passos',
};
const ASK_DOCS: Record<Locale, string> = {
  'en-US': 'https://siglata.com/docs/en/public-search',
  'pt-BR': 'https://siglata.com/docs/pt/busca-publica',
};

export interface FrontAnswer {
  question: string;
  /** Null: the search index is not loaded. */
  hits: { name: string; url: string; description: string }[] | null;
}

export interface FrontData {
  locale: Locale;
  /** The signed-in person's e-mail, if any. */
  email: string | null;
  baseUrl: string;
  answer: FrontAnswer | null;
}

function answerSection(locale: Locale, answer: FrontAnswer | null): string {
  const t = texts(locale);
  if (!answer) return '';
  if (answer.hits === null) return `<p class="note" role="status">${t(FRONT.askUnavailable)}</p>`;
  if (!answer.hits.length) return `<p role="status">${t(FRONT.noAnswer)}</p>`;
  return `<h3 id="answers">${t(FRONT.answersFor)} “${escapeHtml(answer.question)}”</h3>
<ol class="answers" aria-labelledby="answers">${answer.hits
    .map((h) => `<li><a href="${escapeHtml(h.url)}">${escapeHtml(h.name)}</a><p class="note">${escapeHtml(h.description)}</p></li>`)
    .join('\n')}</ol>`;
}

export function renderFrontPage(ctx: Koa.Context, d: FrontData): void {
  const { locale } = d;
  const t = texts(locale);
  const other: Locale = locale === 'en-US' ? 'pt-BR' : 'en-US';
  const consoleLink = `${CONSOLE_HOME}?lang=${locale}`;
  const signIn = `/auth/sign-in?lang=${locale}&returnTo=${encodeURIComponent(CONSOLE_HOME)}`;
  const ways = d.email
    ? `<p>${t(FRONT.signedInAs)} <strong>${escapeHtml(d.email)}</strong>.</p>
<p class="actions"><a class="button" href="${consoleLink}">${t(FRONT.openConsole)}</a></p>`
    : `<p class="actions"><a class="button" href="${escapeHtml(signIn)}">${t(FRONT.signIn)}</a> <a class="button secondary" href="${consoleLink}">${t(FRONT.openConsole)}</a></p>
<p class="note">${t(FRONT.signInHint)}</p>`;
  strictPageHeaders(ctx, 200);
  ctx.body = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t(FRONT.title)}</title><meta name="description" content="${t(FRONT.lead)}">
<link rel="stylesheet" href="${assetUrl('console.css')}">
</head><body class="front">
<header><strong>Siglata</strong><nav aria-label="Siglata"><a href="${consoleLink}">${t(FRONT.openConsole)}</a><a href="${PUBLIC_DOCS[locale]}">${t(FRONT.docs)}</a></nav>
<div class="who"><a href="/?lang=${other}" lang="${other}" hreflang="${other}">${other === 'pt-BR' ? 'Português' : 'English'}</a></div></header>
<main id="content">
<section class="hero" aria-labelledby="title"><h1 id="title">${t(FRONT.title)}</h1><p class="lead">${t(FRONT.lead)}</p>${ways}</section>
<section aria-labelledby="features"><h2 id="features">${t(FRONT.features)}</h2><div class="cards">
<div><h3>${t(FRONT.filesTitle)}</h3><p>${t(FRONT.files)}</p></div>
<div><h3>${t(FRONT.peopleTitle)}</h3><p>${t(FRONT.people)}</p></div>
<div><h3>${t(FRONT.agentsTitle)}</h3><p>${t(FRONT.agents)}</p><p class="note">${t(FRONT.connectAgent)} <code>${escapeHtml(d.baseUrl)}/mcp</code></p></div>
</div></section>
<section aria-labelledby="ask"><h2 id="ask">${t(FRONT.ask)}</h2>
<form method="get" action="/" role="search"><input type="hidden" name="lang" value="${locale}">
<label for="q">${t(FRONT.question)}</label> <input id="q" name="q" type="search" maxlength="1000" value="${escapeHtml(d.answer?.question ?? '')}" placeholder="${t(FRONT.askExample)}">
<button type="submit">${t(FRONT.askButton)}</button></form>
${answerSection(locale, d.answer)}</section>
<section aria-labelledby="more"><h2 id="more">${t(FRONT.more)}</h2><ul>
<li><a href="${PUBLIC_DOCS[locale]}">${t(FRONT.docs)}</a></li>
<li><a href="/openapi.json">${t(FRONT.apiDescription)}</a></li>
<li><a href="${ASK_DOCS[locale]}">${t(FRONT.askApi)}</a></li>
<li><a href="/api">${t(FRONT.health)}</a></li>
</ul></section>
</main></body></html>`;
}
