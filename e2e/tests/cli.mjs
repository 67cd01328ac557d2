// The command line and the page are one tool: the same captures replayed in the page's wasm engine and
// by `mcp-triage replay` give the same JSON byte for byte; a live run of each agrees probe by probe on
// the demo and the Python peer; a share link the CLI made opens in the page.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ROOT, assert, cli, eq, expected, runQuick, shared, startPython, stopServers, watchedPage } from '../lib.mjs';

let peer, work;
test.beforeAll(async () => {
  peer = await startPython(shared.appOrigin);
  work = mkdtempSync(join(tmpdir(), 'mcp-triage-e2e-cli-'));
});
test.afterAll(stopServers);

/** The page's "Download JSON", as saved. */
async function downloadJson(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  return readFileSync(await download.path(), 'utf8');
}

/** The fields both shells must agree on, per probe, and the run's score and finding. */
function agreed(report) {
  // In probe order, whatever order the answers arrived in.
  const probes = {};
  for (const p of ['A', 'B', 'C', 'D']) {
    const r = report.records.find((x) => x.exchange.intent === p);
    if (!r) continue;
    const a = r.assessment;
    probes[p] = [a.channel, a.cause, a.jsonrpc_code, a.decided_by, a.spec?.conformance ?? null];
  }
  return { probes, score: report.summary.score, judged: report.summary.judged, finding: report.summary.finding };
}

