// files_restore: bring a trashed file back, within the restore window (else 410 restore_expired). Its path may be
// taken by then (a newer version was written there): the caller says whether to replace that file or restore beside it.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { restoreFile } from '../../services/trash.ts';
import { fileIdOf } from '../../services/files.ts';
import { FileRecord, OnConflict, fileRefEntries, oneFileRef, toFileRecord } from './schemas.ts';

export const files_restore = defineBinding({
  name: 'files_restore',
  summary: 'Restore a file from the trash (within 30 days of trashing it), choosing what happens when its path is taken.',
  pt: {
    summary: 'Restaura um arquivo da lixeira (até 30 dias depois de ir para lá), escolhendo o que fazer quando o caminho está ocupado.',
    aliases: ['recuperar', 'desfazer exclusão', 'tirar da lixeira', 'trazer de volta', 'versão anterior', 'voltar versão'],
  },
  description:
    'Give `fileId`, or `name`: the path a file was trashed from (the version trashed last). Restoring an active file changes nothing. After the window the answer is 410 restore_expired. ' +
    'When another active file now holds the path (e.g. the newer version that replaced this one), the answer is 409 path_taken unless `onConflict` is ' +
    '"replace" (that file moves to the trash; `replacedFileId` names it) or "rename" (restored beside it as `report (restored 2026-11-27).txt`; ' +
    '`renamedFrom` gives the old path). A path inside a file, or one that is now a folder of other files, answers 409 folder_conflict.',
  aliases: ['undelete', 'recover', 'untrash', 'bring back', 'previous version', 'roll back'],
  examples: [
    'return await files_restore({ fileId: "fil_..." });',
    'return await files_restore({ fileId: "fil_...", onConflict: "rename" });',
    'return (await files_restore({ name: "drafts/plan.txt" })).state;',
    'const { items } = await files_list({ state: "trashed", limit: 100 });\nconst today = new Date().toISOString().slice(0, 10);\nconst out = [];\nfor (const f of items.filter((f) => f.trashedAt.startsWith(today))) {\n  try { out.push(await files_restore({ fileId: f.fileId })); }\n  catch (e) { if (e.code !== "path_taken") throw e; } // a newer version holds the path: leave this one in the trash\n}\nreturn out.map((f) => f.name);',
  ],
  input: oneFileRef(
    v.strictObject({
      ...fileRefEntries('The path the file was trashed from; the version trashed last is restored.'),
      onConflict: v.pipe(
        v.optional(OnConflict),
        v.description('When another active file holds the path: "fail" (default: 409 path_taken), "replace" or "rename".'),
      ),
    }),
  ),
  output: v.object({
    ...FileRecord.entries,
    replacedFileId: v.pipe(v.nullable(v.string()), v.description('The active file that held the path and moved to the trash ("replace"), else null.')),
    renamedFrom: v.pipe(
      v.nullable(v.string()),
      v.description('The path the file was trashed from, when it was restored under a new name ("rename"), else null.'),
    ),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const orgId = deps.caller.membership!.orgId;
    const r = await restoreFile(deps, orgId, await fileIdOf(deps.sql, orgId, input, 'trash'), input.onConflict ?? 'fail');
    return { ...toFileRecord(r.file, deps.config), replacedFileId: r.replaced?.id ?? null, renamedFrom: r.renamedFrom };
  },
});
