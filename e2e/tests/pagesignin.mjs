// Signing in from the page, in one tab, against real authorization servers: the TypeScript SDK
// 1.32.2 demo authorization server (dynamic registration from loopback; it approves at once and
// sends the browser back), oidc-provider 9 (a client registered beforehand whose id is pasted, its
// dev login page driven here, `iss` on the callback), and the hostile metadata server for what no
// real server does on purpose. Each sign-in leaves the page, comes back, and the Quick check runs
// with the token; the round trip's record is the one thing stored, and it is gone on return.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentFor } from '../../scripts/client-metadata.mjs';
import { test } from '../fixtures.mjs';
import { ROOT, assert, eq, expected, leaks, runQuick, serveDist, shared, stageDist, startOnPair, stopServers, watchedPage } from '../lib.mjs';

const SENTINEL = `mcptriageSENTINEL_${Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('')}`;
const CONTROL_DIST = join(ROOT, 'target/leak-control-dist');
// Each server's port (its authorization server, or the hostile server's "elsewhere", is on the next
// one), and the page built with redaction switched off, on a port of its own.
let SDK, HOSTILE, OIDC, servers, controlUrl, CONTROL_PORT;
test.beforeAll(async () => {
  SDK = await startOnPair(['e2e/peers/oauth/server.mjs', '--as', 'sdk'], 'oauth peer');
  HOSTILE = await startOnPair(['e2e/auth-hostile.mjs', '--sentinel', SENTINEL], 'auth hostile server');
  OIDC = await startOnPair(['e2e/peers/oauth/server.mjs', '--as', 'oidc', '--client', `mcp-triage-page=${shared.appUrl}`], 'oauth peer');
  servers = Promise.resolve();
  controlUrl = existsSync(CONTROL_DIST) ? await serveDist(stageDist('leak-control-signin', null, CONTROL_DIST)) : null;
  CONTROL_PORT = controlUrl && new URL(controlUrl).port;
  sdkEndpoint = `http://localhost:${SDK}/mcp`;
  sdkAs = `http://localhost:${SDK + 1}`;
  oidcEndpoint = `http://localhost:${OIDC}/mcp`;
  oidcAs = `http://localhost:${OIDC + 1}`;
});
test.afterAll(stopServers);

async function log(port) {
  return (await fetch(`http://127.0.0.1:${port}/__log`)).json();
}

async function stored(page) {
  return page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]);
}

/**
 * A Quick check against `endpoint`, the sign-in check, then "Sign in" (with `clientId`); `login`
 * plays the authorization server's pages when they ask for a person. Returns the page once it is
 * back (or stopped before leaving) with every URL the tab navigated to and, with `watchStorage`,
 * the record the page stored before it left.
 */
async function signInFromPage(endpoint, { clientId = '', login = null, appUrl = shared.appUrl, watchStorage = false } = {}) {
  await servers;
  const context = await shared.browser.newContext({ acceptDownloads: true });
  const page = await watchedPage(context);
  // What the page had stored when the browser left for the authorization server.
  const record = { text: null };
  if (watchStorage) {
    await context.exposeBinding('__e2eStored', (_source, key, value) => {
      if (key === 'mcp-triage-signin') record.text = value;
    });
    await context.addInitScript(() => {
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function setItem(key, value) {
        // eslint-disable-next-line no-undef
        window.__e2eStored(key, value);
        return set.call(this, key, value);
      };
    });
  }
  const consoleText = [];
  page.on('console', (m) => consoleText.push(m.text()));
  const navigations = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations.push(r.url());
  });
  await page.goto(appUrl);
  await runQuick(page, { endpoint, token: '' });
  await page.getByTestId('check-sign-in').first().click();
  await page.getByTestId('sign-in-box').waitFor({ timeout: 30000 });
  if (clientId) await page.getByTestId('client-id').fill(clientId);
  const leaving = page.waitForEvent('framenavigated', { timeout: 30000 }).catch(() => null);
  await page.getByTestId('sign-in').click();
  const status = page.getByTestId('sign-in-status');
  const left = await Promise.race([
    leaving,
    status
      .and(page.locator('[data-id="stopped"]'))
      .waitFor({ timeout: 30000 })
      .then(() => null),
  ]);
  if (left && login) await login(page);
  if (left) await page.waitForURL((u) => u.href.startsWith(appUrl), { timeout: 30000 });
  await status.and(page.locator('[data-id="signed-in"], [data-id="stopped"]')).waitFor({ timeout: 30000 });
  return { page, context, navigations, record: record.text, consoleText };
}

