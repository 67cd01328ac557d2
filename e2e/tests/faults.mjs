// The fault table: one proxy of ours (e2e/faults.mjs) between a shell and the real demo server
// (TypeScript SDK 1.29.0) injects one fault a row into one request (initialize, probe C's call, the
// GET check, the no-token check) and passes everything else through. Each row runs through the CLI
// (`mcp-triage probe`) and through the page (headless Chromium), both with the same shortened test
// limits, and both must record the same ending for the request the fault hit and the same verdicts
// for the whole run. The browser cannot observe everything (the core reader's module doc,
// crates/mcp-triage/src/decode/reader/mod.rs, "What a browser cannot see"): where a row's evidence differs, the difference is asserted as documented.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from '../fixtures.mjs';
import { ROOT, assert, eq, expected, onFreePort, runQuick, shared, startHostile, startProcess, stopServers, watchedPage } from '../lib.mjs';

// The proxy in front of the worker's demo server; its `moved` row redirects to the hostile server's
// redirect target (a port that answers, and must receive nothing).
let proxy;
test.beforeAll(async () => {
  const { targetPort } = await startHostile(shared.appOrigin);
  proxy = await onFreePort(async (port) => {
    await startProcess(
      'node',
      ['e2e/faults.mjs', '--port', String(port), '--upstream', new URL(shared.demoEndpoint).origin, '--redirect-to', `http://127.0.0.1:${targetPort}/mcp`],
      { ready: 'fault proxy' },
    );
    return `http://127.0.0.1:${port}`;
  });
});
test.afterAll(stopServers);

// A row's ending is decided by the order of events (our response before the stream's end, a reset,
// a redirect, the cap reached), except where the ending is a deadline (stall, drip): only those rows
// shorten the clocks, so that they end in seconds. Every other row keeps the default deadlines,
// which no untouched request of a loaded machine comes near, so no clock can overtake the event the
// row is about. In all rows the GET check's window is short (it ends stopped_after_response either
// way) and the body cap small (a size, not a time).
const LIMITS = 'first_event_ms=800,max_body_bytes=65536';
const DEADLINE_LIMITS = `headers_deadline_ms=3000,idle_gap_ms=1500,request_total_ms=4000,${LIMITS}`;
const limitsFor = (ending) => (ending === 'body:deadline' ? DEADLINE_LIMITS : LIMITS);

// row, the request it hits (the record's step), the ending both shells record there, and, where the
// browser cannot see what the CLI sees, the documented difference in the record's detail.
const ROWS = [
  ['reset-json', 'no_token', 'body:connection_lost'],
  ['reset-sse', 'probe:C', 'body:connection_lost'],
  ['truncated-chunked', 'initialize', 'body:connection_lost'],
  ['stall', 'probe:C', 'body:deadline'],
  ['drip', 'probe:C', 'body:deadline'],
  ['dup-content-type', 'probe:C', 'body:stopped_after_response'],
  ['mixed-case-sse', 'probe:C', 'body:stopped_after_response'],
  ['moved', 'probe:C', 'transport:redirect_refused'],
  ['over-cap', 'probe:C', 'body:size_cap'],
  ['silent-sse', 'get', 'body:stopped_after_response'],
  ['close-before-answer', 'probe:C', 'transport:network'],
];

const stepOf = (r) => (r.step.step === 'probe' ? `probe:${r.step.n}` : r.step.step);
const endingOf = (ex) => (ex.transport_error ? `transport:${ex.transport_error}` : `body:${ex.response?.body_end ?? 'none'}`);

/** What both shells must agree on: every record's ending and verdict, in step order, and the run's end and score. */
function agreed(report) {
  const records = report.records
    .map((r) => ({
      step: stepOf(r),
      ending: endingOf(r.exchange),
      verdict: [r.assessment.channel, r.assessment.cause, r.assessment.decided_by, r.assessment.spec?.conformance ?? null, r.assessment.advice?.action ?? null],
    }))
    .sort((a, b) => a.step.localeCompare(b.step));
  return { ended: report.ended, score: report.summary.score, records };
}

