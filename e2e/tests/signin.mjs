// The page's sign-in check against real authorization setups: oidc-provider 9 (no CORS on its
// registration endpoint) and the TypeScript SDK 1.32.2 demo authorization server, each in front of
// our MCP server (e2e/peers/oauth/server.mjs), and the hostile metadata server (e2e/auth-hostile.mjs).
// The page's verdicts are the command line's, plus what only a browser can tell: whether CORS let it
// make each call. Nothing is navigated to, no markup from metadata runs, nothing is stored, and the
// token typed into the form never reaches a discovery request or any output.
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { SENTINEL, assert, cli, eq, expected, leaks, runQuick, shared, startOnPair, stopServers, watchedPage, SHOTS } from '../lib.mjs';

// Each server's port (its authorization server, or its "elsewhere", is on the next one).
let OIDC, SDK, HOSTILE, servers;
test.beforeAll(async () => {
  OIDC = await startOnPair(['e2e/peers/oauth/server.mjs', '--as', 'oidc'], 'oauth peer');
  SDK = await startOnPair(['e2e/peers/oauth/server.mjs', '--as', 'sdk'], 'oauth peer');
  HOSTILE = await startOnPair(['e2e/auth-hostile.mjs'], 'auth hostile server');
  servers = Promise.resolve();
  oidcEndpoint = `http://localhost:${OIDC}/mcp`;
  oidcAs = `http://localhost:${OIDC + 1}`;
  sdkEndpoint = `http://localhost:${SDK}/mcp`;
});
test.afterAll(stopServers);

/**
 * Runs a check against `endpoint` with `token`, then the sign-in check; returns the page, every
 * request the page made after the click (method, URL, headers, body) and the page's URLs seen.
 */
async function signIn(endpoint, token = '') {
  await servers;
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const navigations = [];
  page.on('framenavigated', (f) => navigations.push(f.url()));
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token });
  const requests = [];
  page.on('request', (r) => requests.push({ method: r.method(), url: r.url(), headers: r.headers(), body: r.postData() || '' }));
  const before = navigations.length;
  await page.getByTestId('check-sign-in').first().click();
  await page.getByTestId('auth').waitFor({ timeout: 30000 });
  eq(navigations.length, before, 'the check navigates nowhere');
  return { page, context, requests };
}

/** The cards the page shows: step → { cors, findings: { check: verdict } }. */
async function pageCards(page) {
  return page
    .getByTestId('auth')
    .locator('article')
    .evaluateAll((articles) =>
      Object.fromEntries(
        articles.map((a) => [
          a.dataset.testid.replace(/^card-auth-/, '').replace(/-/g, '_'),
          {
            cors: a.querySelector('[data-testid="cors"]')?.dataset.id ?? null,
            findings: Object.fromEntries(
              [...a.querySelectorAll('[data-testid="auth-finding"]')].map((f) => [f.dataset.id, f.querySelector('[data-testid="verdict"]').dataset.id]),
            ),
          },
        ]),
      ),
    );
}

/** The command line's cards for the same endpoint: step → { check: verdict }. */
function cliCards(endpoint) {
  const report = JSON.parse(cli(['probe', endpoint, '--auth-check', '--json', '--include-path']));
  return Object.fromEntries(report.auth.cards.map((c) => [c.step, Object.fromEntries(c.findings.map((f) => [f.check, f.conformance]))]));
}

/**
 * Every card the command line shows has the same verdicts in the page, but where CORS kept the
 * page from reading the document (`refused`: the steps the caller expects so).
 */
function sameVerdicts(page, cli, refused = []) {
  for (const [step, findings] of Object.entries(cli)) {
    if (refused.includes(step)) {
      // Refused to the page, so nothing read; the cards after it the page never reaches.
      if (page[step]) eq(`${page[step].cors} ${JSON.stringify(page[step].findings)}`, 'no_allow_origin {}', `${step}: refused to the page`);
      continue;
    }
    assert(page[step], `the page has no ${step} card: ${JSON.stringify(Object.keys(page))}`);
    eq(JSON.stringify(page[step].findings), JSON.stringify(findings), `${step}: the page's verdicts are the command line's`);
  }
}

