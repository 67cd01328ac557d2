// Browser end-to-end tests: real demo MCP server (TS SDK 1.29.0), the built app, Debian's Chromium.
import { join } from 'node:path';
import { ARTIFACTS, assert, eq, launch, run, serveDist, stageDist, startDemo, test, watchedPage } from './lib.mjs';

const APP_PORT = 18081;
const DEMO_PORT = 18788;
const appOrigin = `http://127.0.0.1:${APP_PORT}`;
const demoEndpoint = await startDemo(DEMO_PORT, [appOrigin]);
const appUrl = await serveDist(stageDist('main', demoEndpoint), APP_PORT);
const plainUrl = await serveDist(stageDist('plain', null), APP_PORT + 1, ['--plain']);
const browser = await launch();

test('app loads with the demo endpoint, no console errors, no CSP violations', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await watchedPage(context);
  await page.goto(appUrl);
  await page.getByTestId('target-form').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  eq(await page.getByTestId('endpoint').inputValue(), demoEndpoint, 'endpoint prefilled from demo.json');
  eq(await page.getByTestId('endpoint-host').textContent(), `http://127.0.0.1:${DEMO_PORT}`, 'host shown');
  eq(await page.getByTestId('token').getAttribute('type'), 'password', 'token is a password field');
  eq(await page.getByTestId('token').getAttribute('autocomplete'), 'off', 'token autocomplete');
  assert((await page.getByTestId('demo-hint').textContent()).includes('demo-token'), 'demo token hint shown');
  await page.screenshot({ path: join(ARTIFACTS, 'form-wide-light.png'), fullPage: true });
  const problems = await page.problems();
  eq(problems.length, 0, `problems: ${problems.join('; ')}`);
  await context.close();
});

test('inline validation: cleartext to a remote host, CR/LF in the token', async () => {
  const context = await browser.newContext();
  const page = await watchedPage(context);
  await page.goto(appUrl);
  await page.getByTestId('endpoint').fill('http://example.com/mcp');
  assert((await page.getByTestId('endpoint-error').textContent()).includes('https://'), 'cleartext refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a cleartext remote URL');
  await page.getByTestId('endpoint').fill('https://mcp.example.com/mcp');
  // Browsers strip CR/LF from input fields (the core refuses them too: see endpoint.rs tests).
  await page.getByTestId('token').fill('tökén');
  assert((await page.getByTestId('token-error').textContent()).includes('HTTP header'), 'non-ASCII refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a bad token');
  await context.close();
});

test('the page refuses to run inside a frame, even from a host that sends no headers', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<iframe id="f" src="${plainUrl}" width="600" height="300"></iframe>`);
  const frame = await (await page.waitForSelector('#f')).contentFrame();
  await frame.waitForFunction(() => document.body && document.body.textContent.includes('refuses to run inside a frame'));
  eq(await frame.locator('[data-testid=target-form]').count(), 0, 'no form inside a frame');
  await context.close();
});

test('no storage is used by the page', async () => {
  const context = await browser.newContext();
  const page = await watchedPage(context);
  await page.goto(appUrl);
  await page.getByTestId('token').fill('mcptriageSENTINEL_storagecheck');
  const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]);
  eq(JSON.stringify(stored), JSON.stringify([0, 0, '']), 'no storage, no cookies');
  await page.reload();
  eq(await page.getByTestId('token').inputValue(), '', 'token field empty after reload');
  await context.close();
});

await run();
await browser.close();
