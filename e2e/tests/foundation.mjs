// The page itself: loads clean under its CSP, validates input, refuses frames, stores nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentFor } from '../../scripts/client-metadata.mjs';
import { test } from '../fixtures.mjs';
import { ARTIFACTS, assert, eq, expected, fillExactly, moreOptions, serveDist, shared, stageDist, stopServers, WASM_TRAP, watchedPage } from '../lib.mjs';

test.afterAll(stopServers);

test('app loads with the demo endpoint, no console errors, no CSP violations', async () => {
  const context = await shared.browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('target-form').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  eq(await page.getByTestId('endpoint').inputValue(), shared.demoEndpoint, 'endpoint prefilled from demo.json');
  eq(await page.getByTestId('endpoint-host').textContent(), new URL(shared.demoEndpoint).origin, 'host shown');
  eq(await page.getByTestId('token').getAttribute('type'), 'password', 'token is a password field');
  eq(await page.getByTestId('token').getAttribute('autocomplete'), 'off', 'token autocomplete');
  eq(await page.getByTestId('token').getAttribute('spellcheck'), 'false', 'token spellcheck');
  assert((await page.getByTestId('demo-hint').textContent()).includes('demo-token'), 'demo token hint shown');
  await page.screenshot({ path: join(ARTIFACTS, 'form-wide-light.png'), fullPage: true });
  // Console errors and CSP violations fail this test through the runner's guard (none is declared).
  await context.close();
});

test('inline validation: cleartext to a remote host, non-ASCII or short token, secret and plain extra headers', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  // The demo endpoint fills the empty field when demo.json arrives: let it, so it cannot land in
  // the middle of the typing below.
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  // The inline message appears when the form has read the input: wait for it (an event), and fail
  // when it never comes.
  const shows = (testid, text, what) =>
    page
      .waitForFunction(([t, x]) => document.querySelector(`[data-testid=${t}]`)?.textContent.includes(x), [testid, text], { timeout: 5000 })
      .catch(() => assert(false, what));
  await fillExactly(page, 'endpoint', 'http://example.com/mcp');
  await shows('endpoint-error', 'https://', 'cleartext refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a cleartext remote URL');
  await fillExactly(page, 'endpoint', 'javascript:alert(1)');
  await shows('endpoint-error', 'not a URL', 'javascript: refused');
  await fillExactly(page, 'endpoint', 'https://mcp.example.com/mcp');
  // Browsers strip CR/LF from input fields (the core refuses them too: see endpoint.rs tests).
  await page.getByTestId('token').fill('tökén');
  await shows('token-error', 'HTTP header', 'non-ASCII refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a bad token');
  await page.getByTestId('token').fill('abc1234');
  await shows('token-error', 'shorter than 8 characters', 'a 7-character token is refused');
  assert(await page.getByTestId('quick-check').isDisabled(), 'run disabled for a short token');
  await page.getByTestId('token').fill('');
  await moreOptions(page);
  await page.getByTestId('add-header').click();
  await page.getByTestId('extra-name').fill('X-Tenant');
  await page.getByTestId('extra-value').fill('acme');
  assert(await page.getByTestId('quick-check').isDisabled(), 'a 4-character secret header is refused');
  await page.getByTestId('extra-secret').uncheck();
  eq(await page.getByTestId('extra-value').getAttribute('type'), 'text', 'a plain header is shown');
  assert(await page.getByTestId('quick-check').isEnabled(), 'a plain header may be short (X-Tenant: acme)');
  await page.getByTestId('extra-name').fill('Authorization');
  assert(await page.getByTestId('quick-check').isDisabled(), 'a reserved header name blocks the run');
  await context.close();
});

