// What running a script says when it refuses or fails the request, in both languages side by side: the mode's
// inputs, the plan token, an apply whose writes left the plan, a full or quarantined engine, and a binding the script
// named that does not exist. The execution modules throw these by name.
import { ServiceError, conflict, l10n, tr, type Locale } from '../errors.ts';
import { scopeFix, type BearerCredential } from '../identity/messages.ts';

export function planTokenMissing(): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      '`planToken`: required with mode "apply"; take it from the plan response.',
      '`planToken`: obrigatório com mode "apply"; use o da resposta do plano.',
    ),
  });
}

/** Why a plan token cannot be used: the English reason, and its pt-BR wording. */
const PLAN_TOKEN_REFUSALS = {
  malformed: l10n('not a plan token', 'não é um token de plano'),
  unknownKey: l10n('signed by an unknown key', 'assinado por uma chave desconhecida'),
  expired: l10n('invalid or expired (plans are valid 15 minutes)', 'inválido ou expirado (planos valem 15 minutos)'),
  foreign: l10n('planned by another user or organization', 'planejado por outro usuário ou organização'),
};

export function planTokenInvalid(why: keyof typeof PLAN_TOKEN_REFUSALS): ServiceError {
  const reason = PLAN_TOKEN_REFUSALS[why];
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`planToken\`: ${reason['en-US']}; run the script with mode "plan" again.`,
      `\`planToken\`: ${reason['pt-BR']}; execute o script com mode "plan" de novo.`,
    ),
  });
}

export function scriptNotPlanned(): ServiceError {
  return conflict(
    l10n('The script differs from the planned one.', 'O script difere do planejado.'),
    l10n('Apply exactly the planned script, or plan this one.', 'Aplique exatamente o script planejado, ou planeje este.'),
  );
}

/** The apply's refusal of a write that is not the plan's write at its position; nothing of it ran. */
export function unplannedWrite(index: number, binding: string): ServiceError {
  return conflict(
    l10n(
      `Write #${index + 1} (${binding}) is not the planned write #${index + 1}; it was not run and nothing was applied.`,
      `A escrita nº ${index + 1} (${binding}) não é a escrita planejada nº ${index + 1}; ela não foi executada e nada foi aplicado.`,
    ),
    l10n('Plan again and review.', 'Planeje de novo e revise.'),
    { details: { index, binding } },
  );
}

/**
 * A plan token applied before (its writes committed at `appliedAt`): refused before the script runs again, so the
 * message says what the caller needs to know, that the writes are in, and nothing ran now.
 */
export function planAlreadyApplied(writes: number, appliedAt: Date): ServiceError {
  const at = appliedAt.toISOString();
  const what = (en: boolean) =>
    writes === 0
      ? en
        ? 'it had no writes'
        : 'ele não tinha escritas'
      : en
        ? `its ${writes} write${writes === 1 ? ' was' : 's were'} committed then and ${writes === 1 ? 'is' : 'are'} in place (unless changed since)`
        : `${writes === 1 ? 'a sua escrita foi gravada' : `as suas ${writes} escritas foram gravadas`} naquele momento e ${writes === 1 ? 'está' : 'estão'} em vigor (salvo mudança posterior)`;
  const fix = l10n(
    'Nothing to do for this plan; to change more, run the script with mode "plan" again and apply the new token.',
    'Nada a fazer para este plano; para mudar mais, execute o script com mode "plan" de novo e aplique o novo token.',
  );
  const reason = l10n(
    `This plan was already applied at ${at}: ${what(true)}. Nothing was run now.`,
    `Este plano já foi aplicado em ${at}: ${what(false)}. Nada foi executado agora.`,
  );
  return new ServiceError('plan_already_applied', {
    message: l10n(`${reason['en-US']} ${fix['en-US']}`, `${reason['pt-BR']} ${fix['pt-BR']}`),
    resolution: fix,
    details: { appliedAt: at, writes },
  });
}

/** The writes made, in order, are not the planned ones (`planned` in the plan, `made` now). */
export function writesChanged(planned: number, made: number): ServiceError {
  return conflict(
    l10n(
      `The script's writes changed since it was planned (${planned} planned, ${made} now); nothing was applied.`,
      `As escritas do script mudaram desde o planejamento (${planned} planejadas, ${made} agora); nada foi aplicado.`,
    ),
    l10n('Plan again and review.', 'Planeje de novo e revise.'),
  );
}

/** The script's error message when it returned with `count` of its writes still running (the apply is refused). */
export function writesInFlightMessage(count: number, locale: Locale): string {
  return tr(
    locale,
    `The script ended while ${count} write${count === 1 ? ' it started was' : 's it started were'} still running; await every write. Nothing was applied.`,
    `O script terminou com ${count} escrita(s) iniciada(s) por ele ainda em andamento; aguarde (await) cada escrita. Nada foi aplicado.`,
  );
}

/** A token or API key whose effective scopes are empty may not run scripts at all. */
export function noUsableScope(credential: BearerCredential): ServiceError {
  const what = credential === 'api-key' ? ['This API key', 'Esta chave de API'] : ['This access token', 'Este token de acesso'];
  const fix = scopeFix(credential, 'files:read');
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `${what[0]} holds no usable scope. If the organization's maxScopes allows none, nothing can run scripts here until an owner or admin allows scopes (console, Agents and access). Otherwise: ${fix['en-US']}`,
      `${what[1]} não tem escopo utilizável. Se o maxScopes da organização não permite nenhum, nada pode executar scripts aqui até um proprietário ou administrador permitir escopos (console, Agentes e acesso). Senão: ${fix['pt-BR']}`,
    ),
    details: { requiredScope: 'files:read' },
  });
}

export function engineBusy(): ServiceError {
  return new ServiceError('engine_busy', {
    resolution: l10n(
      'Every sandbox is busy and the queue is full; retry in a moment.',
      'Todas as sandboxes estão ocupadas e a fila está cheia; tente de novo em instantes.',
    ),
    headers: { 'Retry-After': '1' },
  });
}

/** `seconds`: how long the quarantine still lasts, as the engine said. */
export function engineQuarantined(seconds: string): ServiceError {
  return new ServiceError('engine_quarantined', {
    resolution: l10n(
      `Scripts of this organization or of your account crashed the sandbox several times; retry in ${seconds} s with a script that stays within its limits.`,
      `Scripts desta organização ou da sua conta derrubaram a sandbox várias vezes; tente de novo em ${seconds} s com um script que respeite os limites.`,
    ),
    headers: { 'Retry-After': seconds },
  });
}

/** A script called a binding the registry does not hold. */
export function noSuchBinding(name: string): ServiceError {
  return new ServiceError('not_found', { resolution: l10n(`There is no binding ${name}.`, `Não existe o binding ${name}.`) });
}
