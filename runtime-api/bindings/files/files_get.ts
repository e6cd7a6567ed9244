// files_get: one file of the organization, by id (active or trashed) or by path (the active file there: at most one).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { findActiveByName, findFile } from '../../store/files.ts';
import { fileNotFound, noFileAtPath } from '../../services/files-messages.ts';
import { FileRecord, fileRefEntries, oneFileRef, toFileRecord } from './schemas.ts';

export const files_get = defineBinding({
  name: 'files_get',
  summary: "Get one file's record (path, media type, size, state, dates) by id, or the active file at a path.",
  pt: {
    summary: 'O registro de um arquivo (caminho, tipo de mídia, tamanho, estado, datas) pelo id, ou o arquivo ativo num caminho.',
    aliases: ['detalhes', 'metadados', 'informações', 'tamanho', 'por caminho', 'consultar arquivo', 'existe', 'link de download'],
  },
  description:
    'Give `fileId` (active or trashed files) or `name` (the path: the one active file there; trashed versions are listed by files_list with state "trashed"). ' +
    'No file answers 404 not_found.',
  aliases: ['details', 'metadata', 'info', 'size', 'stat', 'download link', 'by path', 'lookup', 'exists'],
  examples: [
    'const f = await files_get({ fileId: "fil_..." });\nreturn [f.path, f.size, f.state];',
    'const f = await files_get({ name: "reports/q1.csv" });\nreturn f.downloadUrl;',
  ],
  input: oneFileRef(v.strictObject(fileRefEntries('The path of an active file, e.g. `reports/q1.csv`.'))),
  output: FileRecord,
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller, config }) {
    const orgId = caller.membership!.orgId;
    if (input.name !== undefined) {
      const row = await findActiveByName(sql, orgId, input.name);
      if (!row) throw noFileAtPath(input.name);
      return toFileRecord(row, config);
    }
    const row = await findFile(sql, orgId, input.fileId!);
    if (!row) throw fileNotFound(input.fileId!);
    return toFileRecord(row, config);
  },
});
