// The app module on demand ("A small page"): a visit loads the boot page (the form) alone; the first
// touch of the page loads the app; a click that comes before it says so and runs once it is there;
// a failed load says why and retries; what was typed crosses over. Events in order, never clocks.
import { test } from '../fixtures.mjs';
import { assert, cardOutcome, eq, expected, fillExactly, moreOptions, shared, watchedPage } from '../lib.mjs';

const APP_JS = /\/mcp-triage-web-[0-9a-f]{16}\.js(\?retry=\d+)?$/;
const moduleFiles = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((n) => /\.(wasm|js)$/.test(n)),
  );

test('a visit loads the boot module alone; the first touch of the page loads the app module, each file once', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.waitForLoadState('networkidle');
  const before = await moduleFiles(page);
  assert(
    before.some((n) => /^mcp-triage-boot-[0-9a-f]{1,16}_bg\.wasm$/.test(n)),
    `boot wasm loaded: ${before}`,
  );
  assert(!before.some((n) => n.startsWith('mcp-triage-web')), `no app module before a touch: ${before}`);
  const app = page.waitForResponse((r) => /mcp-triage-web-[0-9a-f]{16}_bg\.wasm$/.test(r.url()));
  await page.getByTestId('token').focus();
  await app;
  await page.waitForLoadState('networkidle');
  const after = await moduleFiles(page);
  const counts = {};
  for (const n of after) counts[n] = (counts[n] || 0) + 1;
  for (const [name, n] of Object.entries(counts)) eq(n, 1, `${name} downloaded once`);
  assert(
    after.some((n) => n.startsWith('mcp-triage-web')),
    `app module loaded after the touch: ${after}`,
  );
  eq(await page.getByTestId('boot').count(), 1, 'the boot page stays until a click needs the app');
  await context.close();
});

test('Quick check before the app module is there: its first requests go out at once, the page says the rest is loading, and one run completes with the values of the click', async ({
  guard,
}) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  const events = [];
  let release;
  const held = new Promise((r) => {
    release = r;
  });
  await page.route(APP_JS, async (route) => {
    events.push('app requested');
    await held;
    events.push('app released');
    await route.continue();
  });
  const elsewhere = 'http://127.0.0.1:9/edited-while-loading';
  const posts = [];
  page.on('request', (r) => {
    if (r.url() === elsewhere) events.push('request to the edited endpoint');
    if (r.url() === shared.demoEndpoint && r.method() === 'POST') posts.push(`${r.headers().authorization ? 'token' : 'none'} ${r.postData()}`);
  });
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('token').fill('demo-token');
  const first = page.waitForRequest((r) => r.url() === shared.demoEndpoint, { timeout: 10000 });
  await page.getByTestId('quick-check').click();
  const status = page.getByTestId('app-load');
  await status.waitFor();
  eq(await status.getAttribute('role'), 'status', 'a polite status, not an alert');
  assert((await status.innerText()).includes('Loading the checker'), await status.innerText());
  assert(await page.getByTestId('quick-check').isDisabled(), 'no second click while it waits');
  await first;
  events.push('first request sent');
  // An edit after the click does not change the run the click asked for.
  await fillExactly(page, 'endpoint', elsewhere);
  release();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  eq(events.join(' > '), 'app requested > first request sent > app released', 'order of events');
  eq(await page.getByTestId('boot').count(), 0, 'the boot page is gone');
  eq(await page.getByTestId('token').inputValue(), 'demo-token', 'the typed token crossed over');
  eq(await page.getByTestId('endpoint').inputValue(), elsewhere, 'the edit made while loading is kept in the form');
  const started = await page.locator('[data-testid=run-log] li', { hasText: 'run started' }).count();
  eq(started, 1, 'exactly one run');
  const twice = posts.filter((p, k) => posts.indexOf(p) !== k);
  eq(JSON.stringify(twice), '[]', 'no request sent twice (the app read what the boot page sent)');
  assert(posts.length >= 4, `the whole run went out: ${posts.length} POSTs`);
  await context.close();
});

