// The README, run as a new user would type it. Run by the last stage of
// `cargo xtask test` (after the e2e stage, so the app's build is warm), from the repository
// root, with SANDBOX_URL and SANDBOX_KEY of the stage's sandbox server.
//
// What is run, found generically so sections added later are covered too:
// - every line of every shell block (```sh, bash, shell, console), `\` continuations joined
//   and `# comments` dropped, in order; a command that starts a server (`cargo run -p
//   sandbox …`, `cargo xtask serve …`, `cargo xtask team …`, `trunk serve …`) is started, waited for until its URL
//   answers, and stopped when its block ends (so the block's `curl` reaches it);
// - every inline command of the prose (a code span starting with `cargo `, `trunk `, `node `,
//   `npm ` or `NAME=value … `), the same way; while they run, the README's own sandbox
//   (`cargo run -p sandbox -- --port 8787`) is up, as the README says it must be for them;
// - every JS block: one that imports `./pkg/serpkit.js` and calls `init()` runs as a module of
//   a page in headless Chromium served from the repository root; one that imports `'serpkit'`
//   (or `'serpkit/schema'`)
//   runs in Node from a directory whose node_modules/serpkit is pkg/ (what `npm install ./pkg`
//   gives); one that imports `./pkg/serpkit.js` without `init()` runs in Node from the root.
//   Substitution: `key: 'YOUR_KEY'` becomes the sandbox's key and base URL (`key: '<key>',
//   baseUrl: '<url>'`), as a user pointing the snippet at the sandbox writes it.
//
// Not run, each for its reason (EXCLUDED below): `cargo xtask test` (this test runs inside
// it); its stages `cargo xtask js` and `cargo xtask e2e` (run just before this one, by the
// same functions); `trunk build --release` and `cargo xtask app-wasm` (the e2e stage runs
// exactly `trunk build --release`, whose pre_build hook is `cargo xtask app-wasm`);
// `cargo xtask bench` (minutes of measurement that need a quiet machine; its figures are
// BENCHMARKS.md); commands with a placeholder (`<rev>`). Rust blocks are fragments of a
// program (they use a `client` or `body` from around them), not commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SANDBOX_URL = (process.env.SANDBOX_URL || '').replace(/\/+$/, '');
const SANDBOX_KEY = process.env.SANDBOX_KEY || 'sandbox-test-key';
/** Long enough for a server command that builds the app first. */
const SERVER_START_MS = 20 * 60_000;
const COMMAND_MS = 15 * 60_000;

/** Commands not run, by pattern, with the reason. */
const EXCLUDED = [
  [/^cargo xtask test\b/, 'this test runs inside it'],
  [/^cargo xtask (js|e2e)$/, 'stages of `cargo xtask test`, run just before this test by the same functions'],
  [/^trunk build --release$/, 'the e2e stage runs exactly this build (xtask/src/app.rs `build`)'],
  [/^cargo xtask app-wasm$/, 'Trunk\'s pre_build hook: every Trunk build runs it (the e2e stage\'s, the serve commands here)'],
  [/^cargo xtask bench\b/, 'minutes of measurement that need a quiet machine; its output is BENCHMARKS.md'],
  [/<[a-z]+>/, 'a placeholder to fill in'],
  [/^(esbuild src\/main\.js|cp node_modules\/serpkit\/)/, 'a user\'s own project: tests/js/bundlers.test.mjs runs this recipe and the page in Chromium'],
  [/^(set -a; \. \/etc\/serpkit-server\.env|serpkit-server |curl -s https:\/\/team\.example\.com)/, 'an operator\'s machine (the installed binary, /etc/serpkit-server.env, the team\'s domain): server/tests/admin.rs and operations.rs run these commands against real processes and PostgreSQL'],
  [/^cargo build --release -p serpkit-server\b/, 'the operator\'s optimised build (minutes): the team server stage builds and tests the same crate'],
];

// ---- Reading the README -------------------------------------------------------------------

/** Fenced blocks `{ lang, body }` (indented fences too). */
function fencedBlocks(markdown) {
  const out = [];
  const fence = /^([ \t]*)```([\w-]*)[ \t]*\n([\s\S]*?)^\1```/gm;
  for (const m of markdown.matchAll(fence)) {
    const indent = m[1].length;
    const body = m[3]
      .split('\n')
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join('\n');
    out.push({ lang: m[2].toLowerCase(), body });
  }
  return out;
}

