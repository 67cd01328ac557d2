// Prints the size of the built app (raw and gzip -9) per file and in total: what every user downloads.
// With --budget FILE, fails when the gzip total exceeds the committed budget (a deterministic gate).
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const args = process.argv.slice(2);
const budgetAt = args.indexOf('--budget');
const budgetFile = budgetAt >= 0 ? args[budgetAt + 1] : null;
const dir = args.find((a, i) => !a.startsWith('--') && (budgetAt < 0 || i !== budgetAt + 1)) || 'dist';

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
out += `gzip bytes: ${gz}\n`;
let over = false;
if (budgetFile) {
  const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const max = budget.gzip_bytes_max;
  if (!Number.isInteger(max) || max <= 0) {
    out += `budget file ${budgetFile} has no positive integer gzip_bytes_max\n`;
    over = true;
  } else {
    const pct = ((100 * gz) / max).toFixed(1);
    over = gz > max;
    out += `${over ? 'OVER BUDGET' : 'within budget'}: ${gz} of ${max} gzip bytes (${pct} %) — ${budgetFile}\n`;
  }
}
process.stdout.write(out);
mkdirSync('target', { recursive: true });
writeFileSync('target/size-report.txt', out);
process.exit(over ? 1 : 0);