test('a failed load of the app module says why and offers a retry that works', async ({ guard }) => {
  guard.allow(
    new RegExp(
      `^console: Failed to load resource: net::ERR_CONNECTION_REFUSED ${shared.appUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}mcp-triage-web-[0-9a-f]{16}\\.js(\\?retry=\\d+)?$`,
    ),
    /^pageerror: Failed to fetch dynamically imported module/,
    expected.noToken(shared.demoEndpoint),
  );
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  let aborted = 0;
  await page.route(APP_JS, (route) => {
    aborted += 1;
    return route.abort('connectionrefused');
  });
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('review-first').click();
  const alert = page.getByTestId('app-load');
  await page.getByTestId('app-load-retry').waitFor();
  eq(await alert.getAttribute('role'), 'alert', 'the failure is an alert');
  assert((await alert.innerText()).includes('could not be loaded'), await alert.innerText());
  assert(!(await page.getByTestId('review-first').isDisabled()), 'the buttons work again');
  assert(aborted >= 1, 'the load was refused');
  await page.unroute(APP_JS);
  await page.getByTestId('app-load-retry').click();
  await page.getByTestId('plan').waitFor({ timeout: 30000 });
  eq(await page.getByTestId('token').inputValue(), 'demo-token', 'the token survived the failed load');
  await context.close();
});

test('everything typed on the boot page crosses over: endpoint, token, extra headers, era, time limit, and the focus', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await fillExactly(page, 'endpoint', 'http://127.0.0.1:9/mcp');
  await page.getByTestId('token').fill('a-token-typed-early');
  // Two rows, the first removed: the row left is the boot page's second (its key is 1, the app's 0).
  await moreOptions(page);
  await page.getByTestId('add-header').click();
  await page.getByTestId('add-header').click();
  await page.getByRole('button', { name: 'Remove this header' }).first().click();
  await page.getByTestId('extra-name').fill('X-Tenant');
  await page.getByTestId('extra-value').fill('acme-plain');
  await page.getByTestId('extra-secret').uncheck();
  await page.getByTestId('era').selectOption('2025-06-18');
  await page.getByTestId('run-seconds').fill('42');
  eq(await page.getByTestId('boot').count(), 1, 'still the boot page');
  await page.getByTestId('no-server-summary').click();
  await page.getByTestId('example-ts-1.29.0').waitFor();
  eq(await page.getByTestId('boot').count(), 0, 'the app took over');
  eq(await page.evaluate(() => document.activeElement?.id), 'no-server-summary', 'the focus stayed on the summary');
  eq(await page.getByTestId('endpoint').inputValue(), 'http://127.0.0.1:9/mcp', 'endpoint');
  eq(await page.getByTestId('token').inputValue(), 'a-token-typed-early', 'token');
  eq(await page.getByTestId('extra-name').count(), 1, 'one extra header row');
  eq(await page.getByTestId('extra-name').inputValue(), 'X-Tenant', 'extra header name');
  eq(await page.getByTestId('extra-value').inputValue(), 'acme-plain', 'extra header value');
  eq(await page.getByTestId('extra-secret').isChecked(), false, 'extra header stays plain');
  eq(await page.getByTestId('era').inputValue(), '2025-06-18', 'era');
  eq(await page.getByTestId('run-seconds').inputValue(), '42', 'time limit');
  await context.close();
});

test("a handed-over request that is not the one the app's engine asks for is let go of and sent anew: the run still completes once", async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  // Tamper with the handoff: every handed request claims another URL, so none matches.
  await page.addInitScript(() => {
    let load;
    Object.defineProperty(window, 'mcpTriageLoadApp', {
      configurable: true,
      get: () => () =>
        load().then((m) => ({
          ...m,
          mount_from_boot: (h, wave) => {
            for (const f of wave) if (f) f.url = `${f.url}?not-this-one`;
            return m.mount_from_boot(h, wave);
          },
        })),
      set: (v) => {
        load = v;
      },
    });
  });
  let release;
  const held = new Promise((r) => {
    release = r;
  });
  await page.route(APP_JS, async (route) => {
    await held;
    await route.continue();
  });
  const posts = [];
  page.on('request', (r) => {
    if (r.url() === shared.demoEndpoint && r.method() === 'POST') posts.push(`${r.headers().authorization ? 'token' : 'none'} ${r.postData()}`);
  });
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('token').fill('demo-token');
  const first = page.waitForRequest((r) => r.url() === shared.demoEndpoint, { timeout: 10000 });
  await page.getByTestId('quick-check').click();
  await first;
  const sentByBoot = posts.length;
  assert(sentByBoot >= 1, 'the boot page sent the first wave');
  release();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  const twice = posts.filter((p, k) => posts.indexOf(p) !== k);
  eq(twice.length, sentByBoot, `each request of the first wave went out again, once: ${twice.length} of ${sentByBoot}`);
  eq(await page.locator('[data-testid=run-log] li', { hasText: 'run started' }).count(), 1, 'exactly one run');
  eq(JSON.stringify(await cardOutcome(page, 'card-D')), JSON.stringify(['success', 'none']), 'the run completed');
  await context.close();
});
