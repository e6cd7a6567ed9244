// upload: the command as help and completion see it; its body (upload-run.ts) is loaded only when it runs.
import { defineCommand, lazyRun } from '../command.ts';

export const uploadCommand = defineCommand({
  name: 'upload',
  args: '<path>',
  summary: [
    'Upload a file in 8 MiB parts, with progress; run again to resume',
    'Enviar um arquivo em partes de 8 MiB, com progresso; execute de novo para retomar',
  ],
  details: [
    'Parts are sent 4 at a time (--parallel), each with its SHA-256 (Content-Digest) so the server checks it. If the\nupload is interrupted (Ctrl-C, a network error, a crash), run the same command again: it asks the server which parts\nit already holds and sends only the others.\n\nExample: siglata upload backup.tar.gz --name backups/2026-11.tar.gz',
    'As partes vão 4 de cada vez (--parallel), cada uma com seu SHA-256 (Content-Digest) para o servidor conferir. Se o\nenvio for interrompido (Ctrl-C, erro de rede, queda), execute o mesmo comando de novo: ele pergunta ao servidor quais\npartes já estão lá e envia só as outras.\n\nExemplo: siglata upload backup.tar.gz --name backups/2026-11.tar.gz',
  ],
  options: {
    name: {
      type: 'string',
      placeholder: 'NAME',
      help: ["Name in the catalogue (default: the file's name; `/` makes folders)", 'Nome no catálogo (padrão: o nome do arquivo; `/` cria pastas)'],
    },
    type: {
      type: 'string',
      placeholder: 'MEDIA-TYPE',
      help: [
        'Media type (default: from the extension, else application/octet-stream)',
        'Tipo de mídia (padrão: pela extensão, senão application/octet-stream)',
      ],
    },
    parallel: { type: 'string', placeholder: 'N', help: ['Parts in flight, 1 to 16 (default 4)', 'Partes em paralelo, de 1 a 16 (padrão 4)'] },
  },
  positionals: { min: 1, max: 1, name: 'path' },
  run: lazyRun(async () => (await import('./upload-run.ts')).runUpload),
});
