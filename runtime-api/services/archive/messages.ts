// What archive import and export say, in both languages side by side: why one entry was refused (the entry's
// `message`), why a whole import or export was refused, and what an export's download refuses.
import { ServiceError, conflict, l10n, type Localized } from '../../errors.ts';

/** How many refused entries an aborted import lists in its error (all of them are counted). */
const REFUSED_LISTED = 100;

// --- one entry ---

export const entryTexts = {
  controlCharacter: () => l10n('The path contains a control character.', 'O caminho contém um caractere de controle.'),
  backslash: () =>
    l10n(
      'The path contains a backslash; archives separate folders with `/`.',
      'O caminho contém uma barra invertida; arquivos compactados separam pastas com `/`.',
    ),
  absolute: () =>
    l10n('The path is absolute; entries must be relative to the archive.', 'O caminho é absoluto; as entradas devem ser relativas ao arquivo compactado.'),
  climbsOut: () => l10n('The path climbs out of the archive with `..`.', 'O caminho sai do arquivo compactado com `..`.'),
  emptySegment: () =>
    l10n('The path has an empty or `.` segment (such as `a//b` or `a/./b`).', 'O caminho tem um segmento vazio ou `.` (como `a//b` ou `a/./b`).'),
  emptyName: () => l10n('The entry has no name.', 'A entrada não tem nome.'),
  notWellFormed: () => l10n('The path is not well-formed Unicode.', 'O caminho não é Unicode bem formado.'),
  bidi: () => l10n('The path contains a bidirectional control character.', 'O caminho contém um caractere de controle bidirecional.'),
  whitespace: () => l10n('A segment of the path starts or ends with whitespace.', 'Um segmento do caminho começa ou termina com espaço em branco.'),
  invalidName: (problem: string) => l10n(`Not a valid file name: ${problem}.`, `Não é um nome de arquivo válido: ${problem}.`),
  tooLong: (chars: number, max: number) =>
    l10n(
      `The path has ${chars} characters (\`into\` included); at most ${max} are allowed.`,
      `O caminho tem ${chars} caracteres (com \`into\`); o máximo é ${max}.`,
    ),
  duplicate: () =>
    l10n(
      'An earlier entry has the same path (compared after Unicode NFC normalization, case-sensitive).',
      'Uma entrada anterior tem o mesmo caminho (comparado após a normalização Unicode NFC, diferenciando maiúsculas).',
    ),
  entryIsFolder: (other: string) =>
    l10n(`Another entry, \`${other}\`, uses this path as a folder.`, `Outra entrada, \`${other}\`, usa este caminho como pasta.`),
  entryIsFile: (other: string) =>
    l10n(
      `This path needs \`${other}\` as a folder, but another entry is a file there.`,
      `Este caminho precisa de \`${other}\` como pasta, mas outra entrada é um arquivo ali.`,
    ),
  existingIsFile: (other: string) =>
    l10n(
      `This path needs \`${other}\` as a folder, but an active file has that name.`,
      `Este caminho precisa de \`${other}\` como pasta, mas um arquivo ativo tem esse nome.`,
    ),
  existingIsFolder: () =>
    l10n('Active files lie under this path: it is a folder, not a file.', 'Há arquivos ativos sob este caminho: ele é uma pasta, não um arquivo.'),
  symlink: () => l10n('Symbolic links are not imported.', 'Links simbólicos não são importados.'),
  hardlink: () => l10n('Hard links are not imported.', 'Links físicos não são importados.'),
  special: (kind: string) =>
    l10n(
      `Special files (${kind}) are not imported; only regular files and folders are.`,
      `Arquivos especiais (${kind}) não são importados; só arquivos comuns e pastas.`,
    ),
  ratio: (ratio: number, max: number) =>
    l10n(
      `The entry expands ${Math.round(ratio)} times its compressed size; at most ${max} is allowed (a zip bomb).`,
      `A entrada se expande ${Math.round(ratio)} vezes o tamanho comprimido; o máximo é ${max} (uma bomba zip).`,
    ),
  encrypted: () => l10n('The entry is encrypted.', 'A entrada está criptografada.'),
  compression: (method: number) =>
    l10n(
      `The entry uses compression method ${method}; only stored and deflated entries are read.`,
      `A entrada usa o método de compressão ${method}; só entradas armazenadas ou com deflate são lidas.`,
    ),
  corrupt: (detail: string) => l10n(`The entry's data is damaged (${detail}).`, `Os dados da entrada estão danificados (${detail}).`),
} satisfies Record<string, (...args: never[]) => Localized>;

// --- a whole import ---

export function notAnArchive(): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      '`uploadId`: the upload is neither a tar archive (optionally gzip-compressed) nor a zip archive.',
      '`uploadId`: o envio não é um arquivo tar (com ou sem gzip) nem um arquivo zip.',
    ),
  });
}

export function formatMismatch(asked: string, found: string): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`format\`: the upload is a ${found} archive, not ${asked}; pass format "${found}" or leave it out.`,
      `\`format\`: o envio é um arquivo ${found}, não ${asked}; passe format "${found}" ou omita-o.`,
    ),
  });
}

export function corruptArchive(format: string, detail: string): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`uploadId\`: the ${format} archive is damaged or truncated (${detail}); nothing was imported.`,
      `\`uploadId\`: o arquivo ${format} está danificado ou truncado (${detail}); nada foi importado.`,
    ),
  });
}

