// Python `mcp` 2.3.0 peers (MCPServer, stateless and stateful) and the Origin refusal.
import { assert, cardOutcome, eq, expected, runQuick, shared, startPython, test, watchedPage } from '../lib.mjs';

const stateless = await startPython(18791, shared.appOrigin);
const stateful = await startPython(18792, shared.appOrigin, ['--stateful']);
const refusing = await startPython(18793, shared.appOrigin, ['--refuse-origin']);

async function runAgainst(endpoint, opts = {}) {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token: '', ...opts });
  return { context, page };
}

test('Python MCPServer, stateless: its own answers, the withheld message flagged', async () => {
  const { context, page } = await runAgainst(stateless);
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['◆ tool_error', 'unknown_tool']), 'A');
  eq(JSON.stringify(await cardOutcome(page, 'card-B')), JSON.stringify(['◆ tool_error', 'invalid_arguments']), 'B');
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['◆ tool_error', 'tool_execution']), 'C');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['✓ success', 'none']), 'D');
  assert((await page.getByTestId('card-C').innerText()).includes('message_withheld'), 'C withheld');
  assert((await page.getByTestId('summary').innerText()).includes('3 sequential rounds'), 'stateless rounds');
  await context.close();
}, { allow: [expected.get405(stateless)] });

test('Python MCPServer, stateful: the session is kept, four rounds, DELETE at the end', async () => {
  const { context, page } = await runAgainst(stateful);
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['✓ success', 'none']), 'D');
  const reqHeaders = await page.getByTestId('card-D').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Mcp-Session-Id'), 'session id sent');
  assert((await page.getByTestId('summary').innerText()).includes('4 sequential rounds'), 'stateful rounds');
  assert((await page.getByTestId('progress').innerText()).includes('DELETE session'), 'session closed');
  await context.close();
}, { allow: [expected.get405(stateful)] });

test('Python MCPServer that refuses this page\'s Origin: origin_rejected with the right advice', async () => {
  const { context, page } = await runAgainst(refusing);
  eq(JSON.stringify(await cardOutcome(page, 'card-connect')), JSON.stringify(['⛔ http', 'origin_rejected']), 'connect');
  assert((await page.getByTestId('card-connect').getByTestId('server-advice').innerText()).includes('exactly this origin'), 'advice');
  assert((await page.getByTestId('summary').innerText()).includes('validates Origin'), 'origin verdict');
  await context.close();
}, { allow: [expected.status(403, refusing)] });

test('2026-07-28 era against the Python peer: two rounds, _meta and Mcp-Method/Mcp-Name', async () => {
  const { context, page } = await runAgainst(stateless, { era: '2026-07-28' });
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['◆ tool_error', 'unknown_tool']), 'A');
  assert((await page.getByTestId('summary').innerText()).includes('2 sequential rounds'), 'modern rounds');
  const reqHeaders = await page.getByTestId('card-A').getByTestId('request-headers').textContent();
  assert(reqHeaders.includes('Mcp-Method') && reqHeaders.includes('Mcp-Name'), reqHeaders);
  await context.close();
}, { allow: [expected.get405(stateless)] });

test('auto era against the TypeScript demo: discover refused, fell back to initialize', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token', era: 'auto' });
  assert((await page.getByTestId('summary').innerText()).includes('fell back to initialize'), 'auto note');
  eq(JSON.stringify(await cardOutcome(page, 'card-C')), JSON.stringify(['◆ tool_error', 'tool_execution']), 'C');
  await context.close();
}, { allow: [expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint)] });
