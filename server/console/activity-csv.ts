// The activity view's executions as CSV: every row executions_list gives for the page's filters, read a page at a
// time and written as it is read (an organization's log may be long). A cell a spreadsheet would run as a formula
// (= + - @ at its start) is prefixed with a quote, so opening the export never runs what a script's author wrote.
import { type Caller, executions_list, invoke, type InvokeDeps } from '../../runtime-api/index.ts';

const PAGE = 200;

const COLUMNS = [
  'createdAt',
  'executionId',
  'callerKind',
  'callerName',
  'userEmail',
  'keyName',
  'appName',
  'source',
  'mode',
  'outcome',
  'errorType',
  'errorCode',
  'errorMessage',
  'wallMs',
  'cpuMs',
  'hostCalls',
  'scriptLines',
  'scriptSha256',
  'scriptExcerpt',
] as const;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV lines (header first), for the filters `input` takes (executions_list's own arguments). */
export async function* executionsCsv(input: Record<string, string>, caller: Caller, deps: InvokeDeps): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  let cursor: string | null = null;
  do {
    const page = (await invoke(executions_list, { ...input, limit: PAGE, ...(cursor ? { cursor } : {}) }, caller, deps)) as {
      items: Record<string, any>[];
      nextCursor: string | null;
    };
    let chunk = '';
    for (const e of page.items) {
      const row: Record<(typeof COLUMNS)[number], unknown> = {
        createdAt: e.createdAt,
        executionId: e.executionId,
        callerKind: e.caller.kind,
        callerName: e.caller.name,
        userEmail: e.userEmail,
        keyName: e.keyName,
        appName: e.caller.kind === 'app' ? e.caller.name : null,
        source: e.source,
        mode: e.mode,
        outcome: e.ok ? 'succeeded' : 'failed',
        errorType: e.errorType,
        errorCode: e.errorCode,
        errorMessage: e.errorMessage,
        wallMs: e.wallMs,
        cpuMs: e.cpuMs,
        hostCalls: e.hostCalls,
        scriptLines: e.scriptLines,
        scriptSha256: e.scriptSha256,
        scriptExcerpt: e.scriptExcerpt,
      };
      chunk += `${COLUMNS.map((c) => csvCell(row[c])).join(',')}\r\n`;
    }
    yield chunk;
    cursor = page.nextCursor;
  } while (cursor);
}
