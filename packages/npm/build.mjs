#!/usr/bin/env node
// Builds the npm package's WebAssembly from the binding crate (crates/mcp-triage-npm) into
// packages/npm/dist/: the core in the size profile, wasm-bindgen-cli at the version Cargo.lock pins
// (scripts/setup.sh installs exactly that one) for Node (`nodejs`: CommonJS, loaded without an
// init call) and for browsers and bundlers (`web`: ESM, init() or initSync(bytes)), then binaryen's
// wasm-opt -Oz on each.
//   node packages/npm/build.mjs
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const DIST = join(ROOT, 'packages/npm/dist');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });

run('cargo', ['build', '--locked', '--profile', 'wasm-release', '--target', 'wasm32-unknown-unknown', '-p', 'mcp-triage-npm']);
const wasm = join(ROOT, 'target/wasm32-unknown-unknown/wasm-release/mcp_triage_npm.wasm');
rmSync(DIST, { recursive: true, force: true });
for (const target of ['nodejs', 'web']) {
  const out = join(DIST, target === 'nodejs' ? 'node' : 'web');
  run('wasm-bindgen', ['--target', target, '--out-dir', out, '--out-name', 'mcp_triage', '--no-typescript', wasm]);
  const bg = join(out, 'mcp_triage_bg.wasm');
  run(join(ROOT, 'node_modules/.bin/wasm-opt'), [
    '-Oz',
    '--enable-bulk-memory',
    '--enable-nontrapping-float-to-int',
    '--enable-sign-ext',
    '--enable-mutable-globals',
    bg,
    '-o',
    bg,
  ]);
}
// The nodejs build is CommonJS in .js files, inside a package that is ESM ("type": "module").
writeFileSync(join(DIST, 'node/package.json'), '{ "type": "commonjs" }\n');
console.log(`built ${DIST}`);
