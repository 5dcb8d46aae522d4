// The package's entry for Node ≥ 20, Deno and Bun (the `node`, `deno` and `bun` conditions of
// package.json's `exports`): the same module with its wasm read from the package and
// instantiated synchronously on import, so `import { Client, validateResponse } from 'serpkit'`
// needs no `init()`. Browsers and bundlers take `serpkit.js` and call `init()` (it fetches
// `serpkit_bg.wasm` next to it). Calling `initSync`/`init` again is harmless: the module is
// instantiated once.
import { readFileSync } from 'node:fs';
import { initSync } from './serpkit.js';

initSync({ module: readFileSync(new URL('./serpkit_bg.wasm', import.meta.url)) });

export * from './serpkit.js';
export { default } from './serpkit.js';
