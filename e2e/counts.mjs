// The browser tests' counts, read from the runner's own JSON report (playwright.config.mjs writes it):
// one line per test file, then `e2e: N passed, M failed`, the line the test command counts (`x`).
// Every execution counts once (with --repeat-each, each repetition). A test that was skipped on
// purpose (test.skip) counts as neither and is named; a test that should have run and did not (after
// a failed beforeAll, or an interrupted run) counts as failed, and so does an error outside any test.
//   node e2e/counts.mjs target/test-logs/e2e-report.json
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node e2e/counts.mjs REPORT.json');
  process.exit(2);
}
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`no report from the runner (${e.message})`);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
}

const perFile = new Map();
const skipped = [];
const notRun = [];
function walk(suite) {
  for (const spec of suite.specs || []) {
    const name = spec.file || suite.file;
    const counts = perFile.get(name) || { passed: 0, failed: 0 };
    perFile.set(name, counts);
    for (const t of spec.tests) {
      const ran = t.results.some((r) => r.status !== 'skipped' && r.status !== 'interrupted');
      if (t.expectedStatus === 'skipped') skipped.push(`${name}: ${spec.title}`);
      else if (!ran) {
        counts.failed += 1;
        notRun.push(`${name}: ${spec.title}`);
      } else if (t.status === 'expected') counts.passed += 1;
      else counts.failed += 1;
    }
  }
  for (const child of suite.suites || []) walk(child);
}
for (const suite of report.suites || []) walk(suite);

let passed = 0;
let failed = 0;
for (const [name, c] of [...perFile].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`  ${name}: ${c.passed} passed, ${c.failed} failed`);
  passed += c.passed;
  failed += c.failed;
}
for (const s of skipped) console.log(`skipped on purpose (not counted): ${s}`);
for (const s of notRun) console.log(`did not run (counted as failed): ${s}`);
const errors = report.errors || [];
for (const e of errors) console.log(`error outside any test (counted as failed): ${(e.message || '').split('\n')[0]}`);
failed += errors.length;
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
