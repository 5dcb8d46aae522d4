// The package's entry for Cloudflare Workers (workerd; the `workerd` condition of package.json's
// `exports`): the wasm imported as a module, as Workers bundlers (wrangler, esbuild with the
// `workerd` condition) hand it over, and instantiated on import, so
// `import { validateResponse } from 'serpkit'` needs no `init()` in a worker.
import wasm from './serpkit_bg.wasm';
import { initSync } from './serpkit.js';

initSync({ module: wasm });

export * from './serpkit.js';
export { default } from './serpkit.js';
