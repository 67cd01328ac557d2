// Share links: no secret inside (decoded and raw), opening one sends no request, damage is one view.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { test } from '../fixtures.mjs';
import { ROOT, SENTINEL, assert, eq, expected, leaks, runQuick, shared, startHostile, stopServers, watchedPage } from '../lib.mjs';

let HOSTILE_PORT, ECHO;
test.beforeAll(async () => {
  HOSTILE_PORT = (await startHostile(shared.appOrigin)).port;
  ECHO = `http://127.0.0.1:${HOSTILE_PORT}/echo/mcp/secretpath?api_key=topsecret123`;
});
test.afterAll(stopServers);

function decodeLink(link) {
  const data = link.split('#r=')[1].replace(/^v\d+\./, '');
  const b64 = data.replace(/-/g, '+').replace(/_/g, '/');
  return inflateRawSync(Buffer.from(b64, 'base64')).toString('utf8');
}

function linkFor(payload) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(payload)));
  return `${shared.appUrl}#r=v2.${packed.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

let link = null;

test('the share link built after an echoing server holds no trace of the token', async ({ guard }) => {
  guard.allow(expected.noToken(ECHO), expected.get405(ECHO));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: ECHO, token: SENTINEL });
  await page.getByTestId('share-open').click();
  link = await page.getByTestId('share-link').inputValue();
  // The link field spans its panel, so a user sees more than a sliver of a long link.
  const [field, panel] = await Promise.all(['share-link', 'share-panel'].map(async (id) => (await page.getByTestId(id).boundingBox()).width));
  assert(field >= 0.9 * (panel - 64), `the link field is ${field}px wide in a ${panel}px panel`);
  assert(link.length <= 8000, `link length ${link.length}`);
  const decoded = decodeLink(link);
  eq(JSON.stringify(leaks(link)), '[]', 'leak in the raw link');
  eq(JSON.stringify(leaks(decoded)), '[]', 'leak in the decoded link');
  assert(!decoded.includes('secretpath') && !decoded.includes('topsecret123'), 'path and query left out by default');
  assert(decoded.includes('[REDACTED]'), 'the echoes were replaced by visible marks');
  eq(JSON.parse(decoded).endpoint, `http://127.0.0.1:${HOSTILE_PORT}`, 'origin only');
  const shown = await page.getByTestId('share-payload').innerText();
  eq(JSON.stringify(JSON.parse(shown)), JSON.stringify(JSON.parse(decoded)), 'the panel shows exactly what the link holds');
  await context.close();
});

test("opening a share link shows the results and sends no request beyond the page's own assets", async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(link);
  await page.getByTestId('shared-banner').waitFor();
  assert((await page.getByTestId('shared-banner').innerText()).includes('Shared results — not verified by this page'), 'banner');
  eq(await page.getByTestId('card-A').getByTestId('cause').getAttribute('data-id'), 'unknown_tool', 'A shown');
  // Order, not a wait: a marker request made after the view rendered must arrive, and no request but
  // the page's own assets may come before it.
  const marker = `${shared.appUrl}index.html?after-render-marker`;
  await page.evaluate((u) => fetch(u).then((r) => r.text()), marker);
  const upTo = requests.indexOf(marker);
  assert(upTo >= 0, `the marker request was seen: ${JSON.stringify(requests)}`);
  const foreign = requests.slice(0, upTo).filter((u) => !u.startsWith(shared.appOrigin) || u.includes('demo.json'));
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
    v: 2,
    tool: '"><svg onload=window.__pwned=1>',
    date: '2026',
    endpoint: 'javascript:window.__pwned=1',
    version: null,
    server: [evil, '1'],
    score: 0,
    finding: `</textarea><script>window.__pwned=1</script> \u202Eevil`,
    rows: [
      {
        step: 'A',
        tool: evil,
        status: 200,
        channel: 'tool_error',
        cause: 'unknown_tool',
        code: null,
        decided_by: 'text',
        evidence: [[evil, evil]],
        action: 'pick_another_tool',
        flags: [],
        spec: null,
        excerpt: evil,
        skipped: null,
      },
    ],
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
  // Only our own addresses: the spec's pages, the grid's links to its cards (named from the
  // decoder's known steps, never the link's text), and the footer's repository.
  const ours = (h) =>
    h.startsWith('https://modelcontextprotocol.io/') || /^#card-[A-Za-z-]+$/.test(h) || h.startsWith('https://github.com/mcp-triage/mcp-triage');
  assert(hrefs.every(ours), `links: ${hrefs}`);
  await context.close();
});

