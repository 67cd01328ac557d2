// Four misconfigured CORS setups on the real demo server, each with the right diagnosis.
import { test } from '../fixtures.mjs';
import { assert, eq, expected, freePort, moreOptions, runQuick, shared, startDemo, stopServers, watchedPage } from '../lib.mjs';

const servers = {};
test.beforeAll(async () => {
  Object.assign(servers, {
    none: await startDemo([shared.appOrigin], ['--cors', 'none']),
    'no-authorization': await startDemo([shared.appOrigin], ['--cors', 'no-authorization']),
    'no-protocol-version': await startDemo([shared.appOrigin], ['--cors', 'no-protocol-version']),
    'no-expose-session': await startDemo([shared.appOrigin], ['--cors', 'no-expose-session', '--stateful']),
    'error-without-cors': await startDemo([shared.appOrigin], ['--cors', 'error-without-cors']),
  });
  // Nothing listens on this port: the OS handed it out free, and no test starts a server there.
  unreachable = `http://127.0.0.1:${await freePort()}/mcp`;
});
test.afterAll(stopServers);

async function run(mode) {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: servers[mode], token: 'demo-token' });
  return { context, page };
}

for (const [mode, step] of [
  ['none', 'allow_origin'],
  ['no-authorization', 'allow_authorization'],
  ['no-protocol-version', 'allow_protocol_version'],
]) {
  test(`CORS doctor: ${mode} → blocked at ${step}`, async ({ guard }) => {
    // The blocked requests and the doctor's probes are the point of this test.
    guard.allow(expected.cors(servers[mode]), expected.noToken(servers[mode]), expected.get405(servers[mode]));
    const { context, page } = await run(mode);
    await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
    eq(await page.getByTestId('blocked-step').innerText(), step, 'blocked step');
    assert((await page.getByTestId('diagnosis-conclusion').innerText()).startsWith('Most likely'), 'worded as most likely');
    const text = await page.getByTestId('diagnosis').innerText();
    assert(text.includes('Mcp-Session-Id') && text.includes('Access-Control-Max-Age'), 'what to allow/expose');
    // The fix ends with what the browser's rule does not bind: a terminal reaches the server.
    assert((await page.getByTestId('diagnosis-next').innerText()).includes('mcp-triage probe URL'), 'the command line is named');
    await context.close();
  });
}

test('CORS doctor: a 500 whose answer skips CORS is a server error the browser could not read, not a CORS setting', async ({ guard }) => {
  guard.allow(expected.cors(servers['error-without-cors']), expected.status(500, servers['error-without-cors']));
  const { context, page } = await run('error-without-cors');
  await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('blocked-step').innerText(), 'allow_origin', 'blocked step');
  const conclusion = await page.getByTestId('diagnosis-conclusion').innerText();
  assert(conclusion.startsWith('Most likely the server failed on this request') && !conclusion.includes('add CORS middleware'), conclusion);
  const text = await page.getByTestId('diagnosis').innerText();
  assert(!text.includes('Allow these request headers'), 'no CORS snippet for a server error');
  assert((await page.getByTestId('diagnosis-next').innerText()).includes('mcp-triage probe URL'), 'the command line reads it');
  await context.close();
});

test('CORS doctor: Mcp-Session-Id not exposed → the session id is not readable', async ({ guard }) => {
  // Without a readable session id the stateful server answers 400 to every later request.
  guard.allow(
    expected.status(400, servers['no-expose-session']),
    expected.noToken(servers['no-expose-session']),
    expected.get405(servers['no-expose-session']),
  );
  const { context, page } = await run('no-expose-session');
  assert((await page.getByTestId('summary').innerText()).includes('session id is not readable'), await page.getByTestId('summary').innerText());
  await context.close();
});

test('CORS doctor: an extra header the preflight does not list is named, not "every diagnostic request got through"', async ({ guard }) => {
  guard.allow(expected.cors(shared.demoEndpoint), expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await moreOptions(page);
  await page.getByTestId('add-header').click();
  await page.getByTestId('extra-name').fill('X-Tenant');
  await page.getByTestId('extra-secret').uncheck();
  await page.getByTestId('extra-value').fill('acme');
  // The demo server (TS SDK, cors middleware) lists MCP's headers only.
  await runQuick(page, { endpoint: shared.demoEndpoint, token: 'demo-token' });
  await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('blocked-step').innerText(), 'allow_extra_header', 'blocked step');
  const conclusion = await page.getByTestId('diagnosis-conclusion').innerText();
  assert(conclusion.includes('X-Tenant header you added'), conclusion);
  const text = await page.getByTestId('diagnosis').innerText();
  assert(/Allow these request headers: [^\n]*X-Tenant/.test(text), `the fix lists X-Tenant: ${text}`);
  await context.close();
});

// A port nothing listens on (beforeAll).
let unreachable;

test('CORS doctor: a host that does not answer is not a CORS setting, and no CORS fix is offered', async ({ guard }) => {
  guard.allow(expected.failed(unreachable));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: unreachable, token: 'demo-token' });
  await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('blocked-step').innerText(), 'host_answers', 'blocked step');
  assert((await page.getByTestId('diagnosis-conclusion').innerText()).includes('not a CORS setting'), 'the conclusion');
  const text = await page.getByTestId('diagnosis').innerText();
  assert(!text.includes('Allow these request headers') && !text.includes('Access-Control') && !text.includes('Copy snippet'), `no CORS fix: ${text}`);
  assert((await page.getByTestId('diagnosis-next').innerText()).includes('mcp-triage probe URL'), 'what to check instead');
  await context.close();
});
