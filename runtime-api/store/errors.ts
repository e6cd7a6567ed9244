// SQLSTATE → ServiceError, at the store boundary and nowhere else.
import { ServiceError, conflict, l10n } from '../errors.ts';

interface PgError {
  code?: unknown;
  severity?: unknown;
  constraint_name?: unknown;
}

function isPgError(err: unknown): err is PgError {
  return typeof err === 'object' && err !== null && 'severity' in err && typeof (err as PgError).code === 'string';
}

/** Map a thrown value to a ServiceError; unknown errors are left for the caller to treat as internal. */
export function fromDatabaseError(err: unknown): ServiceError | null {
  if (err instanceof ServiceError) return err;
  if (!isPgError(err)) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ECONNREFUSED' || code === 'CONNECTION_CLOSED' || code === 'CONNECT_TIMEOUT' || code === 'CONNECTION_ENDED') {
      return new ServiceError('database_failure', { cause: err });
    }
    return null;
  }
  const code = String(err.code);
  // Data exceptions come from the request's values (e.g. a NUL character, which PostgreSQL text cannot hold, or a
  // number out of range): the caller can fix them.
  if (code === '22021' || code === '22P05' || code === '22P02' || code === '22003' || code === '22001' || code === '22007' || code === '22008') {
    return new ServiceError('invalid_input', {
      resolution: l10n(
        'A value cannot be stored as given (for example it contains a NUL character or is out of range); remove such characters or use a smaller value.',
        'Um valor não pode ser gravado como foi enviado (por exemplo, contém um caractere NUL ou está fora do intervalo); remova esses caracteres ou use um valor menor.',
      ),
      cause: err,
    });
  }
  // 23505 unique violation, 40001 serialization failure, 40P01 deadlock, 55P03 lock not available
  if (code === '23505' && err.constraint_name === 'files_active_name_idx') {
    // Writers take the organization's lock before a path (services/paths.ts), so this is a safety net, not a path.
    return new ServiceError('path_taken', {
      message: l10n(
        'Another active file took this path at the same moment. Read the file at the path, then write, move or restore again.',
        'Outro arquivo ativo ocupou este caminho no mesmo momento. Leia o arquivo no caminho e escreva, mova ou restaure de novo.',
      ),
      resolution: l10n('Read the file at the path, then try again.', 'Leia o arquivo no caminho e tente de novo.'),
      cause: err,
    });
  }
  if (code === '23505') {
    return conflict(
      l10n('Something with the same unique name or key already exists.', 'Já existe algo com o mesmo nome ou chave única.'),
      l10n('Read the current state, then use another name or change the existing one.', 'Leia o estado atual e use outro nome ou altere o existente.'),
      { cause: err },
    );
  }
  if (code === '40001' || code === '40P01' || code === '55P03') {
    return conflict(
      l10n('Another request changed the same data at the same moment.', 'Outra requisição alterou os mesmos dados no mesmo momento.'),
      l10n('Retry the request; it was not applied.', 'Tente a requisição de novo; ela não foi aplicada.'),
      { cause: err },
    );
  }
  return new ServiceError('database_failure', { cause: err });
}
