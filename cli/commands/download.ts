// download: the command as help and completion see it; its body (download-run.ts) is loaded only when it runs.
import { defineCommand, lazyRun } from '../command.ts';

export const downloadCommand = defineCommand({
  name: 'download',
  args: '<fileId | path>',
  summary: ['Download a file, with progress; run again to resume', 'Baixar um arquivo, com progresso; execute de novo para retomar'],
  details: [
    'Writes to <out>.part and renames it when complete and verified. After an interruption, the same command continues\nwhere it stopped (HTTP Range), unless the file changed on the server meanwhile.\nA file may be named by its path; a path several files share is an error listing their ids.\n\nExample: siglata download reports/2026/q3.xlsx -o q3.xlsx',
    'Grava em <saída>.part e renomeia quando completo e verificado. Após uma interrupção, o mesmo comando continua de onde\nparou (HTTP Range), a menos que o arquivo tenha mudado no servidor.\nUm arquivo pode ser indicado pelo caminho; um caminho compartilhado por vários arquivos é um erro que lista os ids.\n\nExemplo: siglata download relatorios/2026/t3.xlsx -o t3.xlsx',
  ],
  options: {
    output: {
      type: 'string',
      short: 'o',
      placeholder: 'PATH',
      help: [
        "Where to save (default: the file's name, in the current directory; - for stdout, not resumable, not with --json)",
        'Onde salvar (padrão: o nome do arquivo, no diretório atual; - para stdout, sem retomada, nem com --json)',
      ],
    },
  },
  positionals: { min: 1, max: 1, name: 'fileId | path' },
  run: lazyRun(async () => (await import('./download-run.ts')).runDownload),
});
