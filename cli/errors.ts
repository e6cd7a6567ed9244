// One error type for the CLI: what the server (or the CLI itself) said, with its code, message and resolution,
// and the process exit status it maps to.
import { fallbackResolution, t } from './i18n.ts';

export class CliError extends Error {
  readonly code: string;
  readonly resolution: string | undefined;
  readonly status: number | undefined;
  readonly exitCode: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: { resolution?: string; status?: number; exitCode?: number; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.resolution = options.resolution ?? fallbackResolution(code);
    this.status = options.status;
    this.exitCode = options.exitCode ?? 1;
    this.details = options.details;
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      ...(this.resolution ? { resolution: this.resolution } : {}),
      ...(this.status ? { status: this.status } : {}),
    };
  }
}

/** A usage mistake: exit status 2, like most command lines. */
export function usageError(message: string): CliError {
  return new CliError('usage', message, { exitCode: 2 });
}

/**
 * The server's error bodies, in either of the spec's shapes (`{code, message}` or `{error: {code, message,
 * resolution}}`), OAuth's `{error, error_description}`, or /ask's `{error: {code, message}}`.
 */
export function errorFromBody(status: number, body: unknown): CliError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, any>;
  const nested = b.error && typeof b.error === 'object' ? b.error : null;
  if (nested && typeof nested.code === 'string') {
    return new CliError(nested.code, String(nested.message ?? nested.code), { resolution: nested.resolution, status, details: nested });
  }
  if (typeof b.code === 'string') return new CliError(b.code, String(b.message ?? b.code), { resolution: b.resolution, status, details: b });
  if (typeof b.error === 'string') return new CliError(b.error, String(b.error_description ?? b.error), { status });
  return new CliError('http_error', t('badResponse', { status }), { resolution: t('badResponseHelp'), status });
}

/** The lines printed for an error on stderr. */
export function describeError(err: CliError): string {
  const lines = [`${t('error')}: ${err.code}: ${err.message}`];
  if (err.resolution) lines.push(`  ${t('resolution')}: ${err.resolution}`);
  return lines.join('\n');
}
