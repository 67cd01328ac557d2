// Signing in from the page, in one tab, against real authorization servers: the TypeScript SDK
// 1.32.2 demo authorization server (dynamic registration from loopback; it approves at once and
// sends the browser back), oidc-provider 9 (a client registered beforehand whose id is pasted, its
// dev login page driven here, `iss` on the callback), and the hostile metadata server for what no
// real server does on purpose. Each sign-in leaves the page, comes back, and the Quick check runs
// with the token; the round trip's record is the one thing stored, and it is gone on return.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assert, eq, expected, leaks, runQuick, serveDist, shared, stageDist, startProcess, test, watchedPage } from '../lib.mjs';

const SDK = 18950;
const HOSTILE = 18952;
const OIDC = 18954;
const SENTINEL = `mcptriageSENTINEL_${Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('')}`;
const CONTROL_DIST = join(ROOT, 'target/leak-control-dist');
const CONTROL_PORT = shared.APP_PORT + 5;
const servers = Promise.all([
  startProcess('node', ['e2e/peers/oauth/server.mjs', '--as', 'sdk', '--port', String(SDK)], { ready: 'oauth peer' }),
  startProcess('node', ['e2e/auth-hostile.mjs', '--port', String(HOSTILE), '--sentinel', SENTINEL], { ready: 'auth hostile server' }),
  startProcess('node', ['e2e/peers/oauth/server.mjs', '--as', 'oidc', '--port', String(OIDC), '--client', `mcp-triage-page=${shared.appUrl}`], { ready: 'oauth peer' }),
]);
const controlUrl = existsSync(CONTROL_DIST) ? serveDist(stageDist('leak-control-signin', null, CONTROL_DIST), CONTROL_PORT) : null;

async function log(port) {
  return (await fetch(`http://127.0.0.1:${port}/__log`)).json();
}

async function stored(page) {
  return page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]);
}

/**
 * A Quick check against `endpoint`, the sign-in check, then "Sign in" (with `clientId`); `login`
 * plays the authorization server's pages when they ask for a person. Returns the page once it is
 * back (or stopped before leaving) with every URL the tab navigated to.
 */
async function signInFromPage(endpoint, { clientId = '', login = null, appUrl = shared.appUrl } = {}) {
  await servers;
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const navigations = [];
  page.on('request', (r) => { if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations.push(r.url()); });
  await page.goto(appUrl);
  await runQuick(page, { endpoint, token: '' });
  await page.getByTestId('check-sign-in').first().click();
  await page.getByTestId('sign-in-box').waitFor({ timeout: 30000 });
  if (clientId) await page.getByTestId('client-id').fill(clientId);
  const leaving = page.waitForEvent('framenavigated', { timeout: 30000 }).catch(() => null);
  await page.getByTestId('sign-in').click();
  const status = page.getByTestId('sign-in-status');
  const left = await Promise.race([leaving, status.and(page.locator('[data-id="stopped"]')).waitFor({ timeout: 30000 }).then(() => null)]);
  if (left && login) await login(page);
  if (left) await page.waitForURL((u) => u.href.startsWith(appUrl), { timeout: 30000 });
  await status.and(page.locator('[data-id="signed-in"], [data-id="stopped"]')).waitFor({ timeout: 30000 });
  return { page, context, navigations };
}

/** The Quick check with the token the sign-in put in the form; the records' statuses. */
async function runWithToken(page) {
  await page.getByTestId('sign-in-run').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
}

/** The sign-in check's own calls of the registration and token endpoints (bodies no server takes). */
const doctorCalls = (as, register, token) => [expected.status(400, `${as}/${register}`), expected.status(400, `${as}/${token}`)];

const sdkEndpoint = `http://localhost:${SDK}/mcp`;
const sdkAs = `http://localhost:${SDK + 1}`;
test('page sign-in: the SDK demo authorization server, registered from loopback, then the Quick check with the token', async () => {
  const { page, context, navigations } = await signInFromPage(sdkEndpoint);
  const status = page.getByTestId('sign-in-status');
  eq(await status.getAttribute('data-id'), 'signed-in', await status.innerText());
  assert((await status.innerText()).includes('registered dynamically for this sign-in'), await status.innerText());
  // Out to the authorization server and back, in this tab; the callback left the address at once.
  assert(navigations.some((u) => u.startsWith(`${sdkAs}/authorize?`)), JSON.stringify(navigations));
  eq(new URL(page.url()).search, '', 'no code, state or iss in the address');
  eq(JSON.stringify(await stored(page)), JSON.stringify([0, 0, '']), 'the record is gone, nothing else stored');
  // The form holds the endpoint it was for and the token; the Quick check runs with it.
  eq(await page.getByTestId('endpoint').inputValue(), sdkEndpoint, 'the endpoint came back');
  const token = await page.getByTestId('token').inputValue();
  assert(token.length > 8, 'a token in the form');
  await runWithToken(page);
  for (const probe of ['A', 'B', 'C', 'D']) {
    const card = page.getByTestId(`card-${probe}`);
    if (await card.count()) assert(!(await card.innerText()).includes('HTTP 401'), `probe ${probe} answered with the token`);
  }
  eq(await page.getByTestId('card-no-token').getByTestId('cause').first().getAttribute('data-id'), 'unauthenticated', 'only the check without the token is refused');
  // The token reaches no output.
  const markdown = await page.getByTestId('markdown-preview').textContent();
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  for (const text of [markdown, link, await page.content()]) eq(leaks(text, token).length, 0, 'the token in an output');
  await context.close();
}, { allow: [expected.noToken(sdkEndpoint), ...doctorCalls(sdkAs, 'register', 'token')] });
