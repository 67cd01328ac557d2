#!/usr/bin/env node
// The npm package's speed, for docs/PERFORMANCE.md (a report, never a timed test): the time from a
// new Node process's `require` to its first verdict (median of 5), and verdicts per second over the
// public captures (classify on each exchange's JSON text, through the package's JSON boundary).
//   node packages/npm/bench.mjs   (after node packages/npm/build.mjs)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { captureFiles } from '../../scripts/captures.mjs';

const ROOT = join(import.meta.dirname, '../..');
const entry = join(ROOT, 'packages/npm/index.cjs');
const first = [];
for (let i = 0; i < 5; i++) {
  const ms = execFileSync('node', [
    '-e',
    `const t = performance.now(); const m = require(${JSON.stringify(entry)});
m.classifyOutcome({ tool: 'x', result: { isError: true, content: [{ type: 'text', text: 'Unknown tool: x' }] } });
console.log(performance.now() - t);`,
  ]).toString();
  first.push(Number(ms));
}
first.sort((a, b) => a - b);
const captures = captureFiles(ROOT).map((p) => readFileSync(p, 'utf8'));
const m = createRequire(import.meta.url)(entry);
let n = 0;
const start = performance.now();
while (performance.now() - start < 2000) {
  for (const text of captures) m.classify(text);
  n += captures.length;
}
const secs = (performance.now() - start) / 1000;
console.log(`npm package: require to first verdict ${first[2].toFixed(1)} ms (median of 5: ${first.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`npm package: classify over ${captures.length} captures, ${n} verdicts in ${secs.toFixed(2)} s: ${Math.round(n / secs)} verdicts/s in Node`);