export function overlappingEntries(): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      "`uploadId`: entries of the zip archive share their data (a zip bomb's trick); nothing was imported.",
      '`uploadId`: entradas do arquivo zip compartilham os mesmos dados (o truque de uma bomba zip); nada foi importado.',
    ),
  });
}

export function tooManyEntries(max: number): ServiceError {
  return new ServiceError('payload_too_large', {
    message: l10n(`The archive holds more than ${max} entries.`, `O arquivo compactado tem mais de ${max} entradas.`),
    resolution: l10n(`Split it into archives of at most ${max} entries each.`, `Divida-o em arquivos de no máximo ${max} entradas cada.`),
    details: { maxEntries: max },
  });
}

export function expandsTooMuch(bytes: number, max: number): ServiceError {
  return new ServiceError('payload_too_large', {
    message: l10n(`The archive expands to more than ${max} bytes.`, `O arquivo compactado se expande para mais de ${max} bytes.`),
    resolution: l10n(
      `Split it into archives that expand to at most ${max} bytes each.`,
      `Divida-o em arquivos que se expandam para no máximo ${max} bytes cada.`,
    ),
    details: { expandedBytes: bytes, maxExpandedBytes: max },
  });
}

export function ratioTooHigh(ratio: number, max: number): ServiceError {
  return new ServiceError('payload_too_large', {
    message: l10n(
      `The archive expands ${Math.round(ratio)} times its own size; at most ${max} is allowed (a zip bomb).`,
      `O arquivo compactado se expande ${Math.round(ratio)} vezes o próprio tamanho; o máximo é ${max} (uma bomba zip).`,
    ),
    resolution: l10n(
      'Send the files in an archive that is less compressed, or in several.',
      'Envie os arquivos num arquivo compactado menos comprimido, ou em vários.',
    ),
    details: { maxRatio: max },
  });
}

export function invalidInto(problem: Localized): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(`\`into\`: ${problem['en-US']}`, `\`into\`: ${problem['pt-BR']}`),
  });
}

export interface RefusedEntry {
  path: string;
  code: string;
  message: string;
}

/** onError "abort" and some entry was refused: nothing was written. */
export function entriesRefused(refused: readonly RefusedEntry[]): ServiceError {
  const first = refused[0];
  return new ServiceError('invalid_input', {
    message: l10n(
      `${refused.length} entr${refused.length === 1 ? 'y' : 'ies'} of the archive cannot be imported; nothing was imported.`,
      `${refused.length} entrada(s) do arquivo compactado não pode(m) ser importada(s); nada foi importado.`,
    ),
    resolution: l10n(
      `\`${first.path}\`: ${first.code}. Fix the archive, or pass onError "skip" to import the other entries (see \`refused\`).`,
      `\`${first.path}\`: ${first.code}. Corrija o arquivo compactado, ou passe onError "skip" para importar as outras entradas (veja \`refused\`).`,
    ),
    details: { refused: refused.slice(0, REFUSED_LISTED), refusedCount: refused.length },
  });
}

// --- exports ---

export function exportTooLarge(max: number): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `The selection holds more than ${max} files; export a narrower \`prefix\` or fewer \`fileIds\`.`,
      `A seleção tem mais de ${max} arquivos; exporte um \`prefix\` mais estreito ou menos \`fileIds\`.`,
    ),
  });
}

export function exportFileNotActive(fileId: string): ServiceError {
  const reason = l10n(
    `No active file ${fileId} in this organization (an archive holds active files only).`,
    `Não há arquivo ativo ${fileId} nesta organização (um arquivo compactado só leva arquivos ativos).`,
  );
  return new ServiceError('not_found', { message: reason, resolution: reason });
}

export function exportOutsidePrefix(fileId: string, name: string, prefix: string): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`fileIds\`: ${fileId} (\`${name}\`) is not under the folder \`${prefix}\`; leave \`prefix\` out or pick files under it.`,
      `\`fileIds\`: ${fileId} (\`${name}\`) não está sob a pasta \`${prefix}\`; omita \`prefix\` ou escolha arquivos sob ela.`,
    ),
  });
}

export function exportPathClash(path: string): ServiceError {
  return conflict(
    l10n(
      `Two of the files would have the path \`${path}\` in the archive, or one would be a folder of the other.`,
      `Dois dos arquivos teriam o caminho \`${path}\` no arquivo compactado, ou um seria pasta do outro.`,
    ),
    l10n('Rename one of them, or leave one out with `fileIds`.', 'Renomeie um deles, ou deixe um de fora com `fileIds`.'),
  );
}

export function exportNotFound(exportId: string): ServiceError {
  const reason = l10n(`No export ${exportId} in this organization.`, `Não há exportação ${exportId} nesta organização.`);
  return new ServiceError('not_found', { message: reason, resolution: reason });
}

export function exportExpired(exportId: string, expiresAt: Date): ServiceError {
  const reason = l10n(
    `Export ${exportId} expired at ${expiresAt.toISOString()}; call files_export again.`,
    `A exportação ${exportId} expirou em ${expiresAt.toISOString()}; chame files_export de novo.`,
  );
  return new ServiceError('not_found', { message: reason, resolution: reason });
}

export function exportFileGone(fileId: string): ServiceError {
  return conflict(
    l10n(
      `File ${fileId} of this export was deleted for good since it was made.`,
      `O arquivo ${fileId} desta exportação foi excluído de vez depois que ela foi feita.`,
    ),
    l10n('Call files_export again.', 'Chame files_export de novo.'),
  );
}