/** A shell block's commands: continuations joined, comments and prompts dropped. */
function shellCommands(body) {
  return body
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^\$ /, '').replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** The prose's inline commands (code spans outside fenced blocks), white space folded. */
function inlineCommands(markdown) {
  const prose = markdown.replace(/^([ \t]*)```[\s\S]*?^\1```/gm, '');
  const found = [];
  for (const m of prose.matchAll(/`([^`]+)`/g)) {
    const command = m[1].replace(/\s+/g, ' ').trim();
    if (/^(cargo|trunk|node|npm) \S/.test(command) || /^[A-Z_]+=\S+ /.test(command)) found.push(command);
  }
  return [...new Set(found)];
}

const excluded = (command) => EXCLUDED.find(([pattern]) => pattern.test(command));

// ---- Running commands ----------------------------------------------------------------------

/** Runs `command` with bash from the root; resolves to `{ code, out }` (stdout + stderr). */
function run(command, timeoutMs = COMMAND_MS) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: ROOT, detached: true });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => kill(child), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

function kill(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** The URL a server command serves, if it is one. */
function serverUrl(command) {
  if (/^cargo run -p sandbox\b/.test(command) || /^cargo xtask team\b/.test(command)) return 'stdout';
  const port = command.match(/--port (\d+)/)?.[1] ?? '8080';
  if (/^cargo xtask serve\b/.test(command) || /^trunk serve\b/.test(command)) return `http://127.0.0.1:${port}/`;
  return null;
}

async function answers(url) {
  try {
    const r = await fetch(url);
    await r.arrayBuffer();
    return r.ok;
  } catch {
    return false;
  }
}

/** Starts a server command; resolves once its URL answers, to `{ url, stop }`. */
function startServer(command) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd: ROOT, detached: true });
    let out = '';
    let url = serverUrl(command) === 'stdout' ? null : serverUrl(command);
    const started = Date.now();
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.on('close', done);
        kill(child);
      });
    child.stdout.on('data', (d) => {
      out += d;
      url ??= out.match(/(?:sandbox listening on|^server:) (http:\/\/\S+)/m)?.[1] ?? null;
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => reject(new Error(`\`${command}\` stopped (${code}) before serving:\n${out.slice(-3000)}`)));
    const poll = async () => {
      const api = /sandbox|xtask team/.test(command);
      if (url !== null && (await answers(api ? `${url}/health` : url))) {
        child.removeAllListeners('close');
        return resolve({ url, stop, ms: Date.now() - started });
      }
      if (Date.now() - started > SERVER_START_MS) {
        await stop();
        return reject(new Error(`\`${command}\` did not answer within ${SERVER_START_MS / 60_000} min:\n${out.slice(-3000)}`));
      }
      setTimeout(poll, 500);
    };
    poll();
  });
}

/** Runs a command as the README shows it: a server is started (and returned), others run. */
async function runCommand(t, command, servers) {
  const reason = excluded(command);
  if (reason) {
    t.diagnostic(`not run: \`${command}\`: ${reason[1]}`);
    return;
  }
  if (serverUrl(command)) {
    const server = await startServer(command);
    t.diagnostic(`served: \`${command}\` at ${server.url} after ${(server.ms / 1000).toFixed(1)} s`);
    if (!/sandbox|xtask team/.test(command)) {
      const page = await (await fetch(server.url)).text();
      assert.match(page, /<html/i, `\`${command}\` serves the app's page`);
    }
    servers.push(server);
    return;
  }
  const { code, out } = await run(command);
  assert.equal(code, 0, `\`${command}\` failed (exit ${code}):\n${out.slice(-3000)}`);
  t.diagnostic(`ran: \`${command}\``);
}

// ---- The tests -----------------------------------------------------------------------------

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

test('every shell block of the README runs as written', async (t) => {
  const blocks = fencedBlocks(README).filter((b) => SHELL.has(b.lang));
  assert.ok(blocks.length >= 2, 'the set-up block and the sandbox block at least');
  for (const block of blocks) {
    const servers = [];
    try {
      for (const command of shellCommands(block.body)) await runCommand(t, command, servers);
    } finally {
      for (const server of servers) await server.stop();
    }
  }
});

