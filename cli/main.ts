// siglata: the command line. Parses `siglata [global options] <command> [options] [arguments]`, prints help from the
// command declarations, runs the command, and turns every failure into code + message + resolution on stderr.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import type { Command, OptionSpec } from './command.ts';
import { CommandContext, type Io } from './context.ts';
import { CliError, describeError, usageError } from './errors.ts';
import { lang, parseLang, setLang, t } from './i18n.ts';
import { loginCommand, logoutCommand, whoamiCommand } from './commands/session.ts';
import { execCommand } from './commands/exec.ts';
import { uploadCommand } from './commands/upload.ts';
import { downloadCommand } from './commands/download.ts';
import { infoCommand, lsCommand, restoreCommand, rmCommand, trashCommand } from './commands/files.ts';
import { askCommand, searchCommand } from './commands/lookup.ts';
import { keysCommand } from './commands/keys.ts';
import { cpCommand, syncCommand } from './commands/cp.ts';
import { completionCommand } from './commands/completion.ts';
import { orgCommand } from './commands/org.ts';
import { closest } from './suggest.ts';

export const COMMANDS: readonly Command[] = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  execCommand,
  uploadCommand,
  downloadCommand,
  cpCommand,
  syncCommand,
  lsCommand,
  infoCommand,
  trashCommand,
  restoreCommand,
  rmCommand,
  searchCommand,
  askCommand,
  keysCommand,
  orgCommand,
  completionCommand(() => ({ commands: COMMANDS, globals: GLOBAL_OPTIONS })),
];

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  server: {
    type: 'string',
    placeholder: 'URL',
    help: ['Service address (default: SIGLATA_SERVER, else the last sign-in)', 'Endereço do serviço (padrão: SIGLATA_SERVER, senão o último acesso)'],
  },
  token: {
    type: 'string',
    placeholder: 'TOKEN',
    help: ['Access token to use instead of the stored sign-in (or SIGLATA_TOKEN)', 'Token de acesso a usar no lugar do acesso guardado (ou SIGLATA_TOKEN)'],
  },
  profile: {
    type: 'string',
    placeholder: 'NAME',
    help: [
      'Use a named profile: its own sign-ins and current server (or SIGLATA_PROFILE)',
      'Usar um perfil com nome: acessos e servidor atual próprios (ou SIGLATA_PROFILE)',
    ],
  },
  lang: {
    type: 'string',
    placeholder: 'LANG',
    help: ['Language of messages: en-US or pt-BR (or SIGLATA_LANG)', 'Idioma das mensagens: en-US ou pt-BR (ou SIGLATA_LANG)'],
  },
  json: { type: 'boolean', help: ['Print results as JSON', 'Mostrar resultados como JSON'] },
  help: { type: 'boolean', short: 'h', help: ['Show help', 'Mostrar ajuda'] },
  version: { type: 'boolean', help: ['Show the version', 'Mostrar a versão'] },
};

const pick = (pair: readonly [string, string]) => pair[lang() === 'pt-BR' ? 1 : 0];

function optionLines(options: Record<string, OptionSpec>): string[] {
  const entries = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.placeholder ?? 'VALUE'}` : ''}`;
    return [flag, pick(o.help)] as const;
  });
  const width = Math.max(...entries.map(([f]) => f.length));
  return entries.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`);
}

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `${t('usage')}: siglata [--server URL] <command> [options]`,
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${pick(c.summary)}`),
    '',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    lang() === 'pt-BR' ? 'Ajuda de um comando: siglata <comando> --help' : 'Help on a command: siglata <command> --help',
  ].join('\n');
}

export function commandHelp(c: Command): string {
  return [
    `${t('usage')}: siglata ${c.name}${c.args ? ` ${c.args}` : ''}${Object.keys(c.options).length ? ' [options]' : ''}`,
    '',
    pick(c.summary),
    ...(c.details ? ['', pick(c.details)] : []),
    '',
    ...optionLines({ ...c.options, ...GLOBAL_OPTIONS }),
  ].join('\n');
}

/** Index of the command word: the first argument that is neither an option nor a global option's value. */
function commandIndex(args: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (!a.startsWith('-') || a === '-') return i;
    const name = a.replace(/^--?/, '');
    if (GLOBAL_OPTIONS[name]?.type === 'string') i++;
  }
  return -1;
}

/** Commands of rclone (and the shell) whose siglata counterpart has another name: suggested, never run in their stead. */
const RCLONE_WORDS: Record<string, string> = {
  copy: 'cp',
  copyto: 'cp',
  lsl: 'ls',
  lsf: 'ls',
  lsjson: 'ls',
  delete: 'trash',
  deletefile: 'trash',
  cat: 'download',
  config: 'login',
};

/**
 * For an option parseArgs does not know: the option meant (this command's or a global one, by spelling), or the
 * commands that do take it. Null for other parse errors, whose own message is already precise.
 */
