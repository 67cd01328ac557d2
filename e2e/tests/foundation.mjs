// The page itself: loads clean under its CSP, validates input, refuses frames, stores nothing.
import { join } from 'node:path';
import { ARTIFACTS, assert, eq, serveDist, shared, stageDist, test, watchedPage } from '../lib.mjs';

test('app loads with the demo endpoint, no console errors, no CSP violations', async () => {
  const context = await shared.browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('target-form').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  eq(await page.getByTestId('endpoint').inputValue(), shared.demoEndpoint, 'endpoint prefilled from demo.json');
  eq(await page.getByTestId('endpoint-host').textContent(), 'http://127.0.0.1:18788', 'host shown');
  eq(await page.getByTestId('token').getAttribute('type'), 'password', 'token is a password field');
  eq(await page.getByTestId('token').getAttribute('autocomplete'), 'off', 'token autocomplete');
  eq(await page.getByTestId('token').getAttribute('spellcheck'), 'false', 'token spellcheck');
  assert((await page.getByTestId('demo-hint').textContent()).includes('demo-token'), 'demo token hint shown');
  await page.screenshot({ path: join(ARTIFACTS, 'form-wide-light.png'), fullPage: true });
  // The only miss allowed: this host has no demo.json (only `./x dev` writes one).
  const problems = (await page.problems()).filter((p) => !p.endsWith('/tools/triage/demo.json'));
  eq(problems.length, 0, `problems: ${problems.join('; ')}`);
  await context.close();
});

test('inline validation: cleartext to a remote host, non-ASCII token, bad extra header', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('endpoint').fill('http://example.com/mcp');
  assert((await page.getByTestId('endpoint-error').textContent()).includes('https://'), 'cleartext refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a cleartext remote URL');
  await page.getByTestId('endpoint').fill('javascript:alert(1)');
  assert((await page.getByTestId('endpoint-error').textContent()).includes('not a URL'), 'javascript: refused');
  await page.getByTestId('endpoint').fill('https://mcp.example.com/mcp');
  // Browsers strip CR/LF from input fields (the core refuses them too: see endpoint.rs tests).
  await page.getByTestId('token').fill('tökén');
  assert((await page.getByTestId('token-error').textContent()).includes('HTTP header'), 'non-ASCII refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a bad token');
  await page.getByTestId('token').fill('');
  await page.getByTestId('add-header').click();
  await page.getByTestId('extra-name').fill('Authorization');
  assert(await page.getByTestId('quick-check').isDisabled(), 'a reserved header name blocks the run');
  await context.close();
});

test('the page refuses to run inside a frame, even from a host that sends no headers', async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<iframe id="f" src="${shared.plainUrl}" width="600" height="300"></iframe>`);
  const frame = await (await page.waitForSelector('#f')).contentFrame();
  await frame.waitForFunction(() => document.body && document.body.textContent.includes('refuses to run inside a frame'));
  eq(await frame.locator('[data-testid=target-form]').count(), 0, 'no form inside a frame');
  await context.close();
});

test('dist works under a sub-path of a static host (relative asset URLs)', async () => {
  const base = await serveDist(stageDist('sub', null), shared.APP_PORT + 2, ['--prefix', '/tools/triage/']);
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(`${base}tools/triage/`);
  await page.getByTestId('target-form').waitFor();
  await page.locator('details.no-server > summary').click();
  await page.getByTestId('example-ts-1.29.0').click();
  await page.getByTestId('results').waitFor();
  // The only miss allowed: this host has no demo.json (only `./x dev` writes one).
  const problems = (await page.problems()).filter((p) => !p.endsWith('/tools/triage/demo.json'));
  eq(problems.length, 0, `problems: ${problems.join('; ')}`);
  await context.close();
});
