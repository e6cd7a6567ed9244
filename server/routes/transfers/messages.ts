// What the transfer routes say when they refuse bytes, in both languages side by side: revoked MCP access, a part
// sent in another type, of the wrong size, cut short, or whose digest is malformed or does not match.
import { PART_SIZE, ServiceError, l10n, type Localized } from '../../../runtime-api/index.ts';

export function transfersRevoked(): ServiceError {
  return new ServiceError('MCP_ACCESS_REVOKED', {
    resolution: l10n(
      'An owner or admin of the organization must restore its MCP access before files can be transferred.',
      'Um proprietário ou administrador da organização precisa restaurar o acesso MCP antes que arquivos possam ser transferidos.',
    ),
  });
}

export function octetStreamRequired(): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: l10n('Send the part as Content-Type: application/octet-stream.', 'Envie a parte com Content-Type: application/octet-stream.'),
  });
}

/** What arrived instead of the part's exact size, for partSizeMismatch. */
export const PART_RECEIVED = {
  declared: (contentLength: string) => l10n(`this request declares ${contentLength}`, `esta requisição declara ${contentLength}`),
  overflow: l10n('more bytes arrived', 'chegaram mais bytes'),
  short: (length: number) => l10n(`${length} arrived`, `chegaram ${length}`),
};

/** A part of another size than `expected`; `got` says what arrived (PART_RECEIVED). */
export function partSizeMismatch(partNumber: number, expected: number, got: Localized): ServiceError {
  return new ServiceError('part_mismatch', {
    resolution: l10n(
      `Part ${partNumber} must be exactly ${expected} bytes (${expected === PART_SIZE ? 'every part but the last is 8,388,608 bytes' : 'the final part carries the remainder'}); ${got['en-US']}. Nothing was stored.`,
      `A parte ${partNumber} precisa ter exatamente ${expected} bytes (${expected === PART_SIZE ? 'toda parte, exceto a última, tem 8.388.608 bytes' : 'a parte final leva o restante'}); ${got['pt-BR']}. Nada foi gravado.`,
    ),
    details: { partNumber, expectedBytes: expected },
  });
}

/** The body stopped before its end (the client closed, or the connection failed). */
export function partBodyIncomplete(cause?: unknown): ServiceError {
  return new ServiceError('invalid_request', {
    resolution: l10n('The request body was not received completely.', 'O corpo da requisição não foi recebido por completo.'),
    cause,
  });
}

/** `header`: Content-MD5 or Content-Digest. */
export function digestMalformed(header: string): ServiceError {
  return new ServiceError('invalid_request', {
    resolution: l10n(
      `The ${header} header is malformed: send Content-MD5: <base64 MD5> or Content-Digest: sha-256=:<base64>: (RFC 9530).`,
      `O cabeçalho ${header} está malformado: envie Content-MD5: <base64 MD5> ou Content-Digest: sha-256=:<base64>: (RFC 9530).`,
    ),
  });
}

/** `digest`: the header (and algorithm) whose value the bytes do not match. */
export function digestMismatch(digest: string, partNumber: number): ServiceError {
  return new ServiceError('part_mismatch', {
    resolution: l10n(
      `The ${digest} does not match the bytes received for part ${partNumber}; nothing was stored. Send the part again.`,
      `O ${digest} não corresponde aos bytes recebidos na parte ${partNumber}; nada foi gravado. Envie a parte de novo.`,
    ),
    details: { partNumber, digest },
  });
}