function unknownOptionDetail(err: NodeJS.ErrnoException, command: Command | undefined): string | null {
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return null;
  const typed = /'(-{1,2}[^'=\s]+)/.exec(err.message)?.[1];
  if (!typed) return null;
  const long = typed.startsWith('--');
  const bare = typed.replace(/^-+/, '');
  const mine = { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) };
  if (!long) {
    const shorts = Object.entries(mine).filter(([, o]) => o.short);
    const upper = shorts.find(([, o]) => o.short!.toLowerCase() === bare.toLowerCase());
    return upper ? `${t('unknownOption', { option: typed })}; ${t('didYouMean', { word: `-${upper[1].short}` })}` : t('unknownOption', { option: typed });
  }
  const guess = closest(bare, Object.keys(mine));
  if (guess) return `${t('unknownOption', { option: typed })}; ${t('didYouMean', { word: `--${guess}` })}`;
  const owners = COMMANDS.filter((c) => c !== command && bare in c.options).map((c) => c.name);
  if (owners.length) return `${t('unknownOption', { option: typed })}; ${t('optionOfOthers', { option: typed, commands: owners.join(', ') })}`;
  return t('unknownOption', { option: typed });
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[], io: Io): Promise<number> {
  setLang(parseLang(process.env.SIGLATA_LANG) ?? 'en-US');
  let ctx: CommandContext | null = null;
  // Known before parsing, so that even a usage error answers in JSON when JSON was asked for.
  const end = argv.indexOf('--');
  let json = (end < 0 ? argv : argv.slice(0, end)).includes('--json');
  try {
    const at = commandIndex(argv);
    const name = at >= 0 ? argv[at] : undefined;
    const command = name === undefined ? undefined : COMMANDS.find((c) => c.name === name);
    const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 1)] : argv;
    const options = { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) };
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    } catch (err) {
      // The language may be on the same line as the mistake; honour it for the message.
      const langArg = argv.find((a) => a.startsWith('--lang='))?.slice(7) ?? argv[argv.indexOf('--lang') + 1];
      if (parseLang(langArg)) setLang(parseLang(langArg)!);
      const detail = unknownOptionDetail(err as NodeJS.ErrnoException, command) ?? (err as Error).message;
      throw usageError(t('badOption', { detail, command: command?.name ?? '' }).replace(/ {2,}/g, ' '));
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    json = Boolean(values.json);
    if (values.lang !== undefined) {
      const chosen = parseLang(String(values.lang));
      if (!chosen) throw usageError('--lang: en-US or pt-BR');
      setLang(chosen);
    }
    if (values.profile !== undefined) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(String(values.profile))) throw usageError('--profile: letters, digits, - and _ (at most 64)');
      process.env.SIGLATA_PROFILE = String(values.profile); // read by config.ts for every file it opens
    }
    if (values.version) {
      io.out(`${version()}\n`);
      return 0;
    }
    if (name !== undefined && !command) {
      const guess =
        (Object.hasOwn(RCLONE_WORDS, name) ? RCLONE_WORDS[name] : null) ??
        closest(
          name,
          COMMANDS.map((c) => c.name),
        );
      throw usageError(guess ? t('unknownCommandGuess', { name, guess }) : t('unknownCommand', { name }));
    }
    if (!command) {
      (values.help ? io.out : io.err)(`${mainHelp()}\n`);
      return values.help ? 0 : 2;
    }
    if (values.help) {
      io.out(`${commandHelp(command)}\n`);
      return 0;
    }
    const positionals = parsed.positionals;
    if (positionals.length < command.positionals.min) throw usageError(t('missingArgument', { what: `<${command.positionals.name}>`, command: command.name }));
    if (command.positionals.max !== undefined && positionals.length > command.positionals.max)
      throw usageError(t('badOption', { detail: `unexpected argument "${positionals[command.positionals.max]}"`, command: command.name }));

    ctx = new CommandContext({ server: values.server as string | undefined, token: values.token as string | undefined, json: Boolean(values.json) }, io);
    const current = ctx;
    const onSigint = () => {
      if (current.interrupt.signal.aborted) process.exit(130); // a second Ctrl-C: leave now
      current.interrupt.abort(new CliError('interrupted', t('interrupted'), { exitCode: 130 }));
    };
    process.on('SIGINT', onSigint);
    try {
      return await command.run(ctx, values, positionals);
    } finally {
      process.off('SIGINT', onSigint);
    }
  } catch (err) {
    // With --json, every failure is also one JSON object on stdout ({ error: { code, message, resolution? } }).
    const failure = err instanceof CliError ? err : new CliError('internal_error', String((err as Error)?.message ?? err));
    if (json) io.out(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
    if (failure.code === 'interrupted') io.err(`\n${failure.message}\n`);
    else if (err instanceof CliError) io.err(`${describeError(failure)}\n`);
    else io.err(`${t('error')}: ${(err as Error)?.stack ?? String(err)}\n`);
    return failure.exitCode;
  }
}