/** The Quick check with the token the sign-in put in the form; the records' statuses. */
async function runWithToken(page) {
  await page.getByTestId('sign-in-run').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
}

/** The sign-in check's own calls of the registration and token endpoints (bodies no server takes). */
const doctorCalls = (as, register, token) => [expected.status(400, `${as}/${register}`), expected.status(400, `${as}/${token}`)];

let sdkEndpoint, sdkAs;
test('page sign-in: the SDK demo authorization server, registered from loopback, then the Quick check with the token', async ({ guard }) => {
  guard.allow(expected.noToken(sdkEndpoint), ...doctorCalls(sdkAs, 'register', 'token'));
  const { page, context, navigations } = await signInFromPage(sdkEndpoint);
  const status = page.getByTestId('sign-in-status');
  eq(await status.getAttribute('data-id'), 'signed-in', await status.innerText());
  assert((await status.innerText()).includes('registered dynamically for this sign-in'), await status.innerText());
  // Out to the authorization server and back, in this tab; the callback left the address at once.
  assert(
    navigations.some((u) => u.startsWith(`${sdkAs}/authorize?`)),
    JSON.stringify(navigations),
  );
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
  eq(
    await page.getByTestId('card-no-token').getByTestId('cause').first().getAttribute('data-id'),
    'unauthenticated',
    'only the check without the token is refused',
  );
  // The token reaches no output.
  const markdown = await page.getByTestId('markdown-preview').textContent();
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  for (const text of [markdown, link, await page.content()]) eq(leaks(text, token).length, 0, 'the token in an output');
  await context.close();
});

const hostileEndpoint = (name) => `http://localhost:${HOSTILE}/${name}/mcp`;
const hostileAllow = (name) => [
  expected.noToken(hostileEndpoint(name)),
  expected.status(404, `http://localhost:${HOSTILE}/.well-known/oauth-protected-resource`),
  expected.status(404, `http://localhost:${HOSTILE}/.well-known/openid-configuration/${name}`),
  expected.status(404, `http://localhost:${HOSTILE}/${name}/.well-known/openid-configuration`),
];
/** What the hostile server's `name` case was asked, on either port. */
async function hostileLog(name) {
  const main = (await log(HOSTILE)).filter((r) => r.path.startsWith(`/${name}/`));
  return { main, elsewhere: await log(HOSTILE + 1) };
}

for (const [name, left, refusal] of [
  ['iss-mismatch', true, 'is not the expected issuer'],
  ['no-state', true, 'carries no state'],
  ['js-authorize', false, 'no authorization endpoint that may be opened'],
  ['bad-endpoints', false, 'no token endpoint on the issuer'],
  ['no-pkce', false, 'does not advertise PKCE with S256'],
]) {
  test(`page sign-in: the hostile server's ${name} is refused with its reason, and nothing goes where it must not`, async ({ guard }) => {
    guard.allow(...hostileAllow(name));
    await servers;
    const { page, context, navigations } = await signInFromPage(hostileEndpoint(name));
    const status = page.getByTestId('sign-in-status');
    eq(await status.getAttribute('data-id'), 'stopped', await status.innerText());
    assert((await status.innerText()).includes(refusal), await status.innerText());
    const authorize = navigations.filter((u) => u.includes('/authorize'));
    eq(authorize.length, left ? 1 : 0, `${name}: left for the authorization server ${left ? 'once' : 'never'}: ${JSON.stringify(navigations)}`);
    assert(
      navigations.every((u) => u.startsWith('http://')),
      'never a javascript: navigation',
    );
    eq(new URL(page.url()).search, '', 'no callback left in the address');
    eq(JSON.stringify(await stored(page)), JSON.stringify([0, 0, '']), 'nothing stored');
    // No code and no verifier went to any token endpoint; the other origin heard nothing.
    const { main, elsewhere } = await hostileLog(name);
    assert(
      main.every((r) => !(r.path.endsWith('/token') && (r.body || '').includes('code_verifier'))),
      JSON.stringify(main),
    );
    eq(elsewhere.length, 0, 'nothing to the other origin');
    await context.close();
  });
}