test('every inline command of the README runs as written', async (t) => {
  // A command a shell block shows was run there already.
  const inBlocks = new Set(fencedBlocks(README).filter((b) => SHELL.has(b.lang)).flatMap((b) => shellCommands(b.body)));
  const commands = inlineCommands(README).filter((command) => !inBlocks.has(command));
  assert.ok(commands.some((c) => c.startsWith('cargo xtask serve --port')), `found: ${commands.join(' | ')}`);
  t.diagnostic(`${inlineCommands(README).length - commands.length} inline commands were run in the shell blocks`);
  // The README's sandbox, which its inline commands talk to (http://127.0.0.1:8787).
  const sandbox = await startServer('cargo run -p sandbox -- --port 8787');
  const servers = [sandbox];
  try {
    for (const command of commands) {
      const started = [];
      try {
        await runCommand(t, command, started);
      } finally {
        for (const server of started) await server.stop();
      }
    }
  } finally {
    for (const server of servers) await server.stop();
  }
});

/** A JS block with the key and base URL of the sandbox. */
function withSandbox(code) {
  return code.replace(/key: 'YOUR_KEY'/g, `key: ${JSON.stringify(SANDBOX_KEY)}, baseUrl: ${JSON.stringify(SANDBOX_URL)}`);
}

test('every JS block of the README runs as written (against the sandbox)', async (t) => {
  assert.ok(SANDBOX_URL, 'SANDBOX_URL is set (run by cargo xtask test)');
  const blocks = fencedBlocks(README).filter((b) => ['js', 'javascript', 'mjs'].includes(b.lang));
  assert.ok(blocks.length >= 3);
  for (const [n, block] of blocks.entries()) {
    const code = withSandbox(block.body);
    if (/from '\.\/pkg\/serpkit\.js'/.test(code) && /\binit\(\)/.test(code)) {
      await inChromium(code);
      t.diagnostic(`JS block ${n + 1}: ran in Chromium`);
    } else if (/from 'serpkit(\/schema)?'/.test(code)) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serpkit-readme-'));
      try {
        fs.mkdirSync(path.join(dir, 'node_modules'));
        fs.symlinkSync(path.join(ROOT, 'pkg'), path.join(dir, 'node_modules', 'serpkit'), 'dir');
        fs.writeFileSync(path.join(dir, 'snippet.mjs'), code);
        const { code: exit, out } = await run(`node ${JSON.stringify(path.join(dir, 'snippet.mjs'))}`, 60_000);
        assert.equal(exit, 0, `JS block ${n + 1} (import from 'serpkit') failed:\n${code}\n${out}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      t.diagnostic(`JS block ${n + 1}: ran in Node as the installed package`);
    } else if (/from '\.\/pkg\/serpkit\.js'/.test(code)) {
      const file = path.join(ROOT, `.readme-snippet-${process.pid}-${n}.mjs`);
      try {
        fs.writeFileSync(file, code);
        const { code: exit, out } = await run(`node ${JSON.stringify(file)}`, 60_000);
        assert.equal(exit, 0, `JS block ${n + 1} (./pkg by path) failed:\n${code}\n${out}`);
      } finally {
        fs.rmSync(file, { force: true });
      }
      t.diagnostic(`JS block ${n + 1}: ran in Node from the checkout`);
    } else {
      assert.fail(`JS block ${n + 1} is neither a browser, a package nor a checkout snippet:\n${code}`);
    }
  }
});

/** Runs a browser module snippet in a page served from the repository root. */
async function inChromium(code) {
  const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><meta charset="utf-8"><title>README snippet</title><script type="module" src="/snippet.mjs"></script>');
    }
    if (p === '/snippet.mjs') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(`${code}\nwindow.__done = true;\n`);
    }
    const file = path.join(ROOT, p);
    if (!p.startsWith('/pkg/') || !file.startsWith(ROOT) || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { chromium } = createRequire(path.join(ROOT, 'tests/js/'))('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__done === true || false, null, { timeout: 60_000 }).catch(() => {});
    assert.deepEqual(errors, [], `the browser snippet threw:\n${code}`);
    assert.equal(await page.evaluate(() => window.__done === true), true, `the browser snippet ran to its end:\n${code}`);
  } finally {
    await browser.close();
    server.close();
  }
}
