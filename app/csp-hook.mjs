// Trunk post-build hook: moves Trunk's inline loader `<script type="module">` into a file, so
// the app runs under the Content-Security-Policy in index.html without 'unsafe-inline' for
// scripts. Trunk runs it with TRUNK_STAGING_DIR set, after index.html is written.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-hook: TRUNK_STAGING_DIR is not set (run by Trunk only)');
  process.exit(1);
}
const file = join(dir, 'index.html');
const html = readFileSync(file, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/;
const match = html.match(inline);
if (!match) {
  console.error('csp-hook: no inline module script found in index.html');
  process.exit(1);
}
const code = match[1].trim() + '\n';
const name = `boot-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
const integrity = 'sha384-' + createHash('sha384').update(code).digest('base64');
writeFileSync(join(dir, name), code);
const tag = `<script type="module" src="/${name}" integrity="${integrity}" crossorigin="anonymous"></script>`;
let out = html.replace(inline, tag);
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(out)) {
  console.error('csp-hook: an inline script remains in index.html');
  process.exit(1);
}
writeFileSync(file, out);
console.error(`csp-hook: loader moved to ${name}`);
