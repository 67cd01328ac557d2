// Keyboard, accessibility (axe-core), layout stability, narrow screens, screenshots, and Cancel.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ARTIFACTS, ROOT, assert, eq, expected, fillExactly, mergePerf, openCards, runQuick, shared, startDemo, stopServers, watchedPage } from '../lib.mjs';

const axeSource = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
let slow;
test.beforeAll(async () => {
  slow = await startDemo([shared.appOrigin], ['--tool-delay-ms', '4000']);
});
test.afterAll(stopServers);
const perf = {};

async function axe(page, label) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  eq(bad.length, 0, `${label}: serious/critical axe violations ${JSON.stringify(bad)}`);
}

test('keyboard only: Tab to the token, type, Enter runs; results get focus', async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.keyboard.press('Tab'); // skip link
  await page.keyboard.press('Tab'); // endpoint
  eq(await page.evaluate(() => document.activeElement?.id), 'endpoint', 'endpoint focused second');
  await page.keyboard.press('Tab');
  eq(await page.evaluate(() => document.activeElement?.id), 'token', 'token next');
  await page.keyboard.type('demo-token');
  await page.keyboard.press('Enter');
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  await page.waitForFunction(() => document.activeElement?.id === 'results-heading');
  await context.close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core (${colorScheme}): no serious or critical violation on the form, the plan, the results (cards closed and open) and a share link`, async ({
    guard,
  }) => {
    guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
    const context = await shared.browser.newContext({ bypassCSP: true, colorScheme });
    const page = await context.newPage();
    await page.goto(shared.appUrl);
    await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
    await axe(page, 'form');
    await runQuick(page, { token: 'demo-token', review: true });
    await axe(page, 'plan');
    await page.getByTestId('run-plan').click();
    await page.getByTestId('results').waitFor({ timeout: 45000 });
    await axe(page, 'results, cards closed');
    await openCards(page);
    await axe(page, 'results, cards open');
    await page.getByTestId('share-open').click();
    const link = await page.getByTestId('share-link').inputValue();
    const opened = await context.newPage();
    await opened.goto(link);
    await opened.getByTestId('shared-view').waitFor();
    await axe(opened, 'share view');
    await context.close();
  });
}

test('what the user looks at does not move when results arrive; no horizontal scroll at 360 px', async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await watchedPage(context);
  await page.addInitScript(() => {
    window.__cls = 0;
    window.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('token').fill('demo-token');
  const rect = (id) =>
    page.getByTestId(id).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return JSON.stringify([Math.round(r.top + window.scrollY), Math.round(r.left), Math.round(r.width), Math.round(r.height)]);
    });
  const formBefore = await rect('target-form');
  await page.evaluate(() => {
    window.__cls = 0;
  });
  await page.getByTestId('quick-check').click();
  await page.getByTestId('progress').waitFor();
  const progressTop = JSON.parse(await rect('progress'))[0];
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  // Structure, not a clock: the form and the progress panel keep their place once results are in.
  eq(await rect('target-form'), formBefore, 'the form did not move or resize');
  eq(JSON.parse(await rect('progress'))[0], progressTop, 'the progress panel did not move');
  // Layout-shift score for the report (after two frames, so the entries for the results are in).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  perf.cumulativeLayoutShift = await page.evaluate(() => window.__cls);
  perf.longTasksMs = await page.evaluate(() => window.__longtasks);
  await page.setViewportSize({ width: 360, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  eq(overflow, 0, 'no horizontal scroll at 360 px (results)');
  await context.close();
});

test('screenshots: form, plan, results — light and dark, narrow and wide', async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  for (const colorScheme of ['light', 'dark']) {
    for (const [width, label] of [
      [360, 'narrow'],
      [1280, 'wide'],
    ]) {
      const context = await shared.browser.newContext({ colorScheme, viewport: { width, height: 900 } });
      const page = await watchedPage(context);
      await page.goto(shared.appUrl);
      await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
      const shot = async (name) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        eq(overflow, 0, `${name} ${label} ${colorScheme}: no horizontal scroll`);
        await page.screenshot({ path: join(ARTIFACTS, `${name}-${label}-${colorScheme}.png`), fullPage: true });
      };
      await shot('form');
      await runQuick(page, { token: 'demo-token', review: true });
      await shot('plan');
      await page.getByTestId('run-plan').click();
      await page.getByTestId('results').waitFor({ timeout: 45000 });
      await shot('results');
      await context.close();
    }
  }
});

test('Cancel aborts every request in flight, and the UI says so in order', async ({ guard }) => {
  guard.allow(expected.noToken(slow), expected.get405(slow));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', slow);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  // Wait until the slow probes are in flight.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=step]')].some((li) => li.textContent.includes('probe C')));
  // While it moves, the clock says the run's limit and its bar fills toward it (drawn by CSS).
  const clock = page.getByTestId('run-clock');
  assert((await clock.innerText()).includes('Stops by itself 120 s after it started'), `the clock names the limit: ${await clock.innerText()}`);
  const filled = () => clock.locator('.bar').evaluate((b) => b.getBoundingClientRect().width);
  const first = await filled();
  await page.waitForFunction((w) => document.querySelector('[data-testid=run-clock] .bar').getBoundingClientRect().width > w, first);
  const t0 = Date.now();
  await page.keyboard.press('Escape');
  await page.getByTestId('results').waitFor({ timeout: 10000 });
  perf.cancelToResultsMs = Date.now() - t0;
  const log = await page.getByTestId('run-log').evaluate((ol) => [...ol.querySelectorAll('li')].map((li) => li.textContent));
  const at = (needle) => log.findIndex((l) => l.includes(needle));
  const cancel = at('cancel requested');
  const aborted = at('aborted ');
  const ended = at('ended: aborted');
  const done = at('run cancelled');
  assert(cancel >= 0 && aborted > cancel && ended > aborted && done > ended, `order: ${JSON.stringify(log)}`);
  const n = Number((log[aborted].match(/aborted (\d+)/) || [])[1]);
  assert(n >= 1, `at least one request was in flight: ${log[aborted]}`);
  assert((await page.getByTestId('progress').innerText()).includes('aborted'), 'progress says aborted');
  assert((await page.getByTestId('run-clock').count()) === 0, 'the clock goes with the run');
  const headline = await page.getByTestId('finding').innerText();
  assert(
    headline.startsWith('You cancelled the run. ') && headline.includes('not answered, so the three failures cannot all be compared'),
    `the headline leads with the Cancel: ${headline}`,
  );
  assert(!/arrive as|malformed/.test(headline), `no comparison of answers that did not come: ${headline}`);
  // C was cancelled, so at most the pair (A,B) was judged.
  const score = await page.getByTestId('score').innerText();
  assert(/^(n\/a|[01] of 1 pairs)$/.test(score), `the score counts only answered pairs: ${score}`);
  await context.close();
  mergePerf(perf);
  console.log(
    `     perf (report, not asserted): cancel→results ${perf.cancelToResultsMs} ms; layout shift while results arrive ${perf.cumulativeLayoutShift}; long tasks during a run: ${JSON.stringify(perf.longTasksMs)}`,
  );
});

test('the skip link only moves focus: results, token and URL stay as they were', async ({ guard }) => {
  guard.allow(expected.noToken(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { token: 'demo-token' });
  const url = page.url();
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await skip.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'main');
  eq(page.url(), url, 'the URL is unchanged');
  eq(await page.getByTestId('token').inputValue(), 'demo-token', 'the token is still in its field');
  assert(await page.getByTestId('results').isVisible(), 'the results are still on the page');
  await context.close();
});
