// The token never leaves the page except in the Authorization header; redirects are not followed;
// server text is never markup. Uses the hostile server (behaviour no SDK produces).
import { assert, eq, runQuick, shared, startProcess, test, watchedPage } from '../lib.mjs';

const HOSTILE = 18810;
const TARGET = 18812;
await startProcess('node', ['e2e/hostile.mjs', '--port', String(HOSTILE), '--origin', shared.appOrigin, '--redirect-to', `http://127.0.0.1:${TARGET}/mcp`], { ready: 'hostile server' });
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SENTINEL = `mcptriageSENTINEL_${Array.from({ length: 32 }, () => letters[Math.floor(Math.random() * 52)]).join('')}`;
shared.SENTINEL = SENTINEL;

/** Every form of the secret a leak check looks for (8-char substrings of the random part, encodings). */
export function leakForms(secret) {
  const forms = new Set();
  const random = secret.slice('mcptriageSENTINEL_'.length);
  for (let i = 0; i + 8 <= random.length; i++) forms.add(random.slice(i, i + 8));
  for (const pad of ['', 'x', 'xy']) {
    const b64 = Buffer.from(pad + secret).toString('base64');
    const skip = Math.ceil((pad.length * 4) / 3);
    forms.add(b64.slice(skip, skip + 16));
    forms.add(b64.slice(skip, skip + 16).replace(/\+/g, '-').replace(/\//g, '_'));
  }
  forms.add(encodeURIComponent(secret));
  forms.add(Buffer.from(secret).toString('hex').slice(0, 24));
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms];
}
shared.leakForms = leakForms;

export function leaks(text, secret = SENTINEL) {
  return leakForms(secret).filter((f) => text.includes(f));
}
shared.leaks = leaks;

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
  shared.echoPage = null;
  await context.close();
});

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
  await page.waitForTimeout(200);
  eq(await page.evaluate(() => window.__pwned), undefined, 'window.__pwned');
  const text = await page.getByTestId('results').innerText();
  assert(text.includes('<img src=x onerror=window.__pwned=1>') || text.includes('"><svg onload=window.__pwned=1>'), 'literal markup visible');
  assert(text.includes('⟨U+202E⟩'), 'bidi override shown as a visible token');
  const links = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')).filter((h) => h && h.startsWith('javascript')));
  eq(links.length, 0, 'no javascript: links');
  await context.close();
});