/** Everything a signed-in run shows: the exports (the JSON file keeps the server's answers), the
 * share link, the page and its address, and what the console printed. */
async function outputs(page, consoleText) {
  const markdown = await page.getByTestId('markdown-preview').textContent();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  const json = readFileSync(await download.path(), 'utf8');
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  return { markdown, json, link, html: await page.content(), address: page.url(), console: consoleText.join('\n') };
}

test('page sign-in: the token, refresh token, code and verifier reach no output; the record is there while away and gone after; the redaction-off page shows the echoed token', async ({
  guard,
}) => {
  guard.allow(...hostileAllow('good'), expected.status(404, `http://127.0.0.1:${CONTROL_PORT}/demo.json`));
  const endpoint = hostileEndpoint('good');
  const { page, context, record, consoleText } = await signInFromPage(endpoint, { watchStorage: true });
  eq(await page.getByTestId('sign-in-status').getAttribute('data-id'), 'signed-in', await page.getByTestId('sign-in-status').innerText());
  const sent = [];
  page.on('request', (r) => sent.push({ url: r.url(), headers: r.headers(), body: r.postData() || '' }));
  await runWithToken(page);
  const out = await outputs(page, consoleText);
  const tokenRequest = (await hostileLog('good')).main.find((r) => r.path === '/good/token' && (r.body || '').includes('code_verifier='));
  assert(tokenRequest, 'the code was redeemed');
  const verifier = new URLSearchParams(tokenRequest.body).get('code_verifier');
  const secrets = { access: `${SENTINEL}-access`, refresh: `${SENTINEL}-refresh`, code: `${SENTINEL}-code`, verifier };
  // The record held the round trip's values while the page was away (the verifier among them, as
  // SECURITY.md rule 11 allows), no token; after the return, storage is empty.
  assert(record && JSON.parse(record).verifier === verifier, `the record while away: ${record}`);
  eq(leaks(record, secrets.access).length, 0, 'no token in the record');
  eq(JSON.stringify(await stored(page)), JSON.stringify([0, 0, '']), 'nothing stored after the return');
  for (const [name, secret] of Object.entries(secrets)) {
    for (const [where, text] of Object.entries(out)) eq(leaks(text, secret).length, 0, `${name} in ${where}`);
    // The run's requests carry the token only in their Authorization header, to the endpoint.
    for (const r of sent) {
      const { authorization, ...rest } = r.headers;
      eq(leaks(JSON.stringify({ ...r, headers: rest }), secret).length, 0, `${name} in a request to ${r.url}`);
      if (authorization) assert(r.url === endpoint, `the token went to ${r.url}`);
    }
  }
  await context.close();
  // The control: the page built with redaction switched off shows the token the server echoed.
  assert(controlUrl, `${CONTROL_DIST} is missing: the test command builds it`);
  const control = await signInFromPage(endpoint, { appUrl: await controlUrl });
  await runWithToken(control.page);
  const shown = await outputs(control.page, control.consoleText);
  const leaked = Object.entries(shown)
    .filter(([, text]) => leaks(text, secrets.access).length > 0)
    .map(([where]) => where);
  assert(leaked.length > 0, 'the control must leak the echoed token');
  await control.context.close();
});