test('the page refuses to run inside a frame, even from a host that sends no headers', async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<iframe id="f" src="${shared.plainUrl}" width="600" height="300"></iframe>`);
  const frame = await (await page.waitForSelector('#f')).contentFrame();
  await frame.waitForFunction(() => document.body?.textContent.includes('refuses to run inside a frame'));
  eq(await frame.locator('[data-testid=target-form]').count(), 0, 'no form inside a frame');
  await context.close();
});

test('dist works under a sub-path of a static host: the boot page, the app module on demand, the share module', async ({ guard }) => {
  // The client ID metadata document, written for this sub-path of an https address (as pages.yml
  // writes it for the Pages address).
  const staged = stageDist('sub', null);
  writeFileSync(join(staged, 'client-metadata.json'), JSON.stringify(documentFor('https://triage.example/tools/triage/')));
  const base = await serveDist(staged, ['--prefix', '/tools/triage/']);
  // The one miss declared: this host has no demo.json (only `./x dev` writes one), and a page served
  // from loopback asks for it.
  guard.allow(expected.status(404, `${base}tools/triage/demo.json`));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const modules = [];
  page.on('response', (r) => {
    if (/\.(js|wasm)$/.test(new URL(r.url()).pathname)) modules.push(new URL(r.url()).pathname);
  });
  await page.goto(`${base}tools/triage/`);
  await page.getByTestId('target-form').waitFor();
  await page.getByTestId('boot').waitFor();
  await page.locator('details.no-server > summary').click();
  await page.getByTestId('example-ts-1.29.0').click();
  await page.getByTestId('results').waitFor();
  eq(await page.getByTestId('boot').count(), 0, 'the app module took over');
  assert(modules.length === 4 && modules.every((p) => p.startsWith('/tools/triage/mcp-triage-')), `boot and app modules from the sub-path: ${modules}`);
  // A share link under the sub-path opens in the share module, alone.
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  assert(link.startsWith(`${base}tools/triage/#r=`), `a link under the sub-path: ${link.slice(0, 80)}`);
  const opened = await context.newPage();
  await opened.goto(link);
  await opened.getByTestId('shared-view').waitFor();
  eq(await opened.getByTestId('boot').count(), 0, 'no boot page for a share link');
  // The document the page reads beside itself names the page under its sub-path.
  const doc = await page.evaluate(() => fetch('client-metadata.json').then((r) => r.json()));
  eq(doc.client_id, 'https://triage.example/tools/triage/client-metadata.json', 'its client_id is its own URL');
  eq(JSON.stringify(doc.redirect_uris), JSON.stringify(['https://triage.example/tools/triage/']), 'the page, under its sub-path');
  const shareModule = await opened.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => /\.(js|wasm)$/.test(p)),
  );
  assert(
    shareModule.length === 2 && shareModule.every((p) => p.startsWith('/tools/triage/mcp-triage-share-')),
    `the share module alone, from the sub-path: ${shareModule}`,
  );
  await context.close();
});

// The control for the guard itself: each kind of problem fails a test that did not declare it, and
// passes one that did. Without this, a guard that saw nothing would look the same as a clean page.
test('guard: an undeclared console error, page error, wasm trap or CSP violation fails its test; a declared one does not', async ({ guard }) => {
  // A problem may arrive just after an inner test ended; this test provokes all of them on purpose.
  guard.allow(
    /^console: e2e guard control$/,
    /^pageerror: e2e guard control$/,
    /^pageerror: unreachable/,
    /^csp: img-src https:\/\/example\.invalid\/guard\.png$/,
    /^console: Loading the image 'https:\/\/example\.invalid\/guard\.png' violates the following Content Security Policy directive/,
  );
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.goto(shared.appUrl);
  await page.getByTestId('target-form').waitFor();
  const provoke = {
    console: [/^console: e2e guard control$/, () => page.evaluate(() => console.error('e2e guard control'))],
    pageerror: [
      /^pageerror: e2e guard control$/,
      () =>
        page.evaluate(() => {
          setTimeout(() => {
            throw new Error('e2e guard control');
          });
        }),
    ],
    'wasm trap': [
      /^pageerror: unreachable/,
      () =>
        page.evaluate(async (bytes) => {
          const { instance } = await WebAssembly.instantiate(new Uint8Array(bytes));
          setTimeout(() => instance.exports.f());
        }, WASM_TRAP),
    ],
    csp: [
      /^csp: img-src https:\/\/example\.invalid\/guard\.png$/,
      () =>
        page.evaluate(() => {
          const img = document.createElement('img');
          img.src = 'https://example.invalid/guard.png';
          document.body.append(img);
        }),
    ],
  };
  for (const [kind, [pattern, act]] of Object.entries(provoke)) {
    const body = async () => {
      // Wait for the event itself: the problem must reach the list before the test ends.
      const seen = guard.nextProblem();
      await act();
      await seen;
    };
    const undeclared = await guard.runOne({ fn: body, allow: [] });
    assert(undeclared?.includes('undeclared browser problems'), `${kind}: an undeclared problem must fail the test, got ${undeclared}`);
    // The CSP case also logs Chromium's console line for the refused image: declare both.
    const declared = await guard.runOne({
      fn: body,
      allow: [pattern, /^console: Loading the image 'https:\/\/example\.invalid\/guard\.png' violates the following Content Security Policy directive/],
    });
    eq(declared, null, `${kind}: a declared problem passes`);
  }
  await context.close();
});
