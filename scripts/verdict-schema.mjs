#!/usr/bin/env node
// verdict-schema.mjs: validates every mcp-triage-verdict/2 the test command produced against the
// committed JSON Schema (docs/mcp-triage-verdict-2.schema.json, which a core test holds equal to
// the code's), with Ajv (draft 2020-12):
//   - target/verdicts/*.jsonl, written by the core's tests (classify over every capture,
//     classify_outcome over their SDK forms);
//   - `mcp-triage classify --json` over every capture, as the command prints it, and with
//     `--verdict-format 1` against docs/mcp-triage-verdict-1.schema.json (kept for one version);
//   - the census lines the CLI's census test wrote (target/census/census.jsonl), against
//     docs/mcp-triage-census-1.schema.json.
// Each source is one test; a control shows the check can fail (a verdict with an unknown cause, an
// unknown field, a null, and one without its format must each be refused).
//   node scripts/verdict-schema.mjs [--cli target/debug/mcp-triage]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { captureFiles } from './captures.mjs';

const ROOT = join(import.meta.dirname, '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'docs/mcp-triage-verdict-2.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(schema);
// /1, for `--verdict-format 1` and the census lines (mcp-triage-census/1 refers to it).
const validate1 = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/mcp-triage-verdict-1.schema.json'), 'utf8')));
const censusSchema = JSON.parse(readFileSync(join(ROOT, 'docs/mcp-triage-census-1.schema.json'), 'utf8'));
const validateCensus = ajv.compile(censusSchema);
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt > 0 ? process.argv[cliAt + 1] : join(ROOT, 'target/debug/mcp-triage');

let passed = 0;
let failed = 0;
function check(name, lines, by = validate) {
  const bad = [];
  for (const [i, line] of lines.entries()) {
    if (!by(JSON.parse(line))) bad.push(`line ${i + 1}: ${JSON.stringify(by.errors.slice(0, 3))}`);
  }
  if (lines.length === 0) bad.push('no verdicts');
  if (bad.length) {
    failed += 1;
    console.log(`FAIL ${name}: ${bad.length} of ${lines.length} invalid\n  ${bad.slice(0, 10).join('\n  ')}`);
  } else {
    passed += 1;
    console.log(`ok   ${name}: ${lines.length} verdicts valid`);
  }
  return lines;
}

const lines = (text) => text.split('\n').filter((l) => l.trim());
const dir = join(ROOT, 'target/verdicts');
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();
let sample = null;
for (const file of written) {
  const checked = check(`core tests: ${file}`, lines(readFileSync(join(dir, file), 'utf8')));
  sample ??= checked[0];
}
if (written.length < 2) {
  failed += 1;
  console.log(`FAIL core tests: ${written.length} verdict files in ${dir} (the core's tests write classify and outcome)`);
}

const captures = captureFiles(ROOT);
check(
  `mcp-triage classify --json over ${captures.length} captures`,
  lines(execFileSync(cli, ['classify', '--json', ...captures], { maxBuffer: 64 << 20 }).toString()),
);
check(
  `mcp-triage classify --json --verdict-format 1 over ${captures.length} captures (against /1)`,
  lines(execFileSync(cli, ['classify', '--json', '--verdict-format', '1', ...captures], { maxBuffer: 64 << 20 }).toString()),
  validate1,
);

// The census lines the CLI's census test wrote (real servers and faults), against their schema,
// whose verdicts are the verdict schema's; the control: a line with an unknown reach is refused.
const census = check(
  'mcp-triage census lines (target/census/census.jsonl)',
  lines(readFileSync(join(ROOT, 'target/census/census.jsonl'), 'utf8')),
  validateCensus,
);
const goodLine = JSON.parse(census[0]);
if (validateCensus({ ...goodLine, reach: 'nope' }) || validateCensus({ ...goodLine, probe_a: { cause: 'nope' } })) {
  failed += 1;
  console.log('FAIL census control: a line with an unknown reach or a broken verdict was accepted');
} else {
  passed += 1;
  console.log('ok   census control: an unknown reach and a broken verdict each refused');
}

// The control: each broken copy of a valid verdict must be refused.
const good = JSON.parse(sample);
const broken = {
  'an unknown cause': { ...good, cause: 'nope' },
  'an unknown field': { ...good, extra: 1 },
  'a null': { ...good, tool: null },
  'no format': Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'format')),
};
const accepted = Object.entries(broken)
  .filter(([, v]) => validate(v))
  .map(([k]) => k);
if (accepted.length || !validate(good)) {
  failed += 1;
  console.log(`FAIL control: the schema accepted ${accepted.join(', ') || '(none)'}; the good one ${validate(good) ? 'passed' : 'failed'}`);
} else {
  passed += 1;
  console.log(`ok   control: ${Object.keys(broken).join(', ')} each refused`);
}
console.log(`node: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