test('the same captures replayed in the page (wasm) and by mcp-triage replay give byte-identical JSON', async () => {
  // One run: the stack's session at one protocol version (the folder holds several, and a replay
  // refuses captures of different runs).
  const dir = join(ROOT, 'fixtures/exchanges/ts-1.29.0-stateful');
  const docs = readdirSync(dir)
    .filter((f) => f.endsWith('.pv2025-11-25.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  const file = join(work, 'captures.json');
  const text = JSON.stringify(docs);
  writeFileSync(file, text);
  const fromCli = cli(['replay', file, '--json']);

  const context = await shared.browser.newContext({ acceptDownloads: true });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.locator('details.no-server > summary').click();
  // 27 captures (about 55 kB): set as the textarea's value, as a paste would, not typed key by key.
  await page.getByTestId('paste-capture').evaluate((el, value) => {
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.getByTestId('paste-classify').click();
  await page.getByTestId('results').waitFor();
  const source = await page.getByTestId('source-banner').innerText();
  assert(source.includes('replayed through the engine in this page'), source);
  const fromPage = await downloadJson(page);
  eq(fromCli, `${fromPage}\n`, "the CLI prints the page's JSON and a newline");
  // Not vacuous: a whole run, with the seed's finding.
  const report = JSON.parse(fromPage);
  eq(report.summary.score, 0, 'the seed scores 0 of 3');
  assert(report.records.length >= 8, `${report.records.length} records`);
  await context.close();
});

for (const [name, endpoint, token] of [
  ['the TypeScript demo', () => shared.demoEndpoint, 'demo-token'],
  ['the Python peer', () => peer, ''],
]) {
  test(`the CLI and the page agree on every probe against ${name}: channel, cause, code, decided-by, spec, score, finding`, async ({ guard }) => {
    guard.allow(expected.get405(endpoint()), expected.noToken(endpoint()));
    const context = await shared.browser.newContext({ acceptDownloads: true });
    const page = await watchedPage(context);
    await page.goto(shared.appUrl);
    await runQuick(page, { endpoint: endpoint(), token });
    const fromPage = agreed(JSON.parse(await downloadJson(page)));
    await context.close();
    const args = ['probe', endpoint(), '--json'];
    const fromCli = agreed(JSON.parse(cli(token ? [...args, '--token-env', 'E2E_TOKEN'] : args, { E2E_TOKEN: token })));
    eq(Object.keys(fromPage.probes).sort().join(), 'A,B,C,D', 'the page ran A to D');
    eq(JSON.stringify(fromCli), JSON.stringify(fromPage), 'CLI and page');
  });
}

test('a share link made by the CLI opens in the page and shows the same report', async () => {
  const out = JSON.parse(
    cli(['probe', shared.demoEndpoint, '--json', '--token-env', 'E2E_TOKEN', '--share', '--share-base', shared.appUrl], { E2E_TOKEN: 'demo-token' }),
  );
  assert(out.share.startsWith(`${shared.appUrl}#r=v14.`), out.share);
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(out.share);
  await page.getByTestId('shared-view').waitFor();
  eq(await page.getByTestId('finding').innerText(), out.summary.finding, 'finding');
  for (const r of out.records) {
    const intent = r.exchange.intent;
    if (!['A', 'B', 'C', 'D'].includes(intent)) continue;
    eq(await page.getByTestId(`card-${intent}`).getByTestId('cause').getAttribute('data-id'), r.assessment.cause, `probe ${intent}`);
  }
  await context.close();
});

test('a stdio run made by the CLI shows in the page from its share link and from its pasted report; its stderr only in the paste', async () => {
  // The TypeScript SDK's stdio server, crashing inside probe C after logging to stdout.
  const out = JSON.parse(
    cli([
      'probe',
      '--json',
      '--share',
      '--share-base',
      shared.appUrl,
      '--stdio',
      '--',
      'node',
      'demo/stdio-server.mjs',
      '--log-to-stdout',
      '--crash-in-tool',
      'lead_get',
    ]),
  );
  const crashC = out.records.find((r) => r.exchange.intent === 'C');
  eq(crashC.assessment.cause, 'server_exited', 'the CLI saw the crash');
  assert(crashC.exchange.stdio.stderr_tail.includes('backend connection lost'), 'the CLI kept the stderr tail');

  const context = await shared.browser.newContext({ acceptDownloads: true });
  const page = await watchedPage(context);
  // The link: verdicts and evidence, the program's name, never the stderr.
  await page.goto(out.share);
  await page.getByTestId('shared-view').waitFor();
  const shown = await page.getByTestId('shared-view').innerText();
  assert(shown.includes('stdio:node'), 'the endpoint is the program name');
  eq(await page.getByTestId('card-C').getByTestId('cause').getAttribute('data-id'), 'server_exited', 'C in the link');
  assert(!shown.includes('backend connection lost') && !shown.includes('stdio-server.mjs'), 'no stderr, no argument in the link');

  // The paste: the saved report replayed through the page's engine, stderr and stdout lines shown.
  await page.goto(shared.appUrl);
  await page.locator('details.no-server > summary').click();
  const saved = { ...out };
  delete saved.share;
  await page.getByTestId('paste-capture').fill(JSON.stringify(saved));
  await page.getByTestId('paste-classify').click();
  await page.getByTestId('results').waitFor();
  const c = page.getByTestId('card-C');
  await c.locator('summary.card-head').click();
  eq(await c.getByTestId('cause').getAttribute('data-id'), 'server_exited', 'C in the paste');
  eq(await c.getByTestId('carrier').innerText(), 'stdio', 'no HTTP status is shown for stdio');
  await c.getByTestId('stdio-details').locator('summary').click();
  assert((await c.getByTestId('stderr-tail').innerText()).includes('backend connection lost'), 'the stderr tail');
  assert((await c.getByTestId('stdout-lines').innerText()).includes('tool call: lead_get'), 'the log line on stdout');
  const fromPage = JSON.parse(await downloadJson(page));
  eq(JSON.stringify(agreed(fromPage)), JSON.stringify(agreed(out)), "the page replays the CLI's stdio run to the same verdicts");
  // A link made from the pasted report holds no stderr either.
  await page.getByTestId('share-open').click();
  const payload = await page.getByTestId('share-payload').innerText();
  assert(payload.includes('server_exited') && payload.includes('non_json_stdout'), payload);
  assert(!payload.includes('backend connection lost'), "the pasted report's link holds no stderr");
  await context.close();
});