test('every committed share link made by an earlier page opens with the rows it holds', async () => {
  const dir = join(ROOT, 'crates/mcp-triage/tests/share-links');
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.link'))
    .sort();
  assert(names.length >= 5, `committed links: ${names.length}`);
  let withEmptyExcerpt = 0;
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  for (const name of names) {
    const fragment = readFileSync(join(dir, name), 'utf8').trim();
    const payload = JSON.parse(readFileSync(join(dir, name.replace(/\.link$/, '.json')), 'utf8'));
    await page.goto('about:blank');
    await page.goto(`${shared.appUrl}#${fragment}`);
    if (fragment.startsWith('c=')) {
      // A link that carries two runs opens as their comparison, a row per probe of both.
      await page.getByTestId('comparison').waitFor({ timeout: 15000 });
      eq(await page.getByTestId('damaged-link').count(), 0, `${name}: not shown as damaged`);
      const rows = await page.locator('[data-testid^=compare-row-]').count();
      assert(rows >= payload.rows.length, `${name}: ${rows} comparison rows for ${payload.rows.length} probes`);
      assert((await page.getByTestId('comparison-summary').textContent()).trim().length > 0, `${name}: a summary`);
      continue;
    }
    await page.getByTestId('shared-view').waitFor({ timeout: 5000 });
    eq(await page.getByTestId('damaged-link').count(), 0, `${name}: not shown as damaged`);
    eq(await page.getByTestId('finding').innerText(), payload.finding, `${name}: finding`);
    const causes = await page
      .getByTestId('shared-view')
      .getByTestId('cause')
      .evaluateAll((els) => els.map((e) => e.dataset.id));
    const want = payload.rows.filter((r) => !r.skipped).map((r) => r.cause);
    for (const cause of want) assert(causes.includes(cause), `${name}: cause ${cause} shown in ${JSON.stringify(causes)}`);
    // An empty excerpt (a GET stream has no body) shows no empty box.
    const emptyBoxes = await page.locator('[data-testid=shared-view] pre.envelope').evaluateAll((els) => els.filter((e) => !e.textContent.trim()).length);
    eq(emptyBoxes, 0, `${name}: empty envelope boxes`);
    if (payload.rows.some((r) => r.excerpt === '')) withEmptyExcerpt += 1;
  }
  assert(withEmptyExcerpt > 0, 'the committed links include a row with an empty excerpt (the case is exercised)');
  await context.close();
});

test('server values that look like secrets are withheld from a link, counted, and included only by opt-in', async ({ guard }) => {
  guard.allow(expected.noToken(`http://127.0.0.1:${HOSTILE_PORT}/secretish/mcp`), expected.get405(`http://127.0.0.1:${HOSTILE_PORT}/secretish/mcp`));
  const endpoint = `http://127.0.0.1:${HOSTILE_PORT}/secretish/mcp`;
  const values = [
    'sk-live-51HxQe2EXAMPLEkey',
    'hunter2-correct-horse',
    's3cr3t-pw',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    'QUtJQUlPU0ZPRE5ON0VYQU1QTEUx',
    'deadbeefcafebabe0123456789abcdef',
  ];
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token: 'x-token-1234' });
  await page.getByTestId('share-open').click();
  const note = await page.getByTestId('share-withheld').innerText();
  const n = Number((note.match(/^(\d+) withheld/) || [])[1]);
  assert(n >= values.length, `withheld count: ${note}`);
  const withheld = decodeLink(await page.getByTestId('share-link').inputValue());
  for (const v of [...values, 'eyJhbGciOiJIUzI1NiJ9']) assert(!withheld.includes(v), `${v} in the link`);
  assert(withheld.includes('[withheld]'), 'visible marks where values were withheld');
  // The control: the same run with the opt-in carries them, so the check above can fail.
  await page.getByTestId('share-include-secret-shaped').check();
  const included = decodeLink(await page.getByTestId('share-link').inputValue());
  for (const v of values) assert(included.includes(v), `${v} missing after the opt-in`);
  await context.close();
});

/** What a page says of each probe's advice: the agent's line, who must act, the server author's. */
async function adviceOf(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      ['A', 'B', 'C', 'D'].map((p) => {
        const card = document.querySelector(`[data-testid=card-${p}]`);
        const text = (sel) => [...(card?.querySelectorAll(sel) || [])].map((e) => e.textContent.trim());
        return [
          p,
          { agent: text('[data-testid=agent-advice]'), party: text('.party'), server: text('[data-testid=server-advice], [data-testid=server-change]') },
        ];
      }),
    ),
  );
}

test("a share link says what the page says: the fix first, the agent's line, who must act, what the server author could change, the date in words", async ({
  guard,
}) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: shared.demoEndpoint, token: 'demo-token' });
  await page.getByTestId('card-D').waitFor({ timeout: 20000 });
  const onPage = await adviceOf(page);
  const fixOnPage = await page.getByTestId('fix-first').innerText();
  await page.getByTestId('share-open').click();
  const made = await page.getByTestId('share-link').inputValue();
  assert(made.includes('#r=v14.'), `the current link version: ${made.slice(0, 60)}`);
  const opened = await context.newPage();
  await opened.goto(made);
  await opened.getByTestId('shared-view').waitFor();
  const inLink = await adviceOf(opened);
  eq(JSON.stringify(inLink), JSON.stringify(onPage), 'the share view says what the page says');
  eq(await opened.getByTestId('fix-first').innerText(), fixOnPage, 'the share view opens with the same fix first');
  assert(onPage.B.server.length > 0 && onPage.A.agent[0].length > 20, `advice is there: ${JSON.stringify(onPage)}`);
  const banner = await opened.getByTestId('shared-banner').innerText();
  assert(!/\d{4}-\d{2}-\d{2}T/.test(banner) && /20\d\d/.test(banner), `the date in words: ${banner}`);
  await context.close();
});
