// The results page a person reads in thirty seconds: the fix first and the grid in view, cards
// closed to one line, each panel's heading in view and focused, Quick check above the fold, the
// footer's links, and the share view laid out the same way. Heights are reported in the log.
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { SHOTS, assert, eq, expected, runQuick, shared, watchedPage } from '../lib.mjs';

/** What a Quick check on the demo server provokes on purpose. */
const provoked = () => [expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint)];

/** The bottom of an element, in viewport pixels, and whether it starts inside the viewport. */
const box = (page, testid) =>
  page
    .getByTestId(testid)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height };
    });

/** Where the focus is: the element's id, and whether it is inside the viewport. */
const focused = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    const r = e.getBoundingClientRect();
    return { id: e.id, inView: r.top >= 0 && r.bottom <= window.innerHeight };
  });

async function demoResults(viewport) {
  const context = await shared.browser.newContext({ viewport, acceptDownloads: true });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token', closed: true });
  await page.getByTestId('card-D').waitFor();
  return { context, page };
}

for (const [viewport, most] of [
  [{ width: 1280, height: 900 }, 1350],
  [{ width: 390, height: 844 }, 2532],
]) {
  test(`demo results at ${viewport.width}×${viewport.height}: every card closed, the results at most ${most} px tall`, async ({ guard }) => {
    guard.allow(...provoked());
    const { context, page } = await demoResults(viewport);
    eq(await page.locator('details.card[open]').count(), 0, 'cards open closed');
    const results = await box(page, 'results');
    console.log(`    results ${viewport.width}×${viewport.height}: ${Math.round(results.height)} px with every card closed`);
    assert(results.height <= most, `the results are ${Math.round(results.height)} px tall`);
    if (viewport.width === 1280) {
      // The run focuses the results heading: from there, the fix and the whole grid are in view.
      for (const id of ['fix-first', 'grid']) {
        const b = await box(page, id);
        assert(b.top >= 0 && b.bottom <= viewport.height, `${id} in view without scrolling: ${JSON.stringify(b)}`);
      }
      // The README's screenshots (docs/ through ./x screenshots): what the reader sees first.
      await page.screenshot({ path: join(SHOTS, 'screenshot-results-light.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: join(SHOTS, 'screenshot-results-dark.png') });
    }
    await context.close();
  });
}

test('the grid: a row per answered probe and check, row headers for readers, each a link that opens its card', async ({ guard }) => {
  guard.allow(...provoked());
  const { context, page } = await demoResults({ width: 1280, height: 900 });
  const rows = await page.getByTestId('grid-row').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
  for (const id of ['card-A', 'card-B', 'card-C', 'card-D']) assert(rows.includes(id), `a row for ${id}: ${rows}`);
  eq(await page.getByTestId('grid').locator('tbody tr > th:first-child').count(), rows.length, 'each row has its header');
  eq(await page.getByRole('rowheader').count(), rows.length, 'read as row headers');
  eq(await page.getByTestId('grid').locator('thead th').count(), 6, 'six columns');
  await page.getByTestId('grid').getByRole('link', { name: 'C', exact: true }).click();
  eq(await page.getByTestId('card-C').evaluate((d) => d.open), true, 'the card opened');
  const f = await focused(page);
  assert(f.inView, 'the opened card is in view');
  eq(await page.evaluate(() => document.activeElement.closest('[data-testid]')?.dataset.testid), 'card-C', 'the card took the focus');
  eq(await page.evaluate(() => location.hash), '', 'the address keeps no fragment');
  eq(await page.getByTestId('card-C').getByTestId('envelope').isVisible(), true, 'its envelope shows');
  await context.close();
});

test('a closed card says its cause and what an agent should do in one line; a long quote is shown once', async ({ guard }) => {
  guard.allow(...provoked());
  const { context, page } = await demoResults({ width: 1280, height: 900 });
  const line = await page.getByTestId('card-A').getByTestId('card-line').innerText();
  assert(/unknown tool/.test(line) && /pick another tool/.test(line), `card A's line: ${line}`);
  await page.getByTestId('card-B').locator('summary.card-head').click();
  const quotes = await page.getByTestId('card-B').locator('blockquote.decoded').allInnerTexts();
  const long = quotes.filter((q) => q.length > 80);
  eq(long.length, 1, `the validation error is quoted once: ${JSON.stringify(quotes)}`);
  await context.close();
});

test('Share results link… brings its heading into view and focuses it', async ({ guard }) => {
  guard.allow(...provoked());
  const { context, page } = await demoResults({ width: 1280, height: 900 });
  await page.getByTestId('share-open').click();
  await page.waitForFunction(() => document.activeElement?.id === 'share-heading');
  assert((await focused(page)).inView, 'the share heading is in view');
  await context.close();
});

test('Compare with… brings its heading into view and focuses it', async ({ guard }) => {
  guard.allow(...provoked());
  const { context, page } = await demoResults({ width: 1280, height: 900 });
  await page.getByTestId('compare-open').first().click();
  await page.waitForFunction(() => document.activeElement?.id === 'compare-heading');
  assert((await focused(page)).inView, 'the compare heading is in view');
  await context.close();
});

test("Review first brings the plan's heading into view and focuses it; no opt-in asked for probe A or a read-only tool", async ({ guard }) => {
  guard.allow(...provoked());
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await runQuick(page, { token: 'demo-token', review: true });
  await page.waitForFunction(() => document.activeElement?.id === 'plan-heading');
  assert((await focused(page)).inView, 'the plan heading is in view');
  // The demo's probes B-D chose tools declared read-only; A names a tool the server lacks.
  for (const p of ['A', 'B', 'C', 'D']) eq(await page.getByTestId(`optin-${p}`).isVisible(), false, `no opt-in for probe ${p}`);
  // A tool that is not declared read-only asks, and says why.
  await page.getByTestId('tool-B').fill('crm_sync');
  assert((await page.getByTestId('plan-B').getByText('I accept').innerText()).includes('not declared read-only'), 'the opt-in says why');
  await context.close();
});

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`Quick check sits under the endpoint and token, above the fold at ${viewport.width}×${viewport.height}; the optional fields fold below it`, async () => {
    const context = await shared.browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(shared.appUrl);
    await page.getByTestId('quick-check').waitFor();
    const quick = await box(page, 'quick-check');
    assert(quick.bottom <= viewport.height, `Quick check ends at ${quick.bottom} px`);
    const [token, more] = [await box(page, 'token'), await box(page, 'more-options')];
    assert(token.bottom < quick.top && quick.bottom < more.top, 'endpoint and token, then the buttons, then the options');
    eq(await page.getByTestId('more-options').evaluate((d) => d.open), false, 'the options are folded');
    await context.close();
  });
}

test("the footer links the README, the command line's documentation and the source, on the form and on a share link", async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  await page.goto(shared.appUrl);
  // The footer is drawn by the app once it has booted: read it after it is there, not at load.
  await page.getByTestId('site-footer').locator('a').nth(2).waitFor();
  const links = await page
    .getByTestId('site-footer')
    .locator('a')
    .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  eq(links.length, 3, `three links: ${JSON.stringify(links)}`);
  for (const [, href] of links) assert(href.startsWith('https://github.com/mcp-triage/mcp-triage'), `our own address: ${href}`);
  await context.close();
});

test('the share view follows the same layout: fix first, grid, closed cards; nothing wider than 360 px', async ({ guard }) => {
  guard.allow(...provoked());
  const { context, page } = await demoResults({ width: 1280, height: 900 });
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  const narrow = await shared.browser.newContext({ viewport: { width: 360, height: 780 } });
  const opened = await narrow.newPage();
  await opened.goto(link);
  await opened.getByTestId('shared-view').waitFor();
  for (const id of ['fix-first', 'grid', 'open-cards', 'site-footer']) eq((await opened.getByTestId(id).count()) > 0, true, `the share view has ${id}`);
  eq(await opened.locator('details.card[open]').count(), 0, 'its cards open closed');
  const overflow = await opened.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `horizontal overflow of ${overflow} px at 360`);
  await opened.getByTestId('open-cards').click();
  eq(await opened.locator('details.card:not([open])').count(), 0, 'Open every card opens them all');
  const wide = await opened.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(wide <= 0, `horizontal overflow of ${wide} px at 360 with every card open`);
  await narrow.close();
  await context.close();
});
