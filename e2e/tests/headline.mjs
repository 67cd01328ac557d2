// The first sentence of the results names what happened, cause first — on the page, in the share
// link and in the Markdown alike: a 401 with its challenge, a CORS block, a Cancel.
import { assert, eq, expected, shared, startDemo, test, watchedPage } from '../lib.mjs';

const noCors = await startDemo(18809, [shared.appOrigin], ['--cors', 'none']);

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

test('headline: a Quick check without the demo token leads with the 401 and its challenge, everywhere', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.waitForFunction(() => document.querySelector('[data-testid=endpoint]')?.value !== '');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  const h = await headlines(page);
  assert(h.shown.startsWith('The server asked for a token (401): its challenge is Bearer error="invalid_token"'), h.shown);
  assert(h.shown.includes('resource_metadata="http://127.0.0.1:'), `the challenge names its metadata: ${h.shown}`);
  assert(!h.shown.includes('did not run'), h.shown);
  eq(h.shared, h.shown.replace('/mcp"', '/[path hidden]"'), 'the share link carries the same sentence (its path hidden)');
  assert(h.markdown.includes(h.shown.replace('/mcp"', '/[path hidden]"')) || h.markdown.includes(h.shown), `the Markdown carries the same sentence: ${JSON.stringify(h.markdown.slice(0, 700))}`);
  // The page's own demo server: one click fills its token in and runs again.
  await page.getByTestId('use-demo-token').click();
  await page.getByTestId('card-D').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('token').inputValue(), 'demo-token', 'the demo token was filled in');
  eq(await page.getByTestId('score').innerText(), '0 of 3 pairs', 'the full run');
  await context.close();
}, { allow: [expected.status(401, shared.demoEndpoint), expected.get405(shared.demoEndpoint)] });

test('headline: a CORS block says the browser could not read the answer, not that probes did not run', async () => {
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await page.getByTestId('endpoint').fill(noCors);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  const h = await headlines(page);
  assert(h.shown.startsWith("Your browser could not read the server's answer to initialize"), h.shown);
  eq(h.shared, h.shown, 'the share link carries the same sentence');
  assert(h.markdown.includes(h.shown), `the Markdown carries the same sentence: ${JSON.stringify(h.markdown.slice(0, 700))}`);
  await context.close();
  // The CORS doctor's token-free requests get the server's 401 (readable or not).
}, { allow: [expected.cors(noCors), expected.status(401, noCors)] });
