#!/usr/bin/env node
// Counts a cargo-nextest JUnit report (one <testsuite> per test binary, one <testcase> per test run):
// a test passed when its <testcase> holds no <failure> or <error>, failed when it holds one. Prints a
// line per binary, then the line ./x test's count_log reads:
//   nextest binary mcp-triage 170 passed 0 failed
//   nextest: 396 passed, 0 failed
// A report that is missing, holds no test, or whose own totals disagree with its test cases fails.
//   node scripts/junit-count.mjs target/nextest/x/junit.xml
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/junit-count.mjs JUNIT.xml');
  process.exit(2);
}
let xml;
try {
  xml = readFileSync(file, 'utf8');
} catch (e) {
  console.error(`junit-count: no report at ${file} (${e.code ?? e.message})`);
  process.exit(1);
}

const attr = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
const suites = [];
let suite = null;
let testcase = null;
// Text is escaped in the report, so every `<` that is not in a CDATA section starts a tag.
const body = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
for (const [tag, close, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z][\w-]*)\b[^>]*?(\/?)>/g)) {
  if (name === 'testsuite' && !close) {
    suite = {
      name: attr(tag, 'name'),
      tests: Number(attr(tag, 'tests')),
      bad: Number(attr(tag, 'failures')) + Number(attr(tag, 'errors')),
      passed: 0,
      failed: 0,
    };
    suites.push(suite);
  } else if (name === 'testcase' && !close) {
    if (!suite) throw new Error(`${file}: a testcase outside any testsuite`);
    testcase = { failed: false };
    if (selfClosing) {
      suite.passed += 1;
      testcase = null;
    }
  } else if (name === 'testcase' && close) {
    if (testcase.failed) suite.failed += 1;
    else suite.passed += 1;
    testcase = null;
  } else if ((name === 'failure' || name === 'error') && !close && testcase) {
    testcase.failed = true;
  }
}

let passed = 0;
let failed = 0;
const wrong = [];
for (const s of suites) {
  console.log(`nextest binary ${s.name} ${s.passed} passed ${s.failed} failed`);
  passed += s.passed;
  failed += s.failed;
  if (s.passed + s.failed !== s.tests || s.failed !== s.bad) {
    wrong.push(`${s.name}: the report says ${s.tests} tests, ${s.bad} failed; its test cases say ${s.passed + s.failed}, ${s.failed}`);
  }
}
console.log(`nextest: ${passed} passed, ${failed} failed`);
if (wrong.length) {
  console.error(`junit-count: ${file} disagrees with itself:\n${wrong.join('\n')}`);
  process.exit(1);
}
if (passed + failed === 0) {
  console.error(`junit-count: ${file} holds no test`);
  process.exit(1);
}
