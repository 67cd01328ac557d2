// Share links: no secret inside (decoded and raw), opening one sends no request, damage is one view.
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { assert, eq, runQuick, shared, test, watchedPage } from '../lib.mjs';

function decodeLink(link) {
  const data = link.split('#r=v1.')[1];
  const b64 = data.replace(/-/g, '+').replace(/_/g, '/');
  return inflateRawSync(Buffer.from(b64, 'base64')).toString('utf8');
}

function linkFor(payload) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(payload)));
  return `${shared.appUrl}#r=v1.${packed.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

let link = null;

test('the share link built after an echoing server holds no trace of the token', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: 'http://127.0.0.1:18810/echo/mcp/secretpath?api_key=topsecret123', token: shared.SENTINEL });
  await page.getByTestId('share-open').click();
  link = await page.getByTestId('share-link').inputValue();
  assert(link.length <= 8000, `link length ${link.length}`);
  const decoded = decodeLink(link);
  eq(JSON.stringify(shared.leaks(link)), '[]', 'leak in the raw link');
  eq(JSON.stringify(shared.leaks(decoded)), '[]', 'leak in the decoded link');
  assert(!decoded.includes('secretpath') && !decoded.includes('topsecret123'), 'path and query left out by default');
  assert(decoded.includes('[REDACTED]'), 'the echoes were replaced by visible marks');
  eq(JSON.parse(decoded).endpoint, 'http://127.0.0.1:18810', 'origin only');
  const shown = await page.getByTestId('share-payload').innerText();
  eq(JSON.stringify(JSON.parse(shown)), JSON.stringify(JSON.parse(decoded)), 'the panel shows exactly what the link holds');
  await context.close();
});

test('opening a share link shows the results and sends no request beyond the page\'s own assets', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(link);
  await page.getByTestId('shared-banner').waitFor();
  assert((await page.getByTestId('shared-banner').innerText()).includes('Shared results — not verified by this page'), 'banner');
  eq(await page.getByTestId('card-A').getByTestId('cause').innerText(), 'unknown_tool', 'A shown');
  await page.waitForTimeout(300);
  const foreign = requests.filter((u) => !u.startsWith(shared.appOrigin) || u.includes('demo.json'));
  eq(JSON.stringify(foreign), '[]', 'requests other than the page assets');
  eq(await page.getByTestId('endpoint').count(), 0, 'no form, no prefill');
  await page.getByTestId('run-own').click();
  await page.getByTestId('target-form').waitFor();
  eq(await page.getByTestId('endpoint').inputValue(), '', 'empty form');
  eq(await page.getByTestId('token').inputValue(), '', 'empty token');
  await context.close();
});

test('a link cut by 1..64 characters always shows the damaged-link view', async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  for (const cut of [1, 2, 3, 5, 8, 13, 21, 34, 55, 64]) {
    await page.goto('about:blank');
    await page.goto(link.slice(0, link.length - cut));
    await page.getByTestId('damaged-link').waitFor({ timeout: 5000 });
    eq(await page.getByTestId('shared-view').count(), 0, `no partial render at cut ${cut}`);
  }
  await context.close();
});

test('markup inside a crafted link stays text', async () => {
  const evil = '<img src=x onerror=window.__pwned=1>';
  const crafted = linkFor({
    v: 1, tool: '"><svg onload=window.__pwned=1>', date: '2026', endpoint: 'javascript:window.__pwned=1', version: null,
    server: [evil, '1'], score: 0, finding: `</textarea><script>window.__pwned=1</script> \u202Eevil`,
    rows: [{ step: 'A', tool: evil, status: 200, channel: 'tool_error', cause: 'unknown_tool', code: null, decided_by: 'text',
      evidence: [[evil, evil]], action: 'pick_another_tool', flags: [], spec: null, excerpt: evil, skipped: null }],
    notes: [evil],
  });
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.goto(crafted);
  await page.getByTestId('shared-view').waitFor();
  eq(await page.evaluate(() => window.__pwned), undefined, 'window.__pwned');
  assert((await page.getByTestId('shared-view').innerText()).includes(evil), 'literal text visible');
  assert((await page.getByTestId('finding').innerText()).includes('⟨U+202E⟩'), 'bidi shown');
  const hrefs = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')));
  assert(hrefs.every((h) => h.startsWith('https://modelcontextprotocol.io/')), `links: ${hrefs}`);
  await context.close();
});