async function storageIsEmpty(page) {
  const stored = await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]);
  eq(JSON.stringify(stored), JSON.stringify([0, 0, '']), 'nothing stored');
}

let oidcEndpoint, oidcAs, sdkEndpoint;
test('sign-in check: oidc-provider refuses the page at registration, which the page names and the command line cannot', async ({ guard }) => {
  guard.allow(
    expected.noToken(oidcEndpoint),
    expected.cors(`${oidcAs}/reg`),
    expected.status(400, `${oidcAs}/reg`),
    expected.cors(`${oidcAs}/token`),
    expected.status(400, `${oidcAs}/token`),
    expected.status(401, `${oidcAs}/token`),
  );
  const { page, context, requests } = await signIn(oidcEndpoint, SENTINEL);
  const conclusion = await page.getByTestId('auth-browser').innerText();
  assert(conclusion.includes('stopped at client registration') && conclusion.includes('the registration endpoint refuses this origin'), conclusion);
  const cards = await pageCards(page);
  eq(cards.challenge.cors, 'allowed', 'the 401 and its challenge were read');
  eq(cards.prm_from_challenge.cors, 'allowed', 'the resource metadata');
  eq(cards.as_oauth.cors, 'allowed', 'the server metadata (discovery is open)');
  eq(cards.registration.cors, 'no_allow_origin', 'registration: no Access-Control-Allow-Origin at all');
  assert(cards.token_endpoint, 'the token endpoint was called too');
  sameVerdicts(cards, cliCards(oidcEndpoint));
  // The command line says it judged no CORS, on the registration card.
  const fromCli = JSON.parse(cli(['probe', oidcEndpoint, '--auth-check', '--json']));
  eq(fromCli.auth.cards.find((c) => c.step === 'registration').browser.access, 'not_judged', 'the CLI card');
  // The calls: no token, no credentials, nothing a server could take for a registration or a grant.
  const toAs = requests.filter((r) => r.url.startsWith(oidcAs));
  assert(
    toAs.some((r) => r.url === `${oidcAs}/reg` && r.method === 'POST' && r.body === '[]'),
    JSON.stringify(toAs),
  );
  for (const r of requests) {
    assert(!r.headers.authorization, `no Authorization on ${r.method} ${r.url}`);
    eq(leaks(JSON.stringify(r)).length, 0, `the token in ${r.method} ${r.url}`);
  }
  // The cards reach the exports and the link; the token reaches none.
  const markdown = await page.getByTestId('markdown-preview').textContent();
  assert(markdown.includes('#### Authorization discovery') && markdown.includes('browser: no allow origin'), markdown.slice(-800));
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  assert(link.includes('#r=v14.'), link.slice(0, 80));
  for (const text of [markdown, link, await page.content()]) eq(leaks(text).length, 0, 'the token in an output');
  await storageIsEmpty(page);
  // The link opens with the doctor's cards and their CORS verdicts.
  const opened = await watchedPage(context);
  await opened.goto(link);
  await opened.getByTestId('shared-view').waitFor();
  eq(await opened.getByTestId('card-auth-registration').getByTestId('cors').getAttribute('data-id'), 'no_allow_origin', 'in the link');
  assert((await opened.getByTestId('auth-browser').innerText()).includes('stopped at client registration'), 'the link says where');
  await context.close();
});

test('sign-in check: the TypeScript SDK demo authorization server lets the page through every call', async ({ guard }) => {
  guard.allow(
    expected.noToken(sdkEndpoint),
    expected.status(400, `http://localhost:${SDK + 1}/register`),
    expected.status(400, `http://localhost:${SDK + 1}/token`),
  );
  const { page, context } = await signIn(sdkEndpoint);
  const conclusion = await page.getByTestId('auth-browser').innerText();
  assert(conclusion.includes('CORS let through every call of the sign-in that was tried'), conclusion);
  const cards = await pageCards(page);
  for (const step of ['challenge', 'prm_from_challenge', 'as_oauth', 'registration', 'token_endpoint']) {
    eq(cards[step].cors, 'allowed', step);
  }
  sameVerdicts(cards, cliCards(sdkEndpoint));
  await storageIsEmpty(page);
  await context.close();
});

