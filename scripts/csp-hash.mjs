// Trunk post_build hook. Trunk names the files of the app and share modules ("workers" to Trunk)
// without a content hash: this gives them one, as Trunk does for the boot module, so a static host's
// cache never mixes builds: the wasm file's name inside each JS glue and the loader's placeholders in
// index.html follow. Then it puts the SHA-256 of every inline <script> of the staged index.html into
// the CSP meta tag (replacing {{INIT_SCRIPT_HASHES}}): the loader names hashed files, so its hash
// changes with every build and can only be computed here. Fails the build if anything is off.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-hash: TRUNK_STAGING_DIR is not set (run me as a Trunk hook)');
  process.exit(1);
}
const file = join(dir, 'index.html');
let html = readFileSync(file, 'utf8');

const hash16 = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
for (const [name, placeholder, wasmPlaceholder] of [
  ['mcp-triage-web', '{{APP_JS}}', null],
  ['mcp-triage-share', '{{SHARE_JS}}', '{{SHARE_WASM}}'],
]) {
  const wasmPath = join(dir, `${name}_bg.wasm`);
  const wasmName = `${name}-${hash16(readFileSync(wasmPath))}_bg.wasm`;
  renameSync(wasmPath, join(dir, wasmName));
  const jsPath = join(dir, `${name}.js`);
  const glue = readFileSync(jsPath, 'utf8');
  const mentions = glue.split(`'${name}_bg.wasm'`).length - 1;
  if (mentions !== 1) {
    console.error(`csp-hash: the JS glue of ${name} names '${name}_bg.wasm' ${mentions} times, not once (did wasm-bindgen change?)`);
    process.exit(1);
  }
  // The content hash covers the glue and its wasm only: any other file it imports would escape it.
  if (/\bimport\s*\(|\bfrom\s*['"]|snippets\//.test(glue)) {
    console.error(`csp-hash: the JS glue of ${name} imports another file (a wasm-bindgen snippet?): give it a content hash too`);
    process.exit(1);
  }
  const patched = glue.replace(`'${name}_bg.wasm'`, `'${wasmName}'`);
  const jsName = `${name}-${hash16(patched)}.js`;
  writeFileSync(join(dir, jsName), patched);
  unlinkSync(jsPath);
  if (html.split(placeholder).length !== 2) {
    console.error(`csp-hash: placeholder ${placeholder} is not in the loader exactly once (Trunk.toml pattern_script)`);
    process.exit(1);
  }
  html = html.replace(placeholder, jsName);
  if (wasmPlaceholder) {
    if (html.split(wasmPlaceholder).length !== 2) {
      console.error(`csp-hash: placeholder ${wasmPlaceholder} is not in the loader exactly once (Trunk.toml pattern_script)`);
      process.exit(1);
    }
    html = html.replace(wasmPlaceholder, wasmName);
  }
}
const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
if (inline.length === 0) {
  console.error('csp-hash: no inline script found; the app would not start');
  process.exit(1);
}
const hashes = inline.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
if (!html.includes('{{INIT_SCRIPT_HASHES}}')) {
  console.error('csp-hash: placeholder {{INIT_SCRIPT_HASHES}} missing from index.html');
  process.exit(1);
}
html = html.replace('{{INIT_SCRIPT_HASHES}}', hashes.join(' '));
if (/\sstyle=/.test(html)) {
  console.error("csp-hash: an inline style attribute would be blocked by style-src 'self'");
  process.exit(1);
}
if (/<link rel="(module)?preload"/.test(html)) {
  console.error('csp-hash: a preload link is back (Trunk.toml pattern_preload): it would load a module no visit needs at first');
  process.exit(1);
}
writeFileSync(file, html);
console.log(`csp-hash: ${hashes.length} inline script hash(es) written into the CSP`);
