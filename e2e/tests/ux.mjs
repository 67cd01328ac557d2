// Keyboard, accessibility (axe-core), layout stability, narrow screens, screenshots, and Cancel.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT, assert, eq, runQuick, shared, startDemo, test, watchedPage } from '../lib.mjs';

const axeSource = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const slow = await startDemo(18806, [shared.appOrigin], ['--tool-delay-ms', '4000']);
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

test('keyboard only: Tab to the token, type, Enter runs; results get focus', async () => {
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

test('axe-core: no serious or critical violation on the form, the plan and the results', async () => {
  const context = await shared.browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await axe(page, 'form');
  await runQuick(page, { token: 'demo-token', review: true });
  await axe(page, 'plan');
  await page.getByTestId('run-plan').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  await axe(page, 'results');
  await context.close();
});

test('no layout shift while results arrive; no horizontal scroll at 360 px', async () => {
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
  await page.evaluate(() => { window.__cls = 0; });
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  await page.waitForTimeout(300);
  const cls = await page.evaluate(() => window.__cls);
  perf.longTasksMs = await page.evaluate(() => window.__longtasks);
  eq(cls, 0, 'cumulative layout shift while results arrive');
  for (const [w, label] of [[360, 'narrow'], [1280, 'wide']]) {
    await page.setViewportSize({ width: w, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (w === 360) eq(overflow, 0, 'no horizontal scroll at 360 px (results)');
    void label;
  }
  await context.close();
});

test('screenshots: form, plan, results — light and dark, narrow and wide', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const [width, label] of [[360, 'narrow'], [1280, 'wide']]) {
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

test('Cancel aborts every request in flight, and the UI says so in order', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('endpoint').fill(slow);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  // Wait until the slow probes are in flight.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=step]')].some((li) => li.textContent.includes('probe C')));
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
  await context.close();
  writeFileSync(join(ARTIFACTS, 'perf.json'), JSON.stringify(perf, null, 1));
  console.log(`     perf: cancel→results ${perf.cancelToResultsMs} ms; long tasks during a run: ${JSON.stringify(perf.longTasksMs)}`);
});
