// What cp / sync say to a person, en-US and pt-BR side by side: the plan's words, the summary, and every refusal of
// a whole copy or of one entry with its resolution. `{name}` placeholders are filled from `vars`.
import { lang } from '../i18n.ts';

const TEXTS = {
  // The plan and the lines of a transfer.
  new: ['new', 'novo'],
  unchanged: ['unchanged', 'inalterado'],
  replace: ['replace', 'substituir'],
  'skip-existing': ['exists, skipped', 'existente, ignorado'],
  'skip-newer': ['newer at the destination, skipped', 'mais novo no destino, ignorado'],
  exists: ['exists', 'já existe'],
  trash: ['to trash', 'para a lixeira'],
  delete: ['delete', 'apagar'],
  'skip-link': ['link, skipped', 'link, ignorado'],
  refused: ['refused', 'recusado'],
  copied: ['copied', 'copiado'],
  trashed: ['trashed', 'na lixeira'],
  deleted: ['deleted', 'apagado'],
  failed: ['failed', 'falhou'],
  requests: ['requests', 'requisições'],
  resolution: ['resolution', 'solução'],
  files: ['files', 'arquivos'],
  linkNotice: [
    '{name}: symbolic link to {target}, not copied (--copy-links follows it, --links keeps it as a link)',
    '{name}: link simbólico para {target}, não copiado (--copy-links segue o link, --links o guarda como link)',
  ],
  // The summary line.
  summaryDone: ['{copied} copied', '{copied} copiado(s)'],
  summaryPlanned: ['{planned} to copy', '{planned} a copiar'],
  summaryRemoved: ['{deleted} removed', '{deleted} removido(s)'],
  summaryToRemove: ['{deleted} to remove', '{deleted} a remover'],
  summaryRest: [
    '{unchanged} unchanged, {skipped} skipped{links}, {failed} failed',
    '{unchanged} inalterado(s), {skipped} ignorado(s){links}, {failed} com falha',
  ],
  summaryLinks: [' ({links} link(s))', ' ({links} link(s))'],
  summaryMoved: ['{size} in {requests} request(s), {seconds} s', '{size} em {requests} requisição(ões), {seconds} s'],
  summaryToMove: [
    '{size} to transfer ({bytes} bytes); {requests} request(s), {seconds} s',
    '{size} a transferir ({bytes} bytes); {requests} requisição(ões), {seconds} s',
  ],
  // A whole copy refused.
  existsWithOther: ['"{name}" already exists with other content', '"{name}" já existe com outro conteúdo'],
  existsWithOtherHelp: ['Pass --overwrite to replace it or --skip-existing to keep it.', 'Use --overwrite para substituir ou --skip-existing para manter.'],
  noRemoteSource: ['no file of this name or in this folder', 'nenhum arquivo com este nome ou nesta pasta'],
  noRemoteSourceHelp: [
    'Check the path with `siglata ls --prefix …`; names are case-sensitive.',
    'Confira o caminho com `siglata ls --prefix …`; nomes diferenciam maiúsculas.',
  ],
  noLocalSourceHelp: ['Check the local path (and its permissions).', 'Confira o caminho local (e as permissões).'],
  noSuchPath: ['no such file or folder', 'não existe'],
  notReadable: ['permission denied', 'sem permissão de leitura'],
  notFileOrFolder: ['neither a regular file nor a folder', 'não é um arquivo comum nem uma pasta'],
  notAFolder: ['{path}: not a folder', '{path}: não é uma pasta'],
  notAFolderHelp: ['Copy into a folder (the destination of cp/sync is always a folder).', 'Copie para uma pasta (o destino de cp/sync é sempre uma pasta).'],
  // One entry refused.
  brokenLink: ['the link points at nothing ({target})', 'o link não aponta para nada ({target})'],
  linkLoop: ['the link leads back into a folder being copied ({target})', 'o link leva de volta a uma pasta sendo copiada ({target})'],
  unreadable: ['cannot read: {detail}', 'não foi possível ler: {detail}'],
  specialFile: ['not a regular file (a socket, pipe or device)', 'não é um arquivo comum (socket, pipe ou dispositivo)'],
  nameClash: ['"{rel}" and "{earlier}" are the same name on the service (Unicode NFC)', '"{rel}" e "{earlier}" são o mesmo nome no serviço (Unicode NFC)'],
  nameClashHelp: ['Rename one of them locally, or leave one out with --exclude.', 'Renomeie um dos dois localmente, ou deixe um de fora com --exclude.'],
  notReported: ["the server's answer did not report this file", 'a resposta do servidor não informou sobre este arquivo'],
  notInArchive: ['the archive did not hold this file', 'o arquivo não veio no pacote'],
  leavesFolder: ['the name would leave the destination folder', 'o nome sairia da pasta de destino'],
  fileAndFolder: [
    '"{rel}" is a file and also the folder of "{inside}"; a local folder cannot be both',
    '"{rel}" é um arquivo e também a pasta de "{inside}"; uma pasta local não pode ser as duas coisas',
  ],
  fileAndFolderHelp: [
    'The files inside the folder were copied; rename this one on the service to copy it too.',
    'Os arquivos dentro da pasta foram copiados; renomeie este no serviço para copiá-lo também.',
  ],
  caseTwins: ['the local file system does not tell "{rel}" from "{twin}"', 'o sistema de arquivos local não distingue "{rel}" de "{twin}"'],
  caseTwinsHelp: [
    'Copy to a case-sensitive file system, or rename one of them on the service.',
    'Copie para um sistema de arquivos que distinga maiúsculas, ou renomeie um dos dois no serviço.',
  ],
  nameTooLong: [
    'the local file system cannot hold this name (a segment of {bytes} bytes; the limit is usually 255)',
    'o sistema de arquivos local não comporta este nome (um trecho de {bytes} bytes; o limite costuma ser 255)',
  ],
  nameTooLongHelp: [
    'Rename the file on the service (siglata exec with files_update) or leave it out with --exclude.',
    'Renomeie o arquivo no serviço (siglata exec com files_update) ou deixe-o de fora com --exclude.',
  ],
  pathInTheWay: ['a file and a folder contend for this path in the local folder', 'um arquivo e uma pasta disputam este caminho na pasta local'],
  pathInTheWayHelp: [
    'Move or rename what holds the path locally, or leave this file out with --exclude.',
    'Mova ou renomeie o que ocupa o caminho localmente, ou deixe este arquivo de fora com --exclude.',
  ],
  nameRefused: ['the local file system refuses this name', 'o sistema de arquivos local recusa este nome'],
  nameRefusedHelp: ['Leave the file out with --exclude, or rename it on the service.', 'Deixe o arquivo de fora com --exclude, ou renomeie-o no serviço.'],
  diskFull: ['no space left on the local disk', 'sem espaço no disco local'],
  unwritable: ['cannot write: {detail}', 'não foi possível gravar: {detail}'],
  unwritableHelp: ['Check the permissions of the destination folder.', 'Confira as permissões da pasta de destino.'],
  contentMismatch: ['the content received does not check out', 'o conteúdo recebido não confere'],
} as const satisfies Record<string, readonly [string, string]>;

export type TransferText = keyof typeof TEXTS;

export function say(key: TransferText, vars: Record<string, string | number> = {}): string {
  const text: string = TEXTS[key][lang() === 'pt-BR' ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
