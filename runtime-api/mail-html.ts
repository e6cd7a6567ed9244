// The HTML of the service's e-mails (sign-in links, invitations) and the escaping every HTML text needs; the
// server's pages escape with the same function.
import type { Locale } from './errors.ts';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A plain, inline-styled HTML e-mail: a paragraph, a button, the link spelt out, a footnote. */
export function mailHtml(locale: Locale, parts: { lead: string; button: string; link: string; note: string }): string {
  const e = escapeHtml;
  return `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1d2330;max-width:560px;margin:0 auto;padding:24px">
<p style="font-size:16px;line-height:1.5">${e(parts.lead)}</p>
<p><a href="${e(parts.link)}" style="display:inline-block;background:#1f4fd1;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${e(parts.button)}</a></p>
<p style="font-size:13px;color:#555;word-break:break-all">${e(parts.link)}</p>
<p style="font-size:13px;color:#555">${e(parts.note)}</p>
</body></html>`;
}
