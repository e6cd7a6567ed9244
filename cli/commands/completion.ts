// completion: shell completion scripts for bash, zsh and fish, generated from the command declarations (so a new
// command or option completes without touching this file).
import { defineCommand, type Command, type OptionSpec } from '../command.ts';
import { usageError } from '../errors.ts';

const flags = (options: Record<string, OptionSpec>) => Object.keys(options).map((o) => `--${o}`);

function bash(commands: readonly Command[], globals: Record<string, OptionSpec>): string {
  const cases = commands.map((c) => `    ${c.name}) opts="${[...flags(c.options), ...flags(globals)].join(' ')}" ;;`).join('\n');
  return `# siglata completion for bash: eval "$(siglata completion bash)"
_siglata() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')} ${flags(globals).join(' ')}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o default -F _siglata siglata
`;
}

function zsh(commands: readonly Command[], globals: Record<string, OptionSpec>): string {
  return `#compdef siglata
# siglata completion for zsh: eval "$(siglata completion zsh)" (uses bash completion through bashcompinit)
autoload -U +X bashcompinit && bashcompinit
${bash(commands, globals).split('\n').slice(1).join('\n')}`;
}

function fish(commands: readonly Command[], globals: Record<string, OptionSpec>, english: (p: readonly [string, string]) => string): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = ['# siglata completion for fish: siglata completion fish | source', 'complete -c siglata -f'];
  for (const c of commands) lines.push(`complete -c siglata -n __fish_use_subcommand -a ${c.name} -d ${quote(english(c.summary))}`);
  for (const c of commands) {
    for (const [name, o] of Object.entries(c.options))
      lines.push(`complete -c siglata -n '__fish_seen_subcommand_from ${c.name}' -l ${name}${o.type === 'string' ? ' -r' : ''} -d ${quote(english(o.help))}`);
  }
  for (const [name, o] of Object.entries(globals)) lines.push(`complete -c siglata -l ${name}${o.type === 'string' ? ' -r' : ''} -d ${quote(english(o.help))}`);
  return `${lines.join('\n')}\n`;
}

/** What completion is generated from; given by whoever lists the commands, which include this one. */
export interface Catalogue {
  commands: readonly Command[];
  globals: Record<string, OptionSpec>;
}

export const completionCommand = (catalogue: () => Catalogue) =>
  defineCommand({
    name: 'completion',
    args: '<bash | zsh | fish>',
    summary: ['Print a shell completion script', 'Mostrar um script de completamento para o shell'],
    details: [
      'With --json: { shell, script }, for tools that install the script.\n\nExamples:\n  eval "$(siglata completion bash)"    # in ~/.bashrc\n  eval "$(siglata completion zsh)"     # in ~/.zshrc\n  siglata completion fish > ~/.config/fish/completions/siglata.fish',
      'Com --json: { shell, script }, para ferramentas que instalam o script.\n\nExemplos:\n  eval "$(siglata completion bash)"    # no ~/.bashrc\n  eval "$(siglata completion zsh)"     # no ~/.zshrc\n  siglata completion fish > ~/.config/fish/completions/siglata.fish',
    ],
    options: {},
    positionals: { min: 1, max: 1, name: 'shell' },
    async run(ctx, _values, [shell]) {
      const { commands, globals } = catalogue();
      const script =
        shell === 'bash' ? bash(commands, globals) : shell === 'zsh' ? zsh(commands, globals) : shell === 'fish' ? fish(commands, globals, (p) => p[0]) : null;
      if (script === null) throw usageError(`completion: bash, zsh or fish (not ${shell})`);
      // --json wraps the script for tools that install it; a shell wants the plain text.
      if (ctx.json) ctx.printJson({ shell, script });
      else ctx.io.out(script);
      return 0;
    },
  });
