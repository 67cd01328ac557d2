// The first sentence of the results names what happened, cause first — on the page, in the share
// link and in the Markdown alike: a 401 with its challenge, a CORS block, the run's time limit.
import { test } from '../fixtures.mjs';
import { assert, eq, expected, fillExactly, moreOptions, shared, startDemo, stopServers, watchedPage } from '../lib.mjs';

let noCors, stuck;
test.beforeAll(async () => {
  noCors = await startDemo([shared.appOrigin], ['--cors', 'none']);
  // Tool handlers that take a minute: probes C and D are still in flight when a short time limit ends the run.
  stuck = await startDemo([shared.appOrigin], ['--tool-delay-ms', '60000']);
});
test.afterAll(stopServers);

/** The headline on the page, in the share link's payload and in the Markdown export. */
async function headlines(page) {
  const shown = (await page.getByTestId('finding').innerText()).trim();
  await page.getByTestId('share-open').click();
  const payload = JSON.parse(await page.getByTestId('share-payload').innerText());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-markdown').click();
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  // Markdown escapes its punctuation; a link hides the endpoint's path (by default) wherever it occurs.
  const unescaped = markdown.replace(/\\(.)/g, '$1');
  return { shown, shared: payload.finding, markdown: unescaped };
}

test('headline: a Quick check without the demo token leads with the 401 in words, everywhere', async ({ guard }) => {
  guard.allow(expected.status(401, shared.demoEndpoint), expected.get405(shared.demoEndpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  const h = await headlines(page);
  // In words: no token was sent (the challenge's fields are the connect card's evidence).
  eq(h.shown, 'The server needs a token (401) and this run sent none: paste one in the Token field, or sign in.', 'the headline');
  assert(!h.shown.includes('did not run'), h.shown);
  eq(h.shared, h.shown.replace('/mcp"', '/[path hidden]"'), 'the share link carries the same sentence (its path hidden)');
  assert(
    h.markdown.includes(h.shown.replace('/mcp"', '/[path hidden]"')) || h.markdown.includes(h.shown),
    `the Markdown carries the same sentence: ${JSON.stringify(h.markdown.slice(0, 700))}`,
  );
  // The page's own demo server: one click fills its token in and runs again.
  await page.getByTestId('use-demo-token').click();
  await page.getByTestId('card-D').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('token').inputValue(), 'demo-token', 'the demo token was filled in');
  eq(await page.getByTestId('score').innerText(), '0 of 3 pairs', 'the full run');
  await context.close();
});

test('headline: a CORS block says the browser could not read the answer, not that probes did not run', async ({ guard }) => {
  // The CORS doctor's token-free requests get the server's 401 (readable or not).
  guard.allow(expected.cors(noCors), expected.status(401, noCors));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', noCors);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  const h = await headlines(page);
  assert(h.shown.startsWith("Your browser could not read the server's answer to initialize"), h.shown);
  eq(h.shared, h.shown, 'the share link carries the same sentence');
  assert(h.markdown.includes(h.shown), `the Markdown carries the same sentence: ${JSON.stringify(h.markdown.slice(0, 700))}`);
  await context.close();
});

test('headline: a run stopped by its time limit says so first, scores only answered pairs, and gives no advice for the cut probes', async ({ guard }) => {
  guard.allow(expected.noToken(stuck), expected.get405(stuck));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', stuck);
  await page.getByTestId('token').fill('demo-token');
  // A time limit out of range is refused with a message, and nothing can start.
  await moreOptions(page);
  await page.getByTestId('run-seconds').fill('1');
  assert((await page.getByTestId('run-seconds-error').innerText()).includes('from 2 to 600'), 'the range is named');
  assert(await page.getByTestId('quick-check').isDisabled(), 'Quick check waits for a valid time limit');
  await page.getByTestId('run-seconds').fill('3');
  eq((await page.getByTestId('run-seconds-error').innerText()).trim(), '', 'a valid time limit clears the message');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  const log = await page.getByTestId('run-log').evaluate((ol) => [...ol.querySelectorAll('li')].map((li) => li.textContent));
  const passed = log.findIndex((l) => l.startsWith('run deadline passed: aborted '));
  assert(passed >= 0, `the run log says the time limit ended the run: ${JSON.stringify(log)}`);
  const h = await headlines(page);
  assert(h.shown.startsWith("The run's deadline passed. "), h.shown);
  assert(!/arrive as|malformed|aborted/.test(h.shown), `no comparison of answers that did not come: ${h.shown}`);
  eq(h.shared, h.shown, 'the share link carries the same sentence');
  assert(h.markdown.includes(h.shown), `the Markdown carries the same sentence: ${JSON.stringify(h.markdown.slice(0, 700))}`);
  // C and D were held by the server: their cards say what stopped them and give no advice.
  for (const probe of ['C', 'D']) {
    const card = page.getByTestId(`card-${probe}`);
    const text = await card.innerText();
    assert(text.includes('the deadline passed before the answer was read'), `card ${probe}: ${text.slice(0, 600)}`);
    eq(await card.getByTestId('agent-advice').count(), 0, `no advice on card ${probe}`);
  }
  // The score counts the pairs among A, B, C that were answered: C was not, so at most (A,B).
  const answered = [];
  for (const probe of ['A', 'B']) {
    if ((await page.getByTestId(`card-${probe}`).getByTestId('not-answered').count()) === 0) answered.push(probe);
  }
  const score = await page.getByTestId('score').innerText();
  if (answered.length === 2) assert(/^[01] of 1 pairs$/.test(score), `one pair judged: ${score}`);
  else eq(score, 'n/a', 'no pair judged');
  // The share link's rows for C and D: no action, and what stopped them.
  const payload = JSON.parse(await page.getByTestId('share-payload').innerText());
  for (const probe of ['C', 'D']) {
    const row = payload.rows.find((r) => r.step === probe);
    eq(row.action, 'none', `shared row ${probe} has no advice`);
    eq(row.stopped, 'deadline', `shared row ${probe} says what stopped it`);
  }
  await context.close();
});
