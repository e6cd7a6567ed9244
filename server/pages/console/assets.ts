// The console's only stylesheet and script, served from /console/assets/ so the CSP can forbid every inline style
// and script. The script is progressive enhancement: the console works fully without it.
export const CONSOLE_CSS = `body{font-family:system-ui,sans-serif;color:#1d2330;background:#f6f7f9;margin:0;line-height:1.5}
header{background:#1d2330;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}
header a{color:#fff}header nav{display:flex;gap:1rem;flex-wrap:wrap}header nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header .who{margin-left:auto;display:flex;gap:.8rem;align-items:center}
main{max-width:60rem;margin:1.5rem auto;padding:0 1rem}
section{background:#fff;padding:1.2rem 1.5rem;border-radius:10px;box-shadow:0 1px 4px #0002;margin-bottom:1.2rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid #dde1e8;vertical-align:top}
button{font:inherit;background:#1f4fd1;color:#fff;border:0;border-radius:6px;padding:.45rem .9rem;cursor:pointer}
button.secondary{background:#e4e7ee;color:#1d2330}button.danger{background:#b3261e}
button:disabled{background:#c9ccd3;color:#3d4350;cursor:not-allowed}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
input,select{font:inherit;padding:.4rem;border:1px solid #6b7280;border-radius:6px}
label{display:inline-block;margin:.2rem .8rem .2rem 0}
form.inline{display:inline}
.note{color:#4a5160;font-size:.92rem}
.notice{background:#e6f4ea;border-left:4px solid #1e7b34;padding:.6rem 1rem}
.error{background:#fdecea;border-left:4px solid #b3261e;padding:.6rem 1rem}
progress{width:100%;height:1.2rem}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;color:#1d2330;padding:.3rem}
`;

export const CONSOLE_JS = `// Ask before destructive actions (forms marked data-confirm).
document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) event.preventDefault();
});
`;
