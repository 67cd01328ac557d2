// The token never leaves the page except in the Authorization header; redirects are not followed;
// server text is never markup. Uses the hostile server (behaviour no SDK produces).
import { request } from 'node:http';
import { test } from '../fixtures.mjs';
import {
  assert,
  eq,
  expected,
  fillExactly,
  freePort,
  leaks,
  moreOptions,
  onFreePort,
  runQuick,
  SENTINEL,
  shared,
  startDemo,
  startHostile,
  startProcess,
  stopServers,
  watchedPage,
} from '../lib.mjs';

// The hostile server's port and its redirect target's.
let HOSTILE, TARGET;
test.beforeAll(async () => {
  ({ port: HOSTILE, targetPort: TARGET } = await startHostile(shared.appOrigin));
});
test.afterAll(stopServers);

test('control: the hostile server really echoes the token (so the leak checks can fail)', async () => {
  const res = await fetch(`http://127.0.0.1:${HOSTILE}/echo/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SENTINEL}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope' } }),
  });
  const text = await res.text();
  assert(leaks(text).length > 0 && leaks(res.headers.get('x-echo')).length > 0, 'the echo is there before redaction');
});

test('a token echoed by the server appears nowhere: page, storage, console, URL, Markdown', async ({ guard }) => {
  guard.allow(expected.noToken(`http://127.0.0.1:${HOSTILE}/echo/mcp`), expected.get405(`http://127.0.0.1:${HOSTILE}/echo/mcp`));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const consoleText = [];
  page.on('console', (m) => consoleText.push(m.text()));
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: `http://127.0.0.1:${HOSTILE}/echo/mcp`, token: SENTINEL });
  // Open every disclosure so everything is rendered.
  await page.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.open = true;
    }),
  );
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  const storage = await page.evaluate(() =>
    JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie, location.href, history.length]),
  );
  const markdown = await page.getByTestId('markdown-preview').innerText();
  for (const [where, text] of [
    ['page', html],
    ['storage', storage],
    ['console', consoleText.join('\n')],
    ['markdown', markdown],
  ]) {
    eq(JSON.stringify(leaks(text)), '[]', `leak in ${where}`);
  }
  assert(html.includes('[REDACTED]'), 'visible redaction marks where the server echoed the token');
  await page.reload();
  eq(await page.getByTestId('token').inputValue(), '', 'the token field is empty after a reload');
  await context.close();
});

test('a redirect is classified, never followed: the other port receives nothing', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', `http://127.0.0.1:${HOSTILE}/redirect/mcp`);
  await page.getByTestId('token').fill(SENTINEL);
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  await page.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.open = true;
    }),
  );
  assert((await page.getByTestId('results').innerText()).includes('redirect'), 'redirect shown');
  const hits = await (await fetch(`http://127.0.0.1:${TARGET}/__hits`)).json();
  eq(hits.hits, 0, 'requests that reached the redirect target');
  await context.close();
});

test('server text shaped like markup stays text: nothing runs, the literal text is visible', async ({ guard }) => {
  guard.allow(expected.noToken(`http://127.0.0.1:${HOSTILE}/xss/mcp`), expected.get405(`http://127.0.0.1:${HOSTILE}/xss/mcp`));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: `http://127.0.0.1:${HOSTILE}/xss/mcp`, token: 'x-token-1234' });
  await page.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.open = true;
    }),
  );
  // Structure, not a wait: no element the server's text could have made exists, and no element carries
  // an event-handler attribute (an attempt to run one would also be a CSP violation, which fails the test).
  const made = await page.evaluate(() => ({
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    injected: document.querySelectorAll('[data-testid=results] img, [data-testid=results] svg, [data-testid=results] script, [data-testid=results] iframe')
      .length,
  }));
  eq(made.handlers, 0, 'elements with on* attributes');
  eq(made.injected, 0, 'img/svg/script/iframe elements inside the results');
  eq(await page.evaluate(() => window.__pwned), undefined, 'window.__pwned');
  const text = await page.getByTestId('results').innerText();
  assert(text.includes('<img src=x onerror=window.__pwned=1>') || text.includes('"><svg onload=window.__pwned=1>'), 'literal markup visible');
  assert(text.includes('⟨U+202E⟩'), 'bidi override shown as a visible token');
  const links = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')).filter((h) => h?.startsWith('javascript')));
  eq(links.length, 0, 'no javascript: links');
  await context.close();
});

test('the URL the page checks is the URL fetch uses: a short IPv4 form typed by hand is read, shown and sent as 127.0.0.1', async ({ guard }) => {
  guard.allow(expected.noToken(`http://127.0.0.1:${new URL(shared.demoEndpoint).port}/mcp`));
  const port = new URL(shared.demoEndpoint).port;
  const typed = `http://127.1:${port}/mcp`;
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', typed);
  eq(await page.getByTestId('endpoint-host').textContent(), `http://127.0.0.1:${port}`, 'host as the browser reads it');
  eq(await page.getByTestId('endpoint-read').textContent(), `http://127.0.0.1:${port}/mcp`, 'the URL as the browser reads it');
  await runQuick(page, { token: 'demo-token' });
  const sent = await page
    .getByTestId('card-A')
    .locator('details.raw')
    .evaluate((d) => {
      d.open = true;
      return d.innerText;
    });
  assert(sent.includes(`POST http://127.0.0.1:${port}/mcp`), `probe A went to the URL shown: ${sent.slice(0, 400)}`);
  await context.close();
});

