// Prints the size of the built app (raw and gzip -9) per file, and what each way in downloads: a
// visit (the page and the boot module: the form) and a share link (the page and the share module);
// a visit that runs a check adds the app module on demand (its js and wasm: `app`, gated alone so
// that it only shrinks). With --budget FILE, fails when a total exceeds its bar: its committed
// measurement plus the file's headroom (scripts/size-budget.mjs; a deterministic gate;
// e2e/tests/firstload.mjs measures the same loads in a real browser).
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { bars } from './size-budget.mjs';

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
const page = (n) => !n.startsWith('mcp-triage-');
const loads = {
  visit: (n) => page(n) || n.startsWith('mcp-triage-boot-'),
  share: (n) => page(n) || n.startsWith('mcp-triage-share-'),
  app: (n) => n.startsWith('mcp-triage-web-'),
  total: () => true,
};
const kb = (n) => (n / 1024).toFixed(1).padStart(8);
let out = `${'file'.padEnd(48)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}\n`;
for (const [name, r, g] of rows) out += `${name.padEnd(48)} ${kb(r)} ${kb(g)}\n`;
const totals = {};
const label = {
  visit: 'a visit (page + boot module)',
  share: 'a share link (page + share module)',
  app: 'a click that needs the tool (app module)',
  total: 'every file',
};
for (const [load, has] of Object.entries(loads)) {
  const these = rows.filter(([n]) => has(n));
  totals[load] = these.reduce((a, [, , g]) => a + g, 0);
  out += `${label[load].padEnd(48)} ${kb(these.reduce((a, [, r]) => a + r, 0))} ${kb(totals[load])}\n`;
}
for (const load of Object.keys(loads)) out += `${load} gzip bytes: ${totals[load]}\n`;
if (!['boot', 'web', 'share'].every((m) => rows.filter(([n]) => n.startsWith(`mcp-triage-${m}-`)).length === 2)) {
  out += 'a module is missing: expected the js and wasm of mcp-triage-boot, mcp-triage-web and mcp-triage-share\n';
  process.stdout.write(out);
  process.exit(1);
}
let over = false;
if (budgetFile) {
  let budget = {};
  try {
    budget = bars(budgetFile);
  } catch (e) {
    out += `${e.message}\n`;
    over = true;
  }
  for (const load of Object.keys(loads)) {
    const max = budget[`${load}_gzip`];
    if (!Number.isInteger(max) || max <= 0) {
      out += `budget file ${budgetFile} has no measured ${load}_gzip\n`;
      over = true;
      continue;
    }
    const pct = ((100 * totals[load]) / max).toFixed(1);
    const bad = totals[load] > max;
    over ||= bad;
    out += `${bad ? 'OVER BUDGET' : 'within budget'}: ${load} ${totals[load]} of ${max} gzip bytes (${pct} %) — ${budgetFile}\n`;
  }
}
process.stdout.write(out);
mkdirSync('target', { recursive: true });
writeFileSync('target/size-report.txt', out);
process.exit(over ? 1 : 0);
