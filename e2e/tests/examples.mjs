// Examples from real recorded exchanges (loaded on demand) and pasted captures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ROOT, assert, cardOutcome, eq, shared, watchedPage } from '../lib.mjs';

test("examples load on demand and show each SDK's answers", async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(shared.appUrl);
  await page.getByTestId('target-form').waitFor();
  eq(requests.filter((u) => u.includes('/examples/')).length, 0, 'no example in the first load');
  await page.locator('details.no-server > summary').click();
  await page.getByTestId('example-ts-1.29.0').click();
  await page.getByTestId('results').waitFor();
  eq(
    await page.getByTestId('finding').innerText(),
    'An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart.',
    'seed finding',
  );
  eq(JSON.stringify(await cardOutcome(page, 'card-no-token')), JSON.stringify(['http', 'unauthenticated']), '401 example');
  await page.getByTestId('example-py-mcp-2.3.0-lowlevel').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=source-banner]')?.textContent.includes('low-level'));
  eq(JSON.stringify(await cardOutcome(page, 'card-A')), JSON.stringify(['jsonrpc_error', 'unknown_tool']), 'lowlevel A');
  await page.getByTestId('card-A').locator('summary.card-head').click();
  eq(await page.getByTestId('card-A').getByTestId('jsonrpc-code').innerText(), '0', 'code 0');
  await page.getByTestId('example-ts-1.20.0').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=source-banner]')?.textContent.includes('1.20.0'));
  eq(await page.getByTestId('score').innerText(), '2 of 3 pairs', 'ts 1.20: A and B share -32602');
  assert(requests.filter((u) => u.includes('/examples/')).length === 3, 'each example fetched when clicked');
  await context.close();
});

test('paste a capture: an mcp-exchange/1 document, a raw HTTP response, and a clear error', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.locator('details.no-server > summary').click();
  const doc = readFileSync(join(ROOT, 'fixtures/exchanges/py-mcp-2.3.0-mcpserver-stateless/C_tool_throws.pv2025-06-18.json'), 'utf8');
  await page.getByTestId('paste-capture').fill(doc);
  await page.getByTestId('paste-classify').click();
  await page.getByTestId('results').waitFor();
  await page.locator('details.connect > summary').click();
  assert((await page.getByTestId('results').innerText()).includes('tool execution'), 'pasted exchange classified');
  await page
    .getByTestId('paste-capture')
    .fill(
      'HTTP/1.1 406 Not Acceptable\ncontent-type: application/json\n\n{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Acceptable: Client must accept both application/json and text/event-stream"}}',
    );
  await page.getByTestId('paste-request').fill('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  await page.getByTestId('paste-classify').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]')?.textContent.includes('not acceptable'));
  await page.getByTestId('paste-capture').fill('this is not a capture');
  await page.getByTestId('paste-classify').click();
  assert((await page.getByTestId('paste-error').innerText()).includes('status line'), 'clear message');
  await context.close();
});
