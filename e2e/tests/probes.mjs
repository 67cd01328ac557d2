// The probes against the real demo server (TypeScript SDK 1.29.0): Quick check and Review first.
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ARTIFACTS, assert, cardOutcome, eq, expected, runQuick, shared, startDemo, stopServers, watchedPage } from '../lib.mjs';

test.afterAll(stopServers);

const stats = async () => (await fetch(shared.demoEndpoint.replace('/mcp', '/__stats'))).json();
const before = {};

test("Quick check on the demo server: the seed's three failures, a success, and the 401 challenge", async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  Object.assign(before, await stats());
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token' });
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['tool_error', 'unknown_tool']), 'A');
  eq(JSON.stringify(await cardOutcome(page, 'card-B')), JSON.stringify(['tool_error', 'invalid_arguments']), 'B');
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['tool_error', 'tool_execution']), 'C');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'D');
  eq(
    await page.getByTestId('finding').innerText(),
    'An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart.',
    'finding',
  );
  eq(await page.getByTestId('score').innerText(), '0 of 3 pairs', 'score');
  // Evidence: text decided A and B, with the phrase highlighted in the decoded message.
  const marks = await page.getByTestId('card-A').locator('mark').allInnerTexts();
  const tool = await page.getByTestId('card-A').locator('.meta code').first().innerText();
  assert(marks.includes(`Tool ${tool} not found`) && marks.includes('-32602'), `A highlights: ${JSON.stringify(marks)}`);
  assert((await page.getByTestId('card-B').getByTestId('decided-by').innerText()).includes('text'), 'B decided by text');
  assert((await page.getByTestId('card-A').getByTestId('agent-advice').innerText()).includes('pick another tool'), 'A advice');
  assert((await page.getByTestId('card-B').getByTestId('agent-advice').innerText()).includes('give text to model'), 'B advice');
  assert((await page.getByTestId('card-A').getByTestId('verdict').innerText()).includes('deviates'), 'A deviates');
  assert((await page.getByTestId('card-C').getByTestId('verdict').innerText()).includes('conforms'), 'C conforms');
  // The envelope as the seed printed it.
  const env = JSON.parse(await page.getByTestId('card-C').getByTestId('envelope').innerText());
  eq(env.result.isError, true, 'envelope isError');
  eq(env.result.content[0].text, 'lead not found in this organization', 'envelope text');
  // The 401 challenge, parsed.
  eq(JSON.stringify(await cardOutcome(page, 'card-no-token')), JSON.stringify(['http', 'unauthenticated']), 'no token');
  const challenge = await page.getByTestId('card-no-token').getByTestId('challenge').innerText();
  assert(challenge.includes('resource_metadata') && challenge.includes('/.well-known/oauth-protected-resource/mcp'), challenge);
  assert(challenge.includes('invalid_token'), 'error param');
  // The sign-in check starts only on a click, after the run, and sends no token: the demo's
  // resource metadata names no authorization server, which the check says.
  await page.getByTestId('card-no-token').getByTestId('check-sign-in').click();
  await page.getByTestId('auth').waitFor();
  const card = page.getByTestId('card-auth-prm-from-challenge');
  assert((await card.locator('h3').innerText()).includes('resource metadata'), await card.locator('h3').innerText());
  eq(
    await card.locator('[data-testid="auth-finding"][data-id="prm_names_authorization_server"] [data-testid="verdict"]').getAttribute('data-id'),
    'deviates',
    'no authorization server named',
  );
  eq(await card.getByTestId('cors').getAttribute('data-id'), 'allowed', 'CORS let the page read it');
  const json = JSON.parse(await card.getByTestId('envelope').textContent());
  assert(typeof json.resource === 'string' && json.resource.endsWith('/mcp'), JSON.stringify(json));
  const metaHeaders = await card.getByTestId('request-headers').textContent();
  assert(!metaHeaders.includes('Authorization'), 'no token on the metadata fetch');
  // What holds for every answer seen from a browser is said once, in a footnote, not on each card.
  const flagsShown = await page.getByTestId('flag').evaluateAll((els) => els.map((e) => e.dataset.id));
  assert(!flagsShown.some((f) => f.includes('headers_may_be_hidden')), `no per-card headers flag: ${JSON.stringify(flagsShown)}`);
  const notes = (await page.getByTestId('results').innerText()).split('every answer: Seen from a browser').length - 1;
  eq(notes, 1, 'the headers note, once');
  // The request sent carries the token only as a redacted mark.
  const reqHeaders = await page.getByTestId('card-A').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Bearer [REDACTED]') && !reqHeaders.includes('demo-token'), reqHeaders);
  // Rounds: legacy stateless needs three.
  assert((await page.getByTestId('footnotes').innerText()).includes('3 rounds of requests'), 'waves');
  const after = await stats();
  shared.preflights = (after.methods.OPTIONS || 0) - (before.methods.OPTIONS || 0);
  shared.posts = (after.methods.POST || 0) - (before.methods.POST || 0);
  console.log(`     rounds: 3; requests: ${shared.posts} POST, ${(after.methods.GET || 0) - (before.methods.GET || 0)} GET; preflights: ${shared.preflights}`);
  await page.screenshot({ path: join(ARTIFACTS, 'results-wide-light.png'), fullPage: true });
  await context.close();
});

