// What the HTTP plumbing says when it refuses a request before any endpoint sees it, in both languages side by side:
// the body (413, 415, 400), the origin check, rate limits, unknown routes and methods, and the metrics token.
import { ServiceError, l10n, tr, type Locale } from '../../runtime-api/index.ts';

export function payloadTooLarge(limit: number): ServiceError {
  return new ServiceError('payload_too_large', { resolution: l10n(`Send at most ${limit} bytes.`, `Envie no máximo ${limit} bytes.`) });
}

/** The body stopped arriving, or the parser failed for a reason that is not the body's content. */
export function bodyUnreadable(cause?: unknown): ServiceError {
  return new ServiceError('invalid_request', {
    resolution: l10n('The request body could not be read completely.', 'Não foi possível ler o corpo da requisição por completo.'),
    cause,
  });
}

export function bodyEmpty(): ServiceError {
  return new ServiceError('invalid_request', { resolution: l10n('The body is empty; send a JSON object.', 'O corpo está vazio; envie um objeto JSON.') });
}

export function bodyNotJson(): ServiceError {
  return new ServiceError('invalid_request', { resolution: l10n('The body is not valid JSON.', 'O corpo não é JSON válido.') });
}

export function bodyNotUtf8(): ServiceError {
  return new ServiceError('invalid_request', { resolution: l10n('The body is not valid UTF-8.', 'O corpo não é UTF-8 válido.') });
}

export function contentEncodingRefused(): ServiceError {
  return new ServiceError('unsupported_media_type', { resolution: l10n('Send the body without Content-Encoding.', 'Envie o corpo sem Content-Encoding.') });
}

export function charsetRefused(charset: string): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: l10n(`Send the body in UTF-8 (charset=utf-8), not ${charset}.`, `Envie o corpo em UTF-8 (charset=utf-8), não ${charset}.`),
  });
}

export function jsonRequired(): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: l10n('Send the body as Content-Type: application/json.', 'Envie o corpo com Content-Type: application/json.'),
  });
}

/** A session-authenticated request in another type than JSON: a cross-site form could send it. */
export function sessionJsonRequired(locale: Locale): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: tr(
      locale,
      'Requests authenticated by the session cookie must send Content-Type: application/json.',
      'Requisições autenticadas pelo cookie de sessão precisam enviar Content-Type: application/json.',
    ),
  });
}

export function originNotAllowed(locale: Locale, origin: string): ServiceError {
  return new ServiceError('ORIGIN_NOT_ALLOWED', {
    resolution: tr(
      locale,
      `The origin ${origin || '(cross-site)'} may not send authenticated requests; use the service from an allowed origin.`,
      `A origem ${origin || '(outro site)'} não pode enviar requisições autenticadas; use o serviço a partir de uma origem permitida.`,
    ),
  });
}

/** An opaque or malformed Origin on an endpoint any web page may call (the public OAuth client endpoints). */
export function notAWebOrigin(locale: Locale, origin: string): ServiceError {
  return new ServiceError('ORIGIN_NOT_ALLOWED', {
    resolution: tr(
      locale,
      `The origin ${origin} is not a web page's origin; call this endpoint from a page served over http or https, or from a client that sends no Origin.`,
      `A origem ${origin} não é a de uma página web; chame este endpoint de uma página servida por http ou https, ou de um cliente que não envie Origin.`,
    ),
  });
}

/** Over the global limit: `reset` seconds until the window ends. */
export function rateLimited(max: number, windowSeconds: number, reset: number): ServiceError {
  return new ServiceError('rate_limited', {
    resolution: l10n(
      `At most ${max} requests per ${windowSeconds} s; retry in ${reset} s.`,
      `No máximo ${max} requisições a cada ${windowSeconds} s; tente de novo em ${reset} s.`,
    ),
    headers: { 'Retry-After': String(Math.max(1, reset)) },
  });
}

/** Over an endpoint's own limit (OAuth registration and tokens). */
export function endpointRateLimited(max: number, windowSeconds: number, retryAfter: number): ServiceError {
  return new ServiceError('rate_limited', {
    resolution: l10n(
      `At most ${max} requests per ${windowSeconds} s here; retry in ${retryAfter} s.`,
      `No máximo ${max} requisições a cada ${windowSeconds} s aqui; tente de novo em ${retryAfter} s.`,
    ),
    headers: { 'Retry-After': String(retryAfter) },
  });
}

export function routeNotFound(method: string, path: string): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n(`No route ${method} ${path}; see /openapi.json.`, `Não há rota ${method} ${path}; consulte /openapi.json.`),
  });
}

/** `allow`: the methods the path does serve, as the Allow header lists them. */
export function wrongMethod(allow: string, path: string): ServiceError {
  return new ServiceError('method_not_allowed', {
    resolution: l10n(`Use ${allow} on ${path}.`, `Use ${allow} em ${path}.`),
    headers: { Allow: allow },
  });
}

export function metricsUnauthorized(): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: l10n('Send Authorization: Bearer <METRICS_TOKEN>.', 'Envie Authorization: Bearer <METRICS_TOKEN>.'),
    headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
  });
}
