// What every command gets: the chosen server, an authenticated client, output streams and the --json switch.
import { Api } from './http.ts';
import { CliError } from './errors.ts';
import { t } from './i18n.ts';
import { currentServer, loadLogin } from './config.ts';

/** How the service marks an organization API key (never a person's token). */
const API_KEY_PREFIX = 'slk_';

export interface GlobalOptions {
  server?: string;
  token?: string;
  json: boolean;
}

export interface Io {
  /** Returns false when the stream wants a drain before more (process.stdout.write). */
  out: (data: string | Buffer) => boolean | void;
  err: (text: string) => void;
  stdin: NodeJS.ReadableStream;
  stderrIsTTY: boolean;
}

export class CommandContext {
  readonly globals: GlobalOptions;
  readonly io: Io;
  /** Aborted on Ctrl-C: long transfers stop, save their state and exit 130. */
  readonly interrupt = new AbortController();

  constructor(globals: GlobalOptions, io: Io) {
    this.globals = globals;
    this.io = io;
  }

  get json(): boolean {
    return this.globals.json;
  }

  /** --server, else SIGLATA_SERVER, else the server of the last sign-in. */
  async server(): Promise<string> {
    // An empty variable (SIGLATA_SERVER= in a CI file) counts as unset, as shells treat it.
    const chosen = this.globals.server || process.env.SIGLATA_SERVER || (await currentServer());
    if (!chosen) throw new CliError('no_server', t('noServer'), { resolution: t('noServerHelp'), exitCode: 2 });
    let url: URL;
    try {
      url = new URL(chosen);
    } catch {
      throw new CliError('usage', `--server: not a URL: ${chosen}`, { exitCode: 2 });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('usage', `--server: must be http(s): ${chosen}`, { exitCode: 2 });
    return url.origin + url.pathname.replace(/\/+$/, '');
  }

  /** A client without credentials (discovery, /ask, sign-in). */
  async anonymous(): Promise<Api> {
    return this.withNotices(new Api(await this.server(), null));
  }

  /**
   * Where this command's credential comes from (--token / SIGLATA_TOKEN, else the stored sign-in), and whether it is
   * an organization API key (`slk_…`), which stands for its organization rather than a person.
   */
  async credential(): Promise<{ source: 'option' | 'stored' | null; apiKey: boolean }> {
    const given = this.globals.token || process.env.SIGLATA_TOKEN;
    const token = given || (await loadLogin(await this.server()))?.accessToken;
    return { source: given ? 'option' : token ? 'stored' : null, apiKey: Boolean(token?.startsWith(API_KEY_PREFIX)) };
  }

  /** A client with the --token / SIGLATA_TOKEN token, else the stored sign-in for the server. */
  async api(): Promise<Api> {
    const server = await this.server();
    const token = this.globals.token || process.env.SIGLATA_TOKEN;
    // auth.ts (node:http, node:crypto, node:child_process for the browser sign-in) loads only for a command that calls.
    const { fixedToken, storedTokens } = await import('./auth.ts');
    if (token) return this.withNotices(new Api(server, fixedToken(token)));
    const login = await loadLogin(server);
    if (!login) throw new CliError('not_signed_in', t('notSignedIn', { server }), { resolution: t('notSignedInHelp', { server }), exitCode: 1 });
    return this.withNotices(new Api(server, storedTokens(server, login)));
  }

  private withNotices(api: Api): Api {
    api.onNotice = (text) => this.io.err(`${text}\n`);
    return api;
  }

  /** Print a value as JSON on stdout. */
  printJson(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }
}
