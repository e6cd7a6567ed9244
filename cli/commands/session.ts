// login, logout and whoami.
import { defineCommand } from '../command.ts';
import { t } from '../i18n.ts';
import { usageError } from '../errors.ts';
import { saveLogin } from '../config.ts';
import type { CommandContext } from '../context.ts';

export const loginCommand = defineCommand({
  name: 'login',
  args: '',
  summary: ['Sign in through the browser (OAuth, PKCE) and store the tokens', 'Entrar pelo navegador (OAuth, PKCE) e guardar os tokens'],
  details: [
    'Prints an address to open in a browser, where you sign in and choose an organization; the browser then comes back to a\none-time listener on 127.0.0.1. Tokens are kept in the config directory (0600) and refreshed when needed.\n\nExample: siglata login --server https://workspace.example.com',
    'Mostra um endereço para abrir no navegador, onde você entra e escolhe uma organização; o navegador volta então a um\nreceptor temporário em 127.0.0.1. Os tokens ficam no diretório de configuração (0600) e são renovados quando preciso.\n\nExemplo: siglata login --server https://workspace.example.com',
  ],
  options: {
    scope: {
      type: 'string',
      placeholder: 'SCOPES',
      help: [
        'Scopes to ask for (space-separated; default: all the organization allows)',
        'Escopos pedidos (separados por espaço; padrão: todos que a organização permite)',
      ],
    },
    port: {
      type: 'string',
      placeholder: 'N',
      help: ['Port of the loopback listener (default: any free port)', 'Porta do receptor local (padrão: qualquer porta livre)'],
    },
    'no-browser': { type: 'boolean', help: ['Only print the address; do not try to open a browser', 'Só mostrar o endereço; não tentar abrir um navegador'] },
  },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx, values) {
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError('--port: a number from 0 to 65535');
    // `login --token T` (an API key, or a token from elsewhere): checked once, then stored like a sign-in, so later
    // commands need neither --token nor SIGLATA_TOKEN. It is never refreshed: when it ends, log in again.
    if (ctx.globals.token) {
      const server = await ctx.server();
      const context = (await (await ctx.api()).json('/app/v1/context')).body;
      const scope = Array.isArray(context?.scopes) ? context.scopes.join(' ') : '';
      await saveLogin({
        server,
        issuer: server,
        tokenEndpoint: '',
        revocationEndpoint: null,
        resource: `${server}/v1/mcp`,
        clientId: 'token',
        accessToken: ctx.globals.token,
        refreshToken: null,
        expiresAt: Number.MAX_SAFE_INTEGER,
        scope,
      });
      return signedIn(ctx, server, scope, context);
    }
    return browserLogin(ctx, { scope: values.scope as string | undefined, port, browser: !values['no-browser'] });
  },
});

/** The browser sign-in (OAuth, PKCE, loopback), then the signed-in line: `login`, and `org switch`/`create`. */
export async function browserLogin(ctx: CommandContext, options: { scope?: string; port?: number; browser: boolean }): Promise<number> {
  const api = await ctx.anonymous();
  const { login } = await import('../auth.ts');
  const stored = await login(api, { ...options, print: (line) => ctx.io.err(`${line}\n`) });
  const authed = await ctx.api();
  return signedIn(ctx, stored.server, stored.scope, (await authed.json('/app/v1/context')).body);
}

function signedIn(ctx: CommandContext, server: string, scope: string, context: any): number {
  if (ctx.json) ctx.printJson({ server, scope, context });
  else ctx.io.out(`${t('signedIn', { server, user: context?.user?.email ?? '?', organization: context?.organization?.slug ?? '?', scopes: scope })}\n`);
  return 0;
}

export const logoutCommand = defineCommand({
  name: 'logout',
  args: '',
  summary: ['Revoke the stored tokens and forget them', 'Revogar os tokens guardados e esquecê-los'],
  options: {},
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    const server = await ctx.server();
    const { logout } = await import('../auth.ts');
    const outcome = await logout(server);
    if (ctx.json) ctx.printJson({ server, outcome });
    else if (outcome === 'none') ctx.io.out(`${t('notLoggedIn', { server })}\n`);
    else if (outcome === 'revoked') ctx.io.out(`${t('loggedOut', { server })}\n`);
    if (outcome === 'unrevoked') ctx.io.err(`${t('loggedOutUnrevoked', { server })}\n`);
    return outcome === 'unrevoked' ? 1 : 0;
  },
});

export const whoamiCommand = defineCommand({
  name: 'whoami',
  args: '',
  summary: [
    'Show the user, organization, role, scopes and limits of the current credentials',
    'Mostrar usuário, organização, papel, escopos e limites das credenciais atuais',
  ],
  options: {},
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    const api = await ctx.api();
    ctx.printJson((await api.json('/app/v1/context')).body);
    return 0;
  },
});
