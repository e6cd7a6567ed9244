// The console's stylesheet and scripts, kept as plain files in static/ and served from /console/assets/ so the CSP can
// forbid every inline style and script. The scripts are progressive enhancement: every page works without them,
// except uploads, which a browser can only send with a script. Each asset's URL carries a hash of its content, so a
// browser may keep it for a long time and still never runs an old script against a new page.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const CONSOLE_ASSETS = {
  'console.css': 'text/css',
  'console.js': 'text/javascript',
  'files.js': 'text/javascript',
} as const;

export type ConsoleAsset = keyof typeof CONSOLE_ASSETS;

const loaded = new Map<ConsoleAsset, { text: string; version: string }>();

function load(name: ConsoleAsset): { text: string; version: string } {
  let asset = loaded.get(name);
  if (!asset) {
    const text = readFileSync(new URL(`./static/${name}`, import.meta.url), 'utf8');
    asset = { text, version: createHash('sha256').update(text).digest('hex').slice(0, 12) };
    loaded.set(name, asset);
  }
  return asset;
}

export function assetText(name: ConsoleAsset): string {
  return load(name).text;
}

/** The asset's URL, versioned by its content. */
export function assetUrl(name: ConsoleAsset): string {
  return `/console/assets/${name}?v=${load(name).version}`;
}