const run = promisify(execFile);
/** `mcp-triage probe` through the proxy with the test limits; its JSON report (exit 3 and 4 still print one). */
async function cli(endpoint, limits) {
  const bin = join(ROOT, 'target/debug/mcp-triage');
  const env = { ...process.env, MCP_TRIAGE_PAGE: '', E2E_TOKEN: 'demo-token', MCP_TRIAGE_TEST_LIMITS: limits };
  try {
    const { stdout } = await run(bin, ['probe', endpoint, '--json', '--token-env', 'E2E_TOKEN'], { env, maxBuffer: 64 << 20 });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (e) {
    if (typeof e.stdout === 'string' && e.stdout.length > 0) return { code: e.code, report: JSON.parse(e.stdout) };
    throw new Error(`mcp-triage probe ${endpoint}: ${e.stderr || e.message}`);
  }
}

/** The page's Quick check through the proxy with the same limits (set as only a test can), as its JSON download. */
async function page(endpoint, limits, { doctor = false } = {}) {
  const context = await shared.browser.newContext({ acceptDownloads: true });
  await context.addInitScript((l) => {
    globalThis.mcpTriageTestLimits = l;
  }, limits);
  const p = await watchedPage(context);
  await p.goto(shared.appUrl);
  await runQuick(p, { endpoint, token: 'demo-token' });
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('download-json').click()]);
  const report = JSON.parse(readFileSync(await download.path(), 'utf8'));
  // Only a browser needs the CORS doctor: it runs where a request got no readable answer.
  const diagnosis = doctor ? await p.getByTestId('diagnosis').innerText({ timeout: 20000 }) : null;
  await context.close();
  return { report, diagnosis };
}

/** How often the proxy applied `row`'s fault since `since` (its own log). */
async function applied(row, since) {
  const log = await (await fetch(`${proxy}/__faults`)).json();
  return log.filter((e) => e.row === row && e.at >= since).length;
}

for (const [row, step, ending] of ROWS) {
  test(`fault ${row} on ${step}: the CLI and the page both record ${ending} and the same verdicts`, async ({ guard }) => {
    const endpoint = `${proxy}/${row}/mcp`;
    guard.allow(expected.noToken(endpoint), expected.failed(endpoint), expected.cors(endpoint), expected.status(307, endpoint));
    const t0 = Date.now();
    const fromCli = await cli(endpoint, limitsFor(ending));
    const cliHits = await applied(row, t0);
    const t1 = Date.now();
    const { report: fromPage, diagnosis } = await page(endpoint, limitsFor(ending), { doctor: ending === 'transport:network' });
    const pageHits = await applied(row, t1);
    const c = agreed(fromCli.report);
    const p = agreed(fromPage);
    const hit = (a) => a.records.find((r) => r.step === step);
    assert(hit(c) && hit(p), `both shells recorded ${step}`);
    eq(hit(c).ending, ending, `the CLI's ending for ${step}`);
    eq(hit(p).ending, ending, `the page's ending for ${step}`);
    assert(cliHits >= 1 && pageHits >= 1, `the fault was applied (CLI ${cliHits}, page ${pageHits})`);
    eq(JSON.stringify(p), JSON.stringify(c), 'the page and the CLI agree on every record and the run');
    console.log(`     ${row} | ${step} | CLI ${hit(c).ending} (exit ${fromCli.code}) | page ${hit(p).ending} | run ${c.ended}`);
    const detail = (r) => r.records.find((x) => stepOf(x) === step).exchange.transport_error_detail ?? '';
    if (row.startsWith('reset-')) {
      // Neither shell can name the reset: ureq reads one as the peer closing ("Peer disconnected"),
      // a browser's read just fails. Both say what they saw.
      assert(/^the request failed: .+/.test(detail(fromCli.report)), detail(fromCli.report));
      assert(/^the request failed: .+/.test(detail(fromPage)), detail(fromPage));
    }
    if (ending === 'transport:network') {
      // A close before any answer is a rejected fetch, as a CORS refusal is: the page alone runs the
      // CORS doctor, whose token-free requests the proxy passes through, so it finds no CORS fault.
      assert(diagnosis !== null && diagnosis.length > 0, 'the page ran the CORS doctor');
      console.log(`     the page's CORS doctor: ${diagnosis.split('\n').slice(0, 3).join(' / ')}`);
    }
    if (row === 'moved') {
      // The CLI sees the status; a browser's opaque redirect hides it.
      assert(detail(fromCli.report).includes('HTTP 307'), detail(fromCli.report));
      assert(detail(fromPage).includes('a browser shows neither its status nor its target'), detail(fromPage));
    }
  });
}
