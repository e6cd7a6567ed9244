// The /ask request and response schemas (spec 2.6, 2.7; research/nlweb.md B1-B5). valibot strictObject at every level,
// so the same objects validate requests and can feed /openapi.json (askRequestJsonSchema).
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';

export const SITES = ['all', 'siglata.com', 'www.siglata.com'] as const;
export const ACCEPT_LANGUAGES = ['pt', 'pt-BR', 'en', 'en-US'] as const;
export const MAX_TEXT = 1000;
export const MAX_BODY_BYTES = 8192;

// JSON Schema's maxLength counts code points; valibot's maxLength counts UTF-16 units, so the bound is a check of its
// own (mapped back to maxLength for the JSON Schema). A text of blanks only is refused too: it asks nothing.
const textLength = v.check<string, string>((s) => [...s].length <= MAX_TEXT, `must have at most ${MAX_TEXT} characters`);

// One message for both issues a strictObject raises: a value that is not an object, and a key it does not know.
const objectMessage = (what: string) => (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never' ? 'is not a known property (additional properties are not allowed)' : `must be ${what}`;

// valibot's object schemas take an array for an object (JSON Schema's `type: object` does not), and their output is a
// fresh object, so the array test must come first: every object here is `pipe(unknown, notArray, strictObject)`.
const notArray = v.check<unknown, string>((x) => !Array.isArray(x), 'must be an object, not an array');
function strict<E extends v.ObjectEntries>(entries: E, what: string) {
  return v.pipe(v.unknown(), notArray, v.strictObject(entries, objectMessage(what)));
}

export const AskRequestSchema = strict(
  {
    query: strict(
      {
        text: v.pipe(
          v.string('must be a string'),
          v.minLength(1, 'must not be empty'),
          textLength,
          v.check((s) => s.trim().length > 0, 'must contain something besides white space'),
        ),
        site: v.nullish(v.picklist(SITES, `must be one of ${SITES.join(', ')}, or null`)),
        max_results: v.nullish(
          v.pipe(
            v.number('must be an integer from 1 to 20, or null'),
            v.integer('must be an integer'),
            v.minValue(1, 'must be at least 1'),
            v.maxValue(20, 'must be at most 20'),
          ),
        ),
      },
      'an object',
    ),
    prefer: v.nullish(
      strict(
        {
          streaming: v.nullish(v.boolean('must be true, false or null')),
          mode: v.nullish(v.picklist(['list'], 'must be "list" or null')),
          response_format: v.nullish(v.picklist(['conv_search'], 'must be "conv_search" or null')),
          'accept-language': v.pipe(
            v.nullish(v.picklist(ACCEPT_LANGUAGES, `must be one of ${ACCEPT_LANGUAGES.join(', ')}, or null`)),
            v.description(
              'Every relevant page in this language comes first, then the relevant pages of the other language. ' +
                'Without it the language of the query is guessed and its pages are only favoured.',
            ),
          ),
        },
        'an object or null',
      ),
    ),
  },
  'a JSON object',
);

export type AskRequest = v.InferOutput<typeof AskRequestSchema>;

const MetaBase = {
  version: v.literal('0.54'),
  request_id: v.string(),
};

export const AskResultSchema = v.object({
  '@type': v.string(),
  name: v.string(),
  url: v.pipe(v.string(), v.url()),
  site: v.string(),
  score: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)),
  description: v.string(),
  inLanguage: v.string(),
  grounding: v.object({
    source_urls: v.pipe(v.array(v.pipe(v.string(), v.url())), v.minLength(1)),
    citations: v.array(v.string()),
  }),
});

export const AskAnswerSchema = v.object({
  _meta: v.object({
    response_type: v.literal('Answer'),
    ...MetaBase,
    response_format: v.literal('conv_search'),
    mode: v.literal('list'),
    site: v.picklist(SITES),
    'accept-language': v.nullable(v.picklist(['pt-BR', 'en-US'])),
    total_results: v.number(),
    ranking: v.literal('bm25'),
  }),
  results: v.array(AskResultSchema),
});

export const ASK_ERROR_CODES = [
  'INVALID_REQUEST',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CORPUS_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type AskErrorCode = (typeof ASK_ERROR_CODES)[number];

export const AskFailureSchema = v.object({
  _meta: v.object({ response_type: v.literal('Failure'), ...MetaBase }),
  error: v.object({
    code: v.picklist(ASK_ERROR_CODES),
    message: v.string(),
    details: v.optional(v.object({ pointer: v.string() })),
  }),
  results: v.pipe(v.array(v.never()), v.maxLength(0)),
});

/** JSON Schema (draft 2020-12) of the request body, for OpenAPI: `typeMode: 'output'` reads each object pipe from its
 * strictObject, and the code-point check becomes `maxLength`. */
export function askRequestJsonSchema(): Record<string, unknown> {
  return toJsonSchema(AskRequestSchema, {
    target: 'draft-2020-12',
    typeMode: 'output',
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (valibotAction === textLength) return { ...jsonSchema, maxLength: MAX_TEXT };
      // notArray is what JSON Schema's `type: object` already means; the blank-text rule has no JSON Schema form.
      if (valibotAction.type === 'check') return jsonSchema;
      return undefined;
    },
  }) as Record<string, unknown>;
}

/** `query.max_results` → `/query/max_results` (an issue's place, as a JSON pointer). */
export function issuePointer(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((p) => '/' + String(p.key).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** The first problem of an invalid request, as a message naming the field and as its JSON pointer. */
export function describeAskIssue(issues: readonly v.BaseIssue<unknown>[]): { message: string; pointer: string } {
  const issue = issues[0];
  const pointer = issuePointer(issue);
  const field = pointer ? pointer.slice(1).replaceAll('/', '.') : 'body';
  const missing = issue.input === undefined && issue.expected !== 'never';
  return { message: `${field}: ${missing ? 'is required' : issue.message}`, pointer };
}
