// What the files area says when it refuses, in both languages side by side: the catalogue, the trash, the small-file
// bindings, uploads and the storage quota. The services and the file bindings throw these by name.
import { ServiceError, conflict, l10n } from '../errors.ts';

/** How many missing part numbers an upload_incomplete error lists. */
const MISSING_LISTED = 1000;

export function fileNotFound(fileId: string): ServiceError {
  return new ServiceError('not_found', { resolution: l10n(`No file ${fileId} in this organization.`, `Não há arquivo ${fileId} nesta organização.`) });
}

/** files_get by path, where no file is active. */
export function noTrashedFileAtPath(path: string): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n(
      `No file at "${path}" is in the trash of this organization (paths are case-sensitive; files_list with state "trashed" lists them).`,
      `Nenhum arquivo em "${path}" está na lixeira desta organização (caminhos diferenciam maiúsculas; files_list com state "trashed" os lista).`,
    ),
  });
}

export function noFileAtPath(path: string): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n(
      `No active file at "${path}" in this organization (paths are case-sensitive; trashed files: files_list with state "trashed").`,
      `Não há arquivo ativo em "${path}" nesta organização (caminhos diferenciam maiúsculas; arquivos na lixeira: files_list com state "trashed").`,
    ),
  });
}

/** files_update and files_write_text change only active files. */
export function fileInTrash(fileId: string, state: string): ServiceError {
  return conflict(
    l10n(`File ${fileId} is in the trash and cannot change.`, `O arquivo ${fileId} está na lixeira e não pode mudar.`),
    l10n('Restore it with files_restore first.', 'Restaure-o com files_restore primeiro.'),
    { details: { state } },
  );
}

/** files_delete removes only files already in the trash. */
export function fileNotTrashed(fileId: string, state: string): ServiceError {
  return conflict(
    l10n(
      `File ${fileId} is active, and only files in the trash can be deleted for good.`,
      `O arquivo ${fileId} está ativo, e só arquivos na lixeira podem ser excluídos de vez.`,
    ),
    l10n('Move it to the trash with files_trash first.', 'Mova-o para a lixeira com files_trash primeiro.'),
    { details: { state } },
  );
}

export function restoreExpired(trashedAt: Date, days: number): ServiceError {
  return new ServiceError('restore_expired', {
    resolution: l10n(
      `The file was trashed at ${trashedAt.toISOString()}, more than ${days} days ago; upload it again.`,
      `O arquivo foi para a lixeira em ${trashedAt.toISOString()}, há mais de ${days} dias; envie-o de novo.`,
    ),
  });
}

/** A file past the small-file readers' cap: the download route reads any size. */
export function textFileTooLarge(file: { id: string; byteLength: number }, binding: string, maxBytes: number, publicBaseUrl: string): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`fileId\`: the file has ${file.byteLength} bytes; ${binding} reads at most ${maxBytes}. Download it from ${publicBaseUrl}/v1/mcp/files/${file.id}/download instead.`,
      `\`fileId\`: o arquivo tem ${file.byteLength} bytes; ${binding} lê no máximo ${maxBytes}. Baixe-o de ${publicBaseUrl}/v1/mcp/files/${file.id}/download.`,
    ),
  });
}

export function notUtf8Text(): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n('`fileId`: the file is not valid UTF-8 text; download it instead.', '`fileId`: o arquivo não é texto UTF-8 válido; baixe-o.'),
  });
}

/** files_write_bytes past the small-file cap. */
export function bytesTooLarge(decodedBytes: number, maxBytes: number): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`base64\`: ${decodedBytes} bytes decoded; files_write_bytes takes at most ${maxBytes}. Use upload_begin for larger files.`,
      `\`base64\`: ${decodedBytes} bytes decodificados; files_write_bytes aceita no máximo ${maxBytes}. Use upload_begin para arquivos maiores.`,
    ),
  });
}

