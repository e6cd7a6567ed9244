// NLWeb 0.54 bodies for /ask (research/nlweb.md B3-B5): the Answer (conv_search results with verbatim citations), the
// Failure body used for every error status, and the single SSE frame that carries an Answer.
import type * as v from 'valibot';
import type { AskOutcome } from './index.ts';
import type { AskAnswerSchema, AskErrorCode, AskFailureSchema, AskRequest } from './schema.ts';
import type { Lang } from './text.ts';

export type AskAnswer = v.InferOutput<typeof AskAnswerSchema>;
export type AskFailure = v.InferOutput<typeof AskFailureSchema>;

export const FAILURE_STATUS: Record<AskErrorCode, number> = {
  INVALID_REQUEST: 400,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CORPUS_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

const LOCALE: Record<Lang, 'pt-BR' | 'en-US'> = { pt: 'pt-BR', en: 'en-US' };

export function answerBody(request: AskRequest, outcome: AskOutcome, requestId: string): AskAnswer {
  const results = outcome.hits.map(({ page, score, citations }) => ({
    '@type': page.type,
    name: page.name,
    url: page.url,
    site: page.site,
    score,
    description: page.description,
    inLanguage: page.inLanguage,
    grounding: { source_urls: [page.url], citations },
  }));
  return {
    _meta: {
      response_type: 'Answer',
      version: '0.54',
      response_format: 'conv_search',
      mode: 'list',
      request_id: requestId,
      site: request.query.site ?? 'all',
      // The language that ranked first: the requested one, else the one the query was written in (null: no guess).
      'accept-language': outcome.lang ? LOCALE[outcome.lang] : null,
      total_results: results.length,
      ranking: 'bm25',
    },
    results,
  };
}

/** The Failure body; `results: []` keeps clients that read `results` from every reply working (B5). */
export function failureBody(code: AskErrorCode, message: string, requestId: string, pointer?: string): AskFailure {
  return {
    _meta: { response_type: 'Failure', version: '0.54', request_id: requestId },
    error: { code, message, ...(pointer !== undefined ? { details: { pointer } } : {}) },
    results: [],
  };
}

/** One unnamed SSE event holding the whole body; JSON.stringify never emits a raw newline, so one `data:` line. */
export function sseFrame(body: AskAnswer): string {
  return `data: ${JSON.stringify(body)}\n\n`;
}
