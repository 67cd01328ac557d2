// Trunk post_build hook: puts the SHA-256 of every inline <script> of the staged index.html into the
// CSP meta tag (replacing {{INIT_SCRIPT_HASHES}}). Trunk's init script names hashed files, so its hash
// changes with every build and can only be computed here. It also drops the `integrity` attribute
// from the wasm's `<link rel="preload" as="fetch">`: Chromium ignores it there (crbug.com/981419)
// and warns on every load; the JS module keeps its integrity. Fails the build if anything is off.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-hash: TRUNK_STAGING_DIR is not set (run me as a Trunk hook)');
  process.exit(1);
}
const file = join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
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
  console.error('csp-hash: an inline style attribute would be blocked by style-src \'self\'');
  process.exit(1);
}
const preload = /(<link rel="preload"[^>]*?) integrity="[^"]*"([^>]*as="fetch"[^>]*>)/;
if (!preload.test(html)) {
  console.error('csp-hash: the wasm preload link with an integrity attribute was not found (did Trunk change?)');
  process.exit(1);
}
html = html.replace(preload, '$1$2');
writeFileSync(file, html);
console.log(`csp-hash: ${hashes.length} inline script hash(es) written into the CSP`);
