// Prints the size of the built app (raw and gzip) per file and in total: what every user downloads.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dir = process.argv[2] || 'dist';
const rows = [];
for (const name of readdirSync(dir).sort()) {
  const path = join(dir, name);
  if (!statSync(path).isFile() || name === 'demo.json') continue;
  const bytes = readFileSync(path);
  rows.push([name, bytes.length, gzipSync(bytes, { level: 9 }).length]);
}
const kb = (n) => (n / 1024).toFixed(1).padStart(8);
let out = `${'file'.padEnd(48)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}\n`;
let raw = 0, gz = 0;
for (const [name, r, g] of rows) {
  out += `${name.padEnd(48)} ${kb(r)} ${kb(g)}\n`;
  raw += r; gz += g;
}
out += `${'total (first load)'.padEnd(48)} ${kb(raw)} ${kb(gz)}\n`;
process.stdout.write(out);
mkdirSync('target', { recursive: true });
writeFileSync('target/size-report.txt', out);