let oidcEndpoint, oidcAs;
test('page sign-in: oidc-provider with a client id pasted (registered beforehand), its dev login page, iss checked, then the Quick check', async ({
  guard,
}) => {
  guard.allow(
    expected.noToken(oidcEndpoint),
    expected.cors(`${oidcAs}/reg`),
    expected.status(400, `${oidcAs}/reg`),
    expected.cors(`${oidcAs}/token`),
    expected.status(400, `${oidcAs}/token`),
    expected.status(401, `${oidcAs}/token`),
    // oidc-provider's own dev login pages ask for a web font and a favicon (no network here).
    expected.failed('https://fonts.googleapis.com/css?family=Roboto:400,100', 'ERR_NAME_NOT_RESOLVED'),
    expected.status(404, `${oidcAs}/favicon.ico`),
  );
  // The authorization server asks for a person: its dev login page (any login), then its consent.
  const login = async (page) => {
    await page.waitForURL((u) => u.href.startsWith(`${oidcAs}/interaction/`), { timeout: 30000 });
    for (let step = 0; step < 2 && page.url().startsWith(`${oidcAs}/interaction/`); step++) {
      const here = page.url();
      if (await page.locator('input[name="login"]').count()) {
        await page.locator('input[name="login"]').fill('tester');
        await page.locator('input[name="password"]').fill('any');
      }
      await page.locator('button[type="submit"]').first().click();
      await page.waitForURL((u) => u.href !== here, { timeout: 30000 });
    }
  };
  const { page, context, navigations } = await signInFromPage(oidcEndpoint, { clientId: 'mcp-triage-page', login });
  const status = page.getByTestId('sign-in-status');
  eq(await status.getAttribute('data-id'), 'signed-in', await status.innerText());
  assert((await status.innerText()).includes('as client "mcp-triage-page" (given by you)'), await status.innerText());
  // The callback carried iss (oidc-provider sends it), and the page checked it against the issuer.
  const back = navigations.find((u) => u.startsWith(shared.appUrl) && u.includes('code='));
  assert(back && new URL(back).searchParams.get('iss') === oidcAs, `the callback's iss: ${back}`);
  eq(JSON.stringify(await stored(page)), JSON.stringify([0, 0, '']), 'nothing stored after the return');
  await runWithToken(page);
  eq(
    await page.getByTestId('card-no-token').getByTestId('cause').first().getAttribute('data-id'),
    'unauthenticated',
    'only the check without the token is refused',
  );
  assert(!(await page.getByTestId('card-A').innerText()).includes('HTTP 401'), 'probe A answered with the token');
  await context.close();
});

test('client ID metadata document: written for an https address as OAUTH-FACTS asks, refused for loopback and cleartext', async () => {
  for (const address of ['https://owner.github.io/mcp-triage/', 'https://owner.github.io/mcp-triage', 'https://triage.example/']) {
    const doc = documentFor(address);
    const id = new URL(doc.client_id);
    eq(id.protocol, 'https:', `${address}: an https document`);
    assert(id.pathname.length > 1, `${address}: a URL with a path`);
    eq(doc.client_id, new URL('client-metadata.json', doc.redirect_uris[0]).href, `${address}: client_id is the document's own URL, beside the page`);
    assert(doc.client_name, 'a client_name');
    eq(doc.redirect_uris.length, 1, 'the page is the one redirect URI');
    assert(
      doc.redirect_uris.every((u) => !['localhost', '127.0.0.1', '[::1]'].includes(new URL(u).hostname)),
      'no loopback redirect in a public document',
    );
    eq(doc.token_endpoint_auth_method, 'none', 'a public client');
    eq(doc.application_type, 'web', 'a hosted page is a web client');
  }
  for (const address of [
    'http://owner.github.io/mcp-triage/',
    'https://localhost/',
    'https://127.0.0.1:8443/x/',
    'https://a.localhost/',
    'https://x.example/?q=1',
    'not a url',
  ]) {
    let refused = false;
    try {
      documentFor(address);
    } catch {
      refused = true;
    }
    assert(refused, `${address}: refused`);
  }
});
