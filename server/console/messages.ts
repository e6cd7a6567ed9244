// What the console says when it refuses a request outright, in both languages side by side: a Bearer token, a form
// in another type, a form whose CSRF token does not match. What its pages show is in server/pages/console/texts.ts.
import { ServiceError, conflict, l10n, tr, type Locale } from '../../runtime-api/index.ts';

export function bearerRefused(locale: Locale): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: tr(
      locale,
      'The console accepts only a signed-in browser session, never a Bearer token: sign in at /auth/sign-in.',
      'O console aceita apenas uma sessão de navegador conectada, nunca um token Bearer: entre em /auth/sign-in.',
    ),
  });
}

export function formTypeRequired(locale: Locale): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: tr(
      locale,
      'Console forms are sent as application/x-www-form-urlencoded.',
      'Os formulários do console são enviados como application/x-www-form-urlencoded.',
    ),
  });
}

export function csrfMismatch(locale: Locale): ServiceError {
  return new ServiceError('ORIGIN_NOT_ALLOWED', {
    message: l10n(
      "The form's security token is missing or does not match this session.",
      'O token de segurança do formulário está ausente ou não corresponde a esta sessão.',
    ),
    resolution: tr(locale, 'Reload the console page and submit the form again.', 'Recarregue a página do console e envie o formulário de novo.'),
  });
}

/** MCP access saved with no scope while agents stay on: the person confirms it first (the page offers a checkbox). */
export function noScopesConfirm(locale: Locale): ServiceError {
  return new ServiceError('invalid_input', {
    message: l10n('No scope is checked.', 'Nenhum escopo está marcado.'),
    resolution: tr(
      locale,
      'Agents could then do nothing here, and would be told to ask for scopes nobody can grant. Check the scopes agents may use, choose Revoked to turn agents off, or confirm below that you want no scope at all.',
      'Os agentes não poderiam fazer nada aqui e seriam orientados a pedir escopos que ninguém pode conceder. Marque os escopos que os agentes podem usar, escolha Revogado para desligá-los, ou confirme abaixo que não quer nenhum escopo.',
    ),
  });
}

/** A bulk action with nothing selected. */
export function nothingSelected(locale: Locale): ServiceError {
  return new ServiceError('invalid_input', {
    message: l10n('No file is selected.', 'Nenhum arquivo está selecionado.'),
    resolution: tr(locale, 'Tick the files to act on, then press the button again.', 'Marque os arquivos a tratar e aperte o botão de novo.'),
  });
}

/** A bulk action some of whose files were refused: the others are done. `failures`: each file's name and reason. */
export function someNotDone(done: number, failures: readonly [string, string][]): ServiceError {
  const list = failures.map(([name, why]) => `${name} (${why})`).join('; ');
  return conflict(
    l10n(`${done} done; not done: ${list}.`, `${done} feito(s); não feito(s): ${list}.`),
    l10n('Fix what is said for each file not done, then try those again.', 'Corrija o que foi dito para cada arquivo não feito e tente esses de novo.'),
  );
}
