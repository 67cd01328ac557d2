// The token never leaves the page except in the Authorization header; redirects are not followed;
// server text is never markup. Uses the hostile server (behaviour no SDK produces).
import { HOSTILE_PORT, REDIRECT_TARGET_PORT, SENTINEL, assert, eq, expected, leaks, runQuick, shared, startHostile, test, watchedPage } from '../lib.mjs';

const HOSTILE = HOSTILE_PORT;
const TARGET = REDIRECT_TARGET_PORT;
await startHostile();

test('control: the hostile server really echoes the token (so the leak checks can fail)', async () => {
  const res = await fetch(`http://127.0.0.1:${HOSTILE}/echo/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SENTINEL}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope' } }),
  });
  const text = await res.text();
  assert(leaks(text).length > 0 && leaks(res.headers.get('x-echo')).length > 0, 'the echo is there before redaction');
});

test('a token echoed by the server appears nowhere: page, storage, console, URL, Markdown', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const consoleText = [];
  page.on('console', (m) => consoleText.push(m.text()));
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: `http://127.0.0.1:${HOSTILE}/echo/mcp`, token: SENTINEL });
  // Open every disclosure so everything is rendered.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  const storage = await page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie, location.href, history.length]));
  const markdown = await page.getByTestId('markdown-preview').innerText();
  for (const [where, text] of [['page', html], ['storage', storage], ['console', consoleText.join('\n')], ['markdown', markdown]]) {
    eq(JSON.stringify(leaks(text)), '[]', `leak in ${where}`);
  }
  assert(html.includes('[REDACTED]'), 'visible redaction marks where the server echoed the token');
  await page.reload();
  eq(await page.getByTestId('token').inputValue(), '', 'the token field is empty after a reload');
  await context.close();
}, { allow: [expected.noToken(`http://127.0.0.1:${HOSTILE}/echo/mcp`), expected.get405(`http://127.0.0.1:${HOSTILE}/echo/mcp`)] });

test('a redirect is classified, never followed: the other port receives nothing', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('endpoint').fill(`http://127.0.0.1:${HOSTILE}/redirect/mcp`);
  await page.getByTestId('token').fill(SENTINEL);
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  assert((await page.getByTestId('results').innerText()).includes('redirect'), 'redirect shown');
  const hits = await (await fetch(`http://127.0.0.1:${TARGET}/__hits`)).json();
  eq(hits.hits, 0, 'requests that reached the redirect target');
  await context.close();
});

test('server text shaped like markup stays text: nothing runs, the literal text is visible', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: `http://127.0.0.1:${HOSTILE}/xss/mcp`, token: 'x-token-1234' });
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  // Structure, not a wait: no element the server's text could have made exists, and no element carries
  // an event-handler attribute (an attempt to run one would also be a CSP violation, which fails the test).
  const made = await page.evaluate(() => ({
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    injected: document.querySelectorAll('[data-testid=results] img, [data-testid=results] svg, [data-testid=results] script, [data-testid=results] iframe').length,
  }));
  eq(made.handlers, 0, 'elements with on* attributes');
  eq(made.injected, 0, 'img/svg/script/iframe elements inside the results');
  eq(await page.evaluate(() => window.__pwned), undefined, 'window.__pwned');
  const text = await page.getByTestId('results').innerText();
  assert(text.includes('<img src=x onerror=window.__pwned=1>') || text.includes('"><svg onload=window.__pwned=1>'), 'literal markup visible');
  assert(text.includes('⟨U+202E⟩'), 'bidi override shown as a visible token');
  const links = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')).filter((h) => h && h.startsWith('javascript')));
  eq(links.length, 0, 'no javascript: links');
  await context.close();
}, { allow: [expected.noToken(`http://127.0.0.1:${HOSTILE}/xss/mcp`), expected.get405(`http://127.0.0.1:${HOSTILE}/xss/mcp`)] });

test('the URL the page checks is the URL fetch uses: a short IPv4 form typed by hand is read, shown and sent as 127.0.0.1', async () => {
  const port = new URL(shared.demoEndpoint).port;
  const typed = `http://127.1:${port}/mcp`;
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('endpoint').fill(typed);
  eq(await page.getByTestId('endpoint-host').textContent(), `http://127.0.0.1:${port}`, 'host as the browser reads it');
  eq(await page.getByTestId('endpoint-read').textContent(), `http://127.0.0.1:${port}/mcp`, 'the URL as the browser reads it');
  await runQuick(page, { token: 'demo-token' });
  const sent = await page.getByTestId('card-A').locator('details.raw').evaluate((d) => { d.open = true; return d.innerText; });
  assert(sent.includes(`POST http://127.0.0.1:${port}/mcp`), `probe A went to the URL shown: ${sent.slice(0, 400)}`);
  await context.close();
}, { allow: [expected.noToken(`http://127.0.0.1:${new URL(shared.demoEndpoint).port}/mcp`)] });