for (const code of [301, 302, 307, 308]) {
  test(`the CORS doctor's no-cors request follows a ${code} redirect with no body and no secret (and it did reach the target)`, async ({ guard }) => {
    const endpoint = `http://127.0.0.1:${HOSTILE}/doctor-redirect/${code}/mcp`;
    guard.allow(expected.cors(endpoint));
    const context = await shared.browser.newContext();
    const page = await watchedPage(context);
    await page.goto(shared.appUrl);
    await moreOptions(page);
    await page.getByTestId('add-header').click();
    await page.getByTestId('extra-name').fill('X-Api-Key');
    await page.getByTestId('extra-value').fill(`${SENTINEL}key`);
    await runQuick(page, { endpoint, token: SENTINEL });
    await page.getByTestId('diagnosis').waitFor({ timeout: 20000 });
    const log = (await (await fetch(`http://127.0.0.1:${TARGET}/__log`)).json()).filter((e) => e.url === `/doctor/${code}`);
    // The control: the doctor ran and its request really reached the redirect target.
    assert(log.length >= 1, `nothing reached the target after a ${code}`);
    for (const entry of log) {
      eq(entry.body, '', `body that reached the target by a ${code} (${entry.method})`);
      assert(!('authorization' in entry.headers), `an Authorization header reached the target: ${JSON.stringify(entry.headers)}`);
      assert(leaks(JSON.stringify(entry)).length === 0, `a secret reached the target: ${JSON.stringify(entry)}`);
    }
    await context.close();
  });
}

/** A POST to 127.0.0.1:`port` with this Host header; resolves with the status. */
function postWithHost(port, host, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } },
};

test('demo server: a Host header naming another site is refused (DNS rebinding); a loopback Host is served', async () => {
  const port = Number(new URL(shared.demoEndpoint).port);
  const rebound = await postWithHost(port, `attacker.example:${port}`, INIT, { Authorization: 'Bearer demo-token' });
  eq(rebound.status, 403, `a rebound Host: ${rebound.text}`);
  const loopback = await postWithHost(port, `127.0.0.1:${port}`, INIT, { Authorization: 'Bearer demo-token' });
  eq(loopback.status, 200, 'the control: the same request with a loopback Host is served');
});

test('demo server: a non-loopback --host is refused without an explicit token of its own, and starts with one', async () => {
  for (const extra of [[], ['--token', 'demo-token']]) {
    const refused = await startProcess('node', ['demo/server.mjs', '--host', '0.0.0.0', '--port', String(await freePort()), ...extra], {
      ready: 'never printed',
    }).then(
      () => null,
      (e) => e.message,
    );
    assert(refused?.includes('exited 2') && refused.includes('refusing --host 0.0.0.0'), `refused: ${refused}`);
  }
  // The control: with a token of its own it starts (and still answers only the hosts it names).
  const own = `own-${SENTINEL}`;
  const [port, child] = await onFreePort(async (p) => [
    p,
    await startProcess('node', ['demo/server.mjs', '--host', '0.0.0.0', '--port', String(p), '--token', own, '--allowed-hosts', '127.0.0.1'], {
      ready: 'demo MCP server',
    }),
  ]);
  const served = await postWithHost(port, `127.0.0.1:${port}`, INIT, { Authorization: `Bearer ${own}` });
  eq(served.status, 200, 'served with its own token');
  child.kill('SIGTERM');
});

test('demo server: a stateful server keeps at most --max-sessions sessions, closing the least recently used', async () => {
  const endpoint = await startDemo([shared.appOrigin], ['--stateful', '--max-sessions', '2', '--stats']);
  const port = Number(new URL(endpoint).port);
  const auth = { Authorization: 'Bearer demo-token' };
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const res = await postWithHost(port, `127.0.0.1:${port}`, INIT, auth);
    eq(res.status, 200, `initialize ${i}`);
    ids.push(res.headers['mcp-session-id']);
  }
  const stats = await (await fetch(`${new URL(endpoint).origin}/__stats`)).json();
  eq(stats.sessions, 2, 'sessions kept');
  const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
  const oldest = await postWithHost(port, `127.0.0.1:${port}`, ping, { ...auth, 'Mcp-Session-Id': ids[0], 'Mcp-Protocol-Version': '2025-06-18' });
  const newest = await postWithHost(port, `127.0.0.1:${port}`, ping, { ...auth, 'Mcp-Session-Id': ids[2], 'Mcp-Protocol-Version': '2025-06-18' });
  assert(oldest.status >= 400, `the least recently used session was closed: ${oldest.status}`);
  eq(newest.status, 200, 'the newest session still works');
});
