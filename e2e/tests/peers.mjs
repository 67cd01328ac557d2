// Python `mcp` 2.3.0 peers (MCPServer, stateless and stateful) and the Origin refusal.
import { readFileSync } from 'node:fs';
import { test } from '../fixtures.mjs';
import { assert, cardOutcome, eq, expected, runQuick, shared, startDemo, startPython, stopServers, watchedPage } from '../lib.mjs';

let stateless, stateful, refusing, legacyCors, tsDemo;
test.beforeAll(async () => {
  stateless = await startPython(shared.appOrigin);
  stateful = await startPython(shared.appOrigin, ['--stateful']);
  refusing = await startPython(shared.appOrigin, ['--refuse-origin']);
  // A TypeScript server whose CORS lets through only the headers of the eras before 2026-07-28.
  legacyCors = await startDemo([shared.appOrigin], ['--cors', 'legacy-headers']);
  // The same server with full CORS: TS SDK 1.x refuses 2026-07-28 itself (HTTP 400, its words).
  tsDemo = await startDemo([shared.appOrigin], []);
});
test.afterAll(stopServers);

async function runAgainst(endpoint, opts = {}) {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token: '', ...opts });
  return { context, page };
}

test('Python MCPServer, stateless: its own answers, the withheld message flagged', async ({ guard }) => {
  guard.allow(expected.get405(stateless));
  const { context, page } = await runAgainst(stateless);
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['tool_error', 'unknown_tool']), 'A');
  eq(JSON.stringify(await cardOutcome(page, 'card-B')), JSON.stringify(['tool_error', 'invalid_arguments']), 'B');
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['tool_error', 'tool_execution']), 'C');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'D');
  assert((await page.getByTestId('card-C').innerText()).includes('message withheld'), 'C withheld');
  assert((await page.getByTestId('footnotes').innerText()).includes('3 rounds of requests'), 'stateless rounds');
  await context.close();
});

test('Python MCPServer, stateful: the session is kept, four rounds, DELETE at the end', async ({ guard }) => {
  guard.allow(expected.get405(stateful));
  const { context, page } = await runAgainst(stateful);
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'D');
  const reqHeaders = await page.getByTestId('card-D').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Mcp-Session-Id'), 'session id sent');
  assert((await page.getByTestId('footnotes').innerText()).includes('4 rounds of requests'), 'stateful rounds');
  assert((await page.getByTestId('progress').innerText()).includes('DELETE session'), 'session closed');
  await context.close();
});

test("Python MCPServer that refuses this page's Origin: origin_rejected with the right advice", async ({ guard }) => {
  guard.allow(expected.status(403, refusing));
  const { context, page } = await runAgainst(refusing);
  eq(JSON.stringify(await cardOutcome(page, 'card-connect')), JSON.stringify(['http', 'origin_rejected']), 'connect');
  assert((await page.getByTestId('card-connect').getByTestId('server-change').innerText()).includes('exactly this origin'), 'advice');
  assert((await page.getByTestId('summary').innerText()).includes('validates Origin'), 'origin verdict');
  await context.close();
});

test('2026-07-28 era against the Python peer: two rounds, _meta and Mcp-Method/Mcp-Name', async ({ guard }) => {
  guard.allow(expected.get405(stateless));
  const { context, page } = await runAgainst(stateless, { era: '2026-07-28' });
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['tool_error', 'unknown_tool']), 'A');
  assert((await page.getByTestId('footnotes').innerText()).includes('2 rounds of requests'), 'modern rounds');
  const reqHeaders = await page.getByTestId('card-A').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Mcp-Method') && reqHeaders.includes('Mcp-Name'), reqHeaders);
  await context.close();
});

test('auto era against the TypeScript demo: discover refused, fell back to initialize', async ({ guard }) => {
  // The TypeScript SDK answers a request carrying MCP-Protocol-Version 2026-07-28 with 400.
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint), expected.status(400, shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token', era: 'auto' });
  const summary = await page.getByTestId('summary').innerText();
  assert(/server\/discover was refused \([^)]+\), so the run fell back to initialize/.test(summary), `the auto note says why: ${summary}`);
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['tool_error', 'tool_execution']), 'C');
  // The no-token check went out as initialize, once the era was known: it reports on the token.
  eq((await cardOutcome(page, 'card-no-token'))[1], 'unauthenticated', 'no-token check');
  await context.close();
});

test('auto era against the Python peer: server/discover shaped as 2026-07-28 asks is answered, and the run speaks that era', async ({ guard }) => {
  guard.allow(expected.get405(stateless));
  const { context, page } = await runAgainst(stateless, { era: 'auto' });
  const summary = await page.getByTestId('summary').innerText();
  assert(summary.includes('server/discover answered, so the run speaks 2026-07-28'), summary);
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['tool_error', 'unknown_tool']), 'A');
  const reqHeaders = await page.getByTestId('card-A').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Mcp-Method') && reqHeaders.includes('2026-07-28'), reqHeaders);
  await context.close();
});

test('auto era against a server whose CORS refuses the 2026-07-28 headers: discover blocked, the run falls back, says why and reaches A-D', async ({
  guard,
}) => {
  guard.allow(expected.cors(legacyCors), expected.noToken(legacyCors), expected.get405(legacyCors));
  const { context, page } = await runAgainst(legacyCors, { era: 'auto', token: 'demo-token' });
  const summary = await page.getByTestId('summary').innerText();
  assert(
    summary.includes(
      'server/discover was refused (the browser could not read the answer: servers of earlier eras seldom let the 2026-07-28 headers through CORS), so the run fell back to initialize',
    ),
    summary,
  );
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['tool_error', 'tool_execution']), 'C');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'D');
  eq((await cardOutcome(page, 'card-no-token'))[1], 'unauthenticated', 'no-token check');
  // The CORS doctor asks about the request that was blocked (2026-07-28's headers), not the era the
  // run fell back to, and says the fallback first.
  await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('blocked-step').innerText(), 'allow_method_name', 'the doctor asks about the blocked era');
  const conclusion = await page.getByTestId('diagnosis-conclusion').innerText();
  assert(
    conclusion.startsWith(
      'The browser blocked 2026-07-28, so the run fell back and ran in 2025-11-25. Most likely the preflight does not allow the Mcp-Method / Mcp-Name headers',
    ),
    conclusion,
  );
  // The JSON download carries the doctor's conclusion.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  const report = JSON.parse(readFileSync(await download.path(), 'utf8'));
  eq(report.cors_doctor?.blocked_step, 'allow_method_name', 'the doctor in the JSON report');
  eq(report.cors_doctor?.conclusion, conclusion, 'the same conclusion');
  await context.close();
});

test('2026-07-28 against a server that does not serve it: the refused revision is the headline, and the GET refusal is read as one', async ({ guard }) => {
  guard.allow(expected.status(400, tsDemo), expected.noToken(tsDemo));
  const { context, page } = await runAgainst(tsDemo, { era: '2026-07-28', token: 'demo-token' });
  eq(
    await page.getByTestId('finding').innerText(),
    'The server does not serve protocol revision 2026-07-28: it refused server/discover (HTTP 400). It names 2025-11-25, 2025-06-18 and 2025-03-26: choose one of those eras, or Auto, and run again.',
    'headline',
  );
  // The GET's body is read: its words say the version, not a wrong path or a bare 4xx.
  eq(JSON.stringify(await cardOutcome(page, 'card-get')), JSON.stringify(['http', 'protocol_version_unsupported']), 'GET');
  await context.close();
});
