// Before and after in the page, against real servers: the TypeScript SDK 1.29.0 demo (unknown tool,
// bad arguments and a thrown error all as isError prose) and the same tools on that SDK's low-level
// Server answering bad arguments with a JSON-RPC -32602 error (demo/server.mjs
// --invalid-params-error). The results page compares its run with a baseline file the CLI wrote and
// makes a link with both runs, which opens as the comparison; a share view hands its run to the
// tool, which compares it with a pasted link the other way round: worse. Screenshots of the
// comparison (light, dark, 360 px) go to e2e/artifacts/ (docs/ holds the committed ones).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ARTIFACTS, assert, cli, eq, expected, runQuick, shared, startDemo, stopServers, watchedPage } from '../lib.mjs';

let servers, FIXED, work;
test.beforeAll(async () => {
  servers = await Promise.all([startDemo([shared.appOrigin]), startDemo([shared.appOrigin], ['--invalid-params-error'])]);
  FIXED = servers[1];
  work = mkdtempSync(join(tmpdir(), 'mcp-triage-compare-'));
  writeFileSync(join(work, '.keep'), '');
});
test.afterAll(stopServers);
// At 2025-06-18 a JSON-RPC -32602 for bad arguments conforms; from 2025-11-25 the spec asks for a
// tool error (the CLI's tests cover that case).
const ERA = '2025-06-18';

async function baselineOf(endpoint) {
  const file = join(work, `${endpoint.split(':')[2].split('/')[0]}.json`);
  cli(['probe', endpoint, '--token-env', 'T', '--era', ERA, '--write-baseline', file], { T: 'demo-token' });
  return file;
}

function linkOf(endpoint) {
  const out = JSON.parse(cli(['probe', endpoint, '--token-env', 'T', '--era', ERA, '--json', '--share', '--share-base', shared.appUrl], { T: 'demo-token' }));
  return out.share;
}

const B_BETTER = 'B now arrives as JSON-RPC error -32602: told apart by structure';

test('compare with a baseline file on the results page: B better, a link with both runs opens as the comparison', async ({ guard }) => {
  guard.allow(expected.noToken(FIXED));
  const [seed, fixed] = await servers;
  const baseline = await baselineOf(seed);
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint: fixed, token: 'demo-token', era: ERA });
  await page.getByTestId('compare-open').click();
  await page.getByTestId('compare-file').setInputFiles(baseline);
  const summary = page.getByTestId('comparison-summary');
  await summary.waitFor({ timeout: 15000 });
  const said = await summary.textContent();
  assert(said.includes(B_BETTER), said);
  assert(said.includes('Score 0 of 3 → 2 of 3.'), said);
  eq(await page.getByTestId('compare-row-B').getAttribute('class'), 'compare-row better', 'B is marked better');
  assert((await page.getByTestId('comparison-score').textContent()).includes('0 worse'), 'nothing worse');
  // Screenshots: light, dark, 360 px.
  const section = page.getByTestId('comparison');
  await section.screenshot({ path: join(ARTIFACTS, 'compare-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await section.screenshot({ path: join(ARTIFACTS, 'compare-dark.png') });
  await page.setViewportSize({ width: 360, height: 800 });
  await section.screenshot({ path: join(ARTIFACTS, 'compare-360.png') });
  // Nothing in the page overflows its width at 360 px.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(wide <= 360, `the page is ${wide} px wide at 360`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  // The link with both runs: the tool opens it as the same comparison, and sends no request.
  const link = await page.getByTestId('compare-link').inputValue();
  assert(link.startsWith(`${shared.appUrl}#c=v14.`), link.slice(0, 80));
  assert(!link.includes('demo-token'), 'no token in the link');
  const other = await watchedPage(context);
  const requests = [];
  other.on('request', (r) => {
    if (!r.url().startsWith(shared.appUrl)) requests.push(r.url());
  });
  await other.goto(link);
  await other.getByTestId('compare-page').waitFor({ timeout: 15000 });
  const again = await other.getByTestId('comparison-summary').textContent();
  eq(again, said, 'the link opens as the same comparison');
  eq(requests.length, 0, `requests beyond the page: ${requests.join(' ')}`);
  await context.close();
});

test('a share view hands its run to the tool, compared with a pasted link the other way round: worse', async () => {
  const [seed, fixed] = await servers;
  const seedLink = linkOf(seed);
  const fixedLink = linkOf(fixed);
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(seedLink);
  await page.getByTestId('shared-view').waitFor({ timeout: 15000 });
  await page.getByTestId('compare-open').click();
  // The tool (app module) opens the run for comparing, with the panel open.
  await page.getByTestId('compare-page').waitFor({ timeout: 15000 });
  assert(page.url().includes('#c=v14.'), page.url().slice(0, 80));
  await page.getByTestId('compare-input').fill(fixedLink);
  await page.getByTestId('compare-go').click();
  const said = await page.getByTestId('comparison-summary').textContent();
  assert(said.includes('B now arrives as isError: true: no longer told apart by structure'), said);
  assert(said.includes('Score 2 of 3 → 0 of 3.'), said);
  eq(await page.getByTestId('compare-row-B').getAttribute('class'), 'compare-row worse', 'B is marked worse');
  // What is not a run is refused in words.
  await page.getByTestId('compare-input').fill('{"format": "something/1"}');
  await page.getByTestId('compare-go').click();
  const problem = await page.getByTestId('compare-problem').textContent();
  assert(problem.includes('expected mcp-triage-baseline/1'), problem);
  await context.close();
});
