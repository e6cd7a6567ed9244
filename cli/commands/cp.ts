// cp and sync as help and completion see them; their body (cp-run.ts) is loaded only when one runs.
import { defineCommand, lazyRun, type Command } from '../command.ts';
import type { Existing } from '../transfer/plan.ts';

function transferCommand(name: 'cp' | 'sync', defaultExisting: Existing): Command {
  const pt = (en: string, ptText: string) => [en, ptText] as const;
  return defineCommand({
    name,
    args: '<source> <destination>',
    summary:
      name === 'cp'
        ? pt(
            'Copy files between a local folder and remote:PATH, either way, recursively',
            'Copiar arquivos entre uma pasta local e remote:CAMINHO, nos dois sentidos, recursivamente',
          )
        : pt(
            'Make remote:PATH match a local folder (or the reverse): new and changed files are copied',
            'Fazer remote:CAMINHO igual a uma pasta local (ou o contrário): arquivos novos e alterados são copiados',
          ),
    details: pt(
      `One side is local, the other remote:PATH (a folder, or one file). As in rclone, a file of the same size and\nmodification time (within --modify-window) is unchanged; when only the time differs the CRC-32 decides (same content:\nonly the time is set); --checksum, --size-only, --ignore-times and --update change the rule. A name that exists with other content is ${defaultExisting === 'overwrite' ? 'replaced (the old copy goes to the trash)' : 'an error unless --overwrite (the old copy goes to the trash) or --skip-existing'}.\nSmall files travel as one tar archive each way; files over 8 MiB in parallel parts, resumable. Times and the\nexecutable bit are kept. Symbolic links are reported and left\nout unless --copy-links (follow) or --links (keep as links). An entry that cannot be copied is reported with the\nreason and the rest still copies; the exit status is then 1.${name === 'sync' ? '\nFiles only the destination has are kept unless --delete (like rclone sync): remote ones go to the trash, local ones\nare deleted; --dry-run lists them.' : ''}\n\nExamples:\n  siglata ${name} ./reports remote:reports/ --include "*.csv" --dry-run\n  siglata ${name} remote:reports/ ./reports-copy${name === 'sync' ? '\n  siglata sync ./reports remote:reports/ --delete --dry-run' : ''}`,
      `Um lado é local, o outro remote:CAMINHO (uma pasta, ou um arquivo). Como no rclone, um arquivo de mesmo\ntamanho e hora de modificação (dentro de --modify-window) está inalterado; se só a hora difere, o CRC-32 decide (mesmo\nconteúdo: só a hora é ajustada); --checksum, --size-only, --ignore-times e --update mudam a regra. Um nome que existe com outro conteúdo ${defaultExisting === 'overwrite' ? 'é substituído (a cópia antiga vai para a lixeira)' : 'é um erro, a menos que --overwrite (a cópia antiga vai para a lixeira) ou --skip-existing'}.\nArquivos pequenos vão num único pacote tar em cada sentido; os de mais de 8 MiB em partes paralelas, com retomada.\nHora e bit de execução são mantidos. Links simbólicos são\navisados e ficam de fora, a menos que --copy-links (seguir) ou --links (manter como links). Uma entrada que não\npode ser copiada é informada com o motivo e o resto é copiado; o código de saída é então 1.${name === 'sync' ? '\nArquivos que só o destino tem ficam, a menos que --delete (como o rclone sync): os remotos vão para a lixeira, os\nlocais são apagados; --dry-run os lista.' : ''}\n\nExemplos:\n  siglata ${name} ./relatorios remote:relatorios/ --include "*.csv" --dry-run\n  siglata ${name} remote:relatorios/ ./copia${name === 'sync' ? '\n  siglata sync ./relatorios remote:relatorios/ --delete --dry-run' : ''}`,
    ),
    options: {
      include: {
        type: 'string',
        multiple: true,
        placeholder: 'GLOB',
        help: pt(
          'Only paths matching GLOB (repeatable; * ** ?; a pattern without / matches base names)',
          'Só caminhos que casam com GLOB (repetível; * ** ?; um padrão sem / casa com o nome base)',
        ),
      },
      exclude: {
        type: 'string',
        multiple: true,
        placeholder: 'GLOB',
        help: pt('Leave out paths matching GLOB (repeatable)', 'Deixar de fora caminhos que casam com GLOB (repetível)'),
      },
      'dry-run': {
        type: 'boolean',
        short: 'n',
        help: pt('Show what would be copied and how many bytes; change nothing', 'Mostrar o que seria copiado e quantos bytes; não alterar nada'),
      },
      links: {
        type: 'boolean',
        short: 'l',
        help: pt(
          'Keep symbolic links as links: stored as NAME.rclonelink files holding the target, made links again on the way down',
          'Manter links simbólicos como links: guardados como arquivos NOME.rclonelink com o destino, refeitos como links na volta',
        ),
      },
      'copy-links': {
        type: 'boolean',
        short: 'L',
        help: pt('Follow symbolic links and copy what they point at', 'Seguir links simbólicos e copiar aquilo para que apontam'),
      },
      checksum: {
        type: 'boolean',
        short: 'c',
        help: pt('Judge files by size and checksum (CRC-32), not by time', 'Julgar arquivos por tamanho e soma de verificação (CRC-32), não pela hora'),
      },
      'size-only': { type: 'boolean', help: pt('Judge files by size alone', 'Julgar arquivos só pelo tamanho') },
      'ignore-times': {
        type: 'boolean',
        short: 'I',
        help: pt('Copy every file, whatever its size and time', 'Copiar todo arquivo, sejam quais forem tamanho e hora'),
      },
      update: {
        type: 'boolean',
        short: 'u',
        help: pt('Keep destination files newer than the source', 'Manter arquivos do destino mais novos que a origem'),
      },
      'modify-window': {
        type: 'string',
        placeholder: 'DURATION',
        help: pt(
          'Times closer than this are equal (default 1s: archives keep whole seconds)',
          'Horas mais próximas que isto são iguais (padrão 1s: pacotes guardam segundos inteiros)',
        ),
      },
      overwrite: { type: 'boolean', help: pt('Replace names that exist with other content', 'Substituir nomes que existem com outro conteúdo') },
      'skip-existing': {
        type: 'boolean',
        help: pt('Keep names that already exist, whatever their content', 'Manter nomes que já existem, seja qual for o conteúdo'),
      },
      'ignore-existing': { type: 'boolean', help: pt("rclone's name for --skip-existing", 'o nome do rclone para --skip-existing') },
      verbose: { type: 'boolean', short: 'v', help: pt('Show the requests each file cost', 'Mostrar as requisições que cada arquivo custou') },
      // Only sync mirrors: cp never removes anything, so it does not take the option at all.
      ...(name === 'sync'
        ? ({
            delete: {
              type: 'boolean',
              help: pt(
                'Also remove destination files the source lacks (remote: to the trash, restorable for 30 days; local: deleted). Filters apply: excluded files are kept. Try with --dry-run first',
                'Também remover do destino arquivos que a origem não tem (remoto: para a lixeira, restauráveis por 30 dias; local: apagados). Filtros valem: arquivos excluídos ficam. Teste antes com --dry-run',
              ),
            },
          } as const)
        : {}),
    },
    positionals: { min: 2, max: 2, name: 'source> <destination' },
    run: lazyRun(async () => (await import('./cp-run.ts')).transferRun(name, defaultExisting)),
  });
}

export const cpCommand = transferCommand('cp', 'fail');
export const syncCommand = transferCommand('sync', 'overwrite');