for (const [name, check, refused = []] of [
  [
    'bad-endpoints',
    async (page, cards) => {
      eq(cards.as_oauth.findings.as_endpoints_on_issuer_origin, 'deviates', 'the off-origin token endpoint');
      assert(!cards.token_endpoint || cards.token_endpoint.cors === null, 'no call to a token endpoint off the issuer');
      // The javascript: URL is text, never a link.
      eq(await page.getByTestId('auth').locator('a[href^="javascript"]').count(), 0, 'no javascript: link');
    },
  ],
  [
    'prm-not-json',
    async (page) => {
      eq(await page.title(), 'MCP Triage', 'the HTML document ran nothing');
    },
  ],
  [
    'as-no-cors',
    async (page) => {
      const conclusion = await page.getByTestId('auth-browser').innerText();
      assert(conclusion.includes('stopped at authorization server metadata (RFC 8414)'), conclusion);
    },
    ['as_oauth', 'registration', 'authorization_url'],
  ],
]) {
  test(`sign-in check: the hostile metadata server's ${name} gives the command line's verdicts and runs nothing`, async ({ guard }) => {
    const endpoint = `http://localhost:${HOSTILE}/${name}/mcp`;
    const as = `http://localhost:${HOSTILE}/.well-known/oauth-authorization-server/${name}`;
    guard.allow(
      expected.noToken(endpoint),
      expected.cors(as),
      expected.status(404, `http://localhost:${HOSTILE}/.well-known/oauth-protected-resource`),
      expected.status(404, `http://localhost:${HOSTILE}/.well-known/openid-configuration/${name}`),
      expected.status(404, `http://localhost:${HOSTILE}/${name}/.well-known/openid-configuration`),
      expected.status(404, `http://localhost:${HOSTILE}/${name}/register`),
      expected.status(404, `http://localhost:${HOSTILE}/${name}/token`),
    );
    const { page, context, requests } = await signIn(endpoint);
    const cards = await pageCards(page);
    sameVerdicts(cards, cliCards(endpoint), refused);
    await check(page, cards);
    assert(
      requests.every((r) => !r.url.startsWith(`http://localhost:${HOSTILE + 1}`)),
      'nothing sent elsewhere',
    );
    await storageIsEmpty(page);
    await context.close();
  });
}

test('sign-in check: its cards read in light, dark and at 360 px (screenshots in docs/)', async ({ guard }) => {
  guard.allow(
    expected.noToken(oidcEndpoint),
    expected.cors(`${oidcAs}/reg`),
    expected.status(400, `${oidcAs}/reg`),
    expected.cors(`${oidcAs}/token`),
    expected.status(400, `${oidcAs}/token`),
    expected.status(401, `${oidcAs}/token`),
  );
  for (const [name, options] of [
    ['light', { colorScheme: 'light', viewport: { width: 1100, height: 900 } }],
    ['dark', { colorScheme: 'dark', viewport: { width: 1100, height: 900 } }],
    ['360', { colorScheme: 'light', viewport: { width: 360, height: 800 } }],
  ]) {
    await servers;
    const context = await shared.browser.newContext(options);
    const page = await watchedPage(context);
    await page.goto(shared.appUrl);
    await runQuick(page, { endpoint: oidcEndpoint, token: '' });
    await page.getByTestId('check-sign-in').first().click();
    const auth = page.getByTestId('auth');
    await auth.waitFor({ timeout: 30000 });
    // Nothing wider than the screen: URLs and documents wrap.
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert(scroll <= client, `${name}: the page scrolls sideways (${scroll} > ${client})`);
    // The section's top: what a page-based client meets, then the first cards.
    await auth.evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, `screenshot-signin-${name}.png`) });
    await context.close();
  }
});