/** files_write_text past the small-file cap. */
export function textTooLarge(utf8Bytes: number, maxBytes: number): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: l10n(
      `\`text\`: ${utf8Bytes} bytes of UTF-8; files_write_text takes at most ${maxBytes}. Use upload_begin for larger files.`,
      `\`text\`: ${utf8Bytes} bytes em UTF-8; files_write_text aceita no máximo ${maxBytes}. Use upload_begin para arquivos maiores.`,
    ),
  });
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** `requestedBytes` more do not fit beside the `usedBytes` already counted. */
export function quotaExceeded(usedBytes: number, quotaBytes: number, requestedBytes: number): ServiceError {
  return new ServiceError('quota_exceeded', {
    resolution: l10n(
      `The organization uses ${gib(usedBytes)} of its ${gib(quotaBytes)} quota (files, trash and open uploads); ` +
        `${requestedBytes} more bytes do not fit. Delete files, empty the trash or abort open uploads.`,
      `A organização usa ${gib(usedBytes)} da sua cota de ${gib(quotaBytes)} (arquivos, lixeira e envios abertos); ` +
        `mais ${requestedBytes} bytes não cabem. Exclua arquivos, esvazie a lixeira ou cancele envios abertos.`,
    ),
    details: { quotaBytes, usedBytes, requestedBytes },
  });
}

/** upload_status of an unknown or aborted reservation. */
export function uploadNotFound(uploadId: string): ServiceError {
  return new ServiceError('not_found', { resolution: l10n(`No upload ${uploadId} in this organization.`, `Não há envio ${uploadId} nesta organização.`) });
}

/** A part, completion or abort for an unknown or aborted reservation. */
export function openUploadNotFound(uploadId: string): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n(
      `No upload ${uploadId} in this organization (it may have been aborted).`,
      `Não há envio ${uploadId} nesta organização (ele pode ter sido cancelado).`,
    ),
  });
}

export function uploadExpired(expiresAt: Date): ServiceError {
  return new ServiceError('upload_expired', {
    resolution: l10n(
      `The reservation expired at ${expiresAt.toISOString()}; begin a new upload.`,
      `A reserva expirou em ${expiresAt.toISOString()}; comece um novo envio.`,
    ),
  });
}

/** The reservation is completing, completed, importing or imported: its parts are fixed. */
export function uploadNotOpen(uploadId: string, state: string): ServiceError {
  return conflict(
    l10n(
      `Upload ${uploadId} is already ${state}; its parts can no longer change.`,
      `O envio ${uploadId} já está no estado ${state}; suas partes não podem mais mudar.`,
    ),
    l10n('Read it with upload_status, or begin a new upload.', 'Consulte-o com upload_status, ou comece um novo envio.'),
    { details: { state } },
  );
}

/** The reservation left `open` between our read and our transition (another completion or abort won). */
export function uploadMoved(uploadId: string): ServiceError {
  return conflict(
    l10n(
      `Upload ${uploadId} was completed or aborted by another request at the same time.`,
      `O envio ${uploadId} foi concluído ou cancelado por outra requisição ao mesmo tempo.`,
    ),
    l10n('Read its state with upload_status before trying again.', 'Consulte o estado com upload_status antes de tentar de novo.'),
  );
}

/** The reservation left `completing` before this completion could finish it. */
export function uploadCompletedConcurrently(uploadId: string): ServiceError {
  return conflict(
    l10n(`Upload ${uploadId} was completed or changed concurrently.`, `O envio ${uploadId} foi concluído ou alterado ao mesmo tempo por outra requisição.`),
    l10n('Read its state with upload_status.', 'Consulte o estado com upload_status.'),
  );
}

/** A part number within 1..10000 but past the reservation: the table's "size does not match" would mislead. */
export function partOutOfRange(partCount: number, partNumber: number): ServiceError {
  return new ServiceError('part_mismatch', {
    message: l10n(
      `Part ${partNumber} is beyond this upload, which has ${partCount} part(s); nothing was stored.`,
      `A parte ${partNumber} está além deste envio, que tem ${partCount} parte(s); nada foi gravado.`,
    ),
    resolution: l10n(
      `Send parts 1 to ${partCount} only; the \`size\` given to upload_begin fixes the part count.`,
      `Envie apenas as partes 1 a ${partCount}; o \`size\` dado a upload_begin fixa o número de partes.`,
    ),
    details: { partNumber, partCount },
  });
}

/** Other copies of one part kept winning the race to be recorded. */
export function partContended(partNumber: number): ServiceError {
  return conflict(
    l10n(
      `Other copies of part ${partNumber} were being stored at the same time.`,
      `Outras cópias da parte ${partNumber} estavam sendo gravadas ao mesmo tempo.`,
    ),
    l10n('Send it again if this copy should win.', 'Envie-a de novo se esta cópia deve prevalecer.'),
  );
}

/** `missing`: the part numbers not received, ascending. */
export function uploadIncomplete(missing: readonly number[]): ServiceError {
  return new ServiceError('upload_incomplete', {
    resolution: l10n(
      `Send the missing part(s) ${summarize(missing)}, then complete again.`,
      `Envie a(s) parte(s) que falta(m), ${summarize(missing)}, e conclua de novo.`,
    ),
    details: { missingParts: missing.slice(0, MISSING_LISTED), missingPartCount: missing.length },
  });
}