test('a default run never calls a tool that is not declared read-only', async () => {
  const s = await stats();
  eq(s.tools.lead_delete_all || 0, 0, 'the destructive tool was never called');
  eq(s.tools.crm_sync || 0, 0, 'the unannotated tool that writes was never called');
  assert((s.tools.icp_list || 0) >= 1 && (s.tools.lead_get || 0) >= 1, `safe tools were called: ${JSON.stringify(s.tools)}`);
});

test('Review first: exact payloads, destructive tool marked, opt-in enforced, skip respected', async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token', review: true });
  const catalogue = await page.getByTestId('catalogue').innerText();
  assert(catalogue.includes('lead_delete_all') && catalogue.includes('DESTRUCTIVE'), catalogue);
  assert(catalogue.includes('crm_sync') && catalogue.includes('may have side effects'), catalogue);
  eq(await page.getByTestId('tool-D').inputValue(), 'icp_list', 'D planned on the read-only tool');
  await page.getByTestId('plan-C').locator('summary').click();
  const payload = JSON.parse(await page.getByTestId('plan-C').locator('pre').innerText());
  eq(payload.method, 'tools/call', 'payload method');
  eq(payload.params.arguments.id, 'mcp-triage-probe-nonexistent', 'C payload');
  await page.screenshot({ path: join(ARTIFACTS, 'plan-wide-light.png'), fullPage: true });
  await page.getByTestId('tool-D').fill('lead_delete_all');
  await page.getByTestId('run-plan').click();
  assert((await page.getByTestId('plan-error').innerText()).includes('opt-in'), 'opt-in required');
  await page.getByTestId('args-B').fill('{not json');
  await page.getByTestId('run-plan').click();
  assert((await page.getByTestId('plan-error').innerText()).includes('not valid JSON'), 'JSON validated');
  await page.getByTestId('args-B').fill('{}');
  await page.getByTestId('skip-D').check();
  await page.getByTestId('run-plan').click();
  await page.getByTestId('results').waitFor({ timeout: 30000 });
  assert((await page.getByTestId('card-D').getByTestId('skip-reason').innerText()).includes('skipped by you'), 'D skipped');
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['tool_error', 'tool_execution']), 'C');
  eq((await stats()).tools.lead_delete_all || 0, 0, 'still never called');
  await context.close();
});

// "An instant page": on a stateful server the GET check holds its stream open for the core's
// first-event window; each probe's card shows as its answer comes in, without waiting for it.
test('stateful demo: the four probe cards show while the GET check still waits for its stream, then the results take over', async ({ guard, watchOrder }) => {
  const endpoint = await startDemo([shared.appOrigin], ['--stateful']);
  guard.allow(
    new RegExp(
      `^console: Failed to load resource: the server responded with a status of 401 \\(Unauthorized\\) ${endpoint.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
    ),
  );
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await watchOrder(page, [
    ['four live cards', ['A', 'B', 'C', 'D'].map((p) => `[data-testid=live-results] [data-testid=card-${p}]`)],
    ['results', ['[data-testid=results]']],
  ]);
  await runQuick(page, { endpoint, token: 'demo-token' });
  const order = await page.evaluate(() => window.__order);
  eq(JSON.stringify(order), JSON.stringify(['four live cards', 'GET check over', 'results']), 'order of events');
  eq(await page.getByTestId('live-results').count(), 0, 'the live cards gave way to the results');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'D');
  await context.close();
});
