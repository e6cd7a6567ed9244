// A tool that fails answers with a result flagged isError, the JSON-RPC call itself having succeeded: the model reads
// why in the text and a program in structuredContent.
import type { CallToolResult } from './protocol.ts';

export function toolError(text: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ok: false, ...extra }, isError: true };
}
