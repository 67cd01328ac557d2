// Makes the committed set of share links (crates/mcp-triage/tests/share-links/): real runs against the
// real servers, an example, a cancelled run, each saved as the fragment (`NAME.link`) and its payload
// inflated by Node's zlib (`NAME.json`). Run by hand when a new payload version ships (with the page of
// that day built in dist/), never by the test command: old links are data the tests keep.
//   node e2e/make-share-links.mjs PREFIX [NAME]     (PREFIX names the files, e.g. v1; NAME makes one)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import config from '../playwright.config.mjs';
import { ROOT, cli, runQuick, serveDist, stageDist, startDemo, startProcess, startPython, stopServers } from './lib.mjs';

const prefix = process.argv[2] || 'v1';
const out = join(ROOT, 'crates/mcp-triage/tests/share-links');
// Fixed ports, unlike the tests' (a link holds its endpoint's origin: the committed ones stay alike).
const APP_PORT = 18181;
const appOrigin = `http://127.0.0.1:${APP_PORT}`;
const demo = await startDemo([appOrigin], [], { port: 18888 });
const slow = await startDemo([appOrigin], ['--tool-delay-ms', '4000'], { port: 18889 });
const fixed = await startDemo([appOrigin], ['--invalid-params-error'], { port: 18890 });
const py = await startPython(appOrigin, [], { port: 18891 });
await startProcess('node', ['e2e/peers/oauth/server.mjs', '--as', 'oidc', '--port', '18892'], { ready: 'oauth peer' });
const oidc = 'http://localhost:18892/mcp';
const only = process.argv[3];
const app = await serveDist(stageDist('links', demo), [], { port: APP_PORT });
// Debian's Chromium, launched as the browser tests launch it (playwright.config.mjs).
const browser = await chromium.launch(config.use.launchOptions);

async function save(name, page) {
  // A comparison (v13) is the results page's link with both runs; every other case its share link.
  const compared = await page.getByTestId('compare-link').count();
  if (!compared) await page.getByTestId('share-open').click();
  const link = await page.getByTestId(compared ? 'compare-link' : 'share-link').inputValue();
  const fragment = link.slice(link.indexOf('#') + 1);
  const data = fragment
    .slice(fragment.indexOf('.') + 1)
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const json = JSON.parse(inflateRawSync(Buffer.from(data, 'base64')).toString('utf8'));
  writeFileSync(join(out, `${prefix}-${name}.link`), `${fragment}\n`);
  writeFileSync(join(out, `${prefix}-${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
  console.log(`${prefix}-${name}: ${fragment.length} characters, ${json.rows.length} rows`);
}

async function fresh() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(app);
  await page.getByTestId('target-form').waitFor();
  return { context, page };
}

const runs = {
  'ts-1.29.0-demo': async (page) => runQuick(page, { endpoint: demo, token: 'demo-token' }),
  'ts-1.29.0-no-token': async (page) => runQuick(page, { endpoint: demo, token: '' }),
  'py-mcp-2.3.0-stateless': async (page) => runQuick(page, { endpoint: py, token: '' }),
  'py-mcp-2.3.0-2026-07-28': async (page) => runQuick(page, { endpoint: py, token: '', era: '2026-07-28' }),
  'example-ts-1.20.0': async (page) => {
    await page.locator('details.no-server > summary').click();
    await page.getByTestId('example-ts-1.20.0').click();
    await page.getByTestId('results').waitFor();
  },
  // v12: the page's sign-in check against oidc-provider, which refuses the page at registration.
  'page-signin-oidc': async (page) => {
    await runQuick(page, { endpoint: oidc, token: '' });
    await page.getByTestId('check-sign-in').first().click();
    await page.getByTestId('auth').waitFor({ timeout: 30000 });
  },
  // v13: the results page compares its run (the low-level server's -32602 for bad arguments) with
  // the demo's baseline file, written by the CLI; the link with both runs.
  compare: async (page) => {
    const baseline = join(ROOT, 'target', 'make-share-links-seed.json');
    cli(['probe', demo, '--token-env', 'T', '--era', '2025-06-18', '--write-baseline', baseline], { T: 'demo-token' });
    await runQuick(page, { endpoint: fixed, token: 'demo-token', era: '2025-06-18' });
    await page.getByTestId('compare-open').click();
    await page.getByTestId('compare-file').setInputFiles(baseline);
    await page.getByTestId('compare-link').waitFor();
  },
  cancelled: async (page) => {
    await page.getByTestId('endpoint').fill(slow);
    await page.getByTestId('token').fill('demo-token');
    await page.getByTestId('quick-check').click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=step]')].some((li) => li.textContent.includes('probe C')));
    await page.keyboard.press('Escape');
    await page.getByTestId('results').waitFor({ timeout: 10000 });
  },
};
for (const [name, act] of Object.entries(runs)) {
  if (only && name !== only) continue;
  const { context, page } = await fresh();
  await act(page);
  await save(name, page);
  await context.close();
}
await browser.close();
await stopServers();
process.exit(0);
