// The console's script, on every page. Progressive enhancement only: each page works without it.
'use strict';

// Ask before destructive actions (forms marked data-confirm), and before saving MCP access with no scope allowed
// while agents stay on (data-confirm-no-scopes): confirming adds the field the server asks for.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  const noScopes = form.dataset.confirmNoScopes;
  if (noScopes) {
    const anyScope = form.querySelector('input[name=scopes]:checked');
    const state = form.querySelector('input[name=state]:checked');
    const allow = form.querySelector('input[name=allowNone]');
    if (!anyScope && state && state.value !== 'revoked' && !(allow && allow.checked)) {
      if (!window.confirm(noScopes)) {
        event.preventDefault();
        return;
      }
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'allowNone';
      field.value = '1';
      form.append(field);
    }
  }
});

// A refused form answers with its page at /console/actions/…: put the page's own address back, so that a reload or a
// bookmark asks for the page, not for the form again.
const pageUrl = document.body.dataset.pageUrl;
if (pageUrl && location.pathname.startsWith('/console/actions/')) history.replaceState(null, '', pageUrl);

// Times are sent in UTC; show them in the reader's time zone, with the UTC instant on hover.
const locale = document.documentElement.lang || undefined;
const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
for (const time of document.querySelectorAll('time[datetime]')) {
  const at = new Date(time.getAttribute('datetime'));
  if (Number.isNaN(at.getTime())) continue;
  time.title = time.textContent;
  time.textContent = format.format(at);
}

// Forms whose dates are days in the reader's time zone say which zone that is.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
for (const input of document.querySelectorAll('input[data-time-zone]')) if (!input.value) input.value = zone;

// "Select all" for the rows' checkboxes of a bulk form (without the script, each box is ticked by hand).
for (const all of document.querySelectorAll('input[data-select-all]')) {
  all.closest('[data-select-all-label]').hidden = false;
  all.addEventListener('change', () => {
    for (const box of document.querySelectorAll(`input[data-select][form="${all.form.id}"]`)) box.checked = all.checked;
  });
}