/** `1, 3, 5-9, …` for resolutions. */
function summarize(numbers: readonly number[], max = 20): string {
  const ranges: string[] = [];
  let i = 0;
  for (; i < numbers.length && ranges.length < max; i++) {
    const start = numbers[i];
    while (i + 1 < numbers.length && numbers[i + 1] === numbers[i] + 1) i++;
    ranges.push(start === numbers[i] ? String(start) : `${start}-${numbers[i]}`);
  }
  const shown = ranges.join(', ');
  return i < numbers.length ? `${shown}, …` : shown;
}

/** What the caller was doing when the path was in the way: the fix names that binding's options. */
export type PathOperation = 'restore' | 'move' | 'write';

/** Restoring or moving a file onto the path of another active file, without saying what to do with it. */
export function pathTaken(path: string, existingFileId: string, operation: PathOperation): ServiceError {
  const reason = l10n(`"${path}" is taken by the active file ${existingFileId}.`, `"${path}" já é o caminho do arquivo ativo ${existingFileId}.`);
  const fix =
    operation === 'write'
      ? l10n(
          `Write by \`name\` alone to replace ${existingFileId}, or move this file with files_update (it takes onConflict), or choose another name.`,
          `Escreva só com \`name\` para substituir ${existingFileId}, ou mova este arquivo com files_update (que aceita onConflict), ou escolha outro nome.`,
        )
      : operation === 'restore'
        ? l10n(
            `Pass onConflict: "replace" to move ${existingFileId} to the trash and restore this file in its place, or onConflict: "rename" to restore it beside it under a new name.`,
            `Passe onConflict: "replace" para mover ${existingFileId} para a lixeira e restaurar este arquivo no lugar dele, ou onConflict: "rename" para restaurá-lo ao lado com um novo nome.`,
          )
        : l10n(
            `Pass onConflict: "replace" to move ${existingFileId} to the trash first, or onConflict: "rename" to take a free name beside it, or choose another name.`,
            `Passe onConflict: "replace" para mover ${existingFileId} para a lixeira antes, ou onConflict: "rename" para usar um nome livre ao lado, ou escolha outro nome.`,
          );
  const both = (locale: 'en-US' | 'pt-BR') => `${reason[locale]} ${fix[locale]}`;
  return new ServiceError('path_taken', {
    message: l10n(both('en-US'), both('pt-BR')),
    resolution: fix,
    details: { path, existingFileId },
  });
}

/**
 * A file where a folder is (`x` while `x/y` is active) or a folder where a file is (`x/y` while `x` is active). Never
 * resolved by onConflict: the caller moves or trashes what is in the way.
 */
export function folderConflict(path: string, clash: { kind: 'parent_is_file' | 'path_is_folder'; name: string; fileId: string }): ServiceError {
  const reason =
    clash.kind === 'parent_is_file'
      ? l10n(
          `"${path}" cannot be created: "${clash.name}" is a file (${clash.fileId}), so it cannot also be a folder.`,
          `"${path}" não pode ser criado: "${clash.name}" é um arquivo (${clash.fileId}), então não pode ser também uma pasta.`,
        )
      : l10n(
          `"${path}" cannot be a file: it is a folder holding other files, such as "${clash.name}" (${clash.fileId}).`,
          `"${path}" não pode ser um arquivo: é uma pasta com outros arquivos, como "${clash.name}" (${clash.fileId}).`,
        );
  const fix =
    clash.kind === 'parent_is_file'
      ? l10n(
          `Rename or trash "${clash.name}" first (files_update, files_trash), or choose another path.`,
          `Renomeie ou mande "${clash.name}" para a lixeira antes (files_update, files_trash), ou escolha outro caminho.`,
        )
      : l10n(
          `Choose another name, or move the files under "${path}/" elsewhere first.`,
          `Escolha outro nome, ou mova antes os arquivos de "${path}/" para outro lugar.`,
        );
  const both = (locale: 'en-US' | 'pt-BR') => `${reason[locale]} ${fix[locale]}`;
  return new ServiceError('folder_conflict', {
    message: l10n(both('en-US'), both('pt-BR')),
    resolution: fix,
    details: { path, kind: clash.kind, conflictingPath: clash.name, conflictingFileId: clash.fileId },
  });
}
