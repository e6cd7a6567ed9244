// The one door to undici, imported dynamically by http.ts: a static re-export lets the bundler resolve the named
// export of a CommonJS package, which a bare `import('undici')` inside the bundle does not.
export { request } from 'undici';
