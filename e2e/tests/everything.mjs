// The official reference server (@modelcontextprotocol/server-everything, locked in e2e/everything),
// a server many people run, as a live peer: its read-only `get-env` returns the process environment,
// which must never reach a share link or the Markdown export. It listens on every interface (it has
// no host option); the tests reach it only through 127.0.0.1.
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { test } from '../fixtures.mjs';
import { ROOT, assert, eq, expected, onFreePort, runQuick, shared, startProcess, stopServers, watchedPage } from '../lib.mjs';

const letters = 'abcdefghijklmnopqrstuvwxyz';
const CANARY = `canary${Array.from({ length: 24 }, () => letters[Math.floor(Math.random() * 26)]).join('')}`;
const ENV_SECRET = `sk-live-${Array.from({ length: 24 }, () => letters[Math.floor(Math.random() * 26)]).join('')}`;
let endpoint;
test.beforeAll(async () => {
  endpoint = await onFreePort(async (port) => {
    await startProcess('node', [join(ROOT, 'e2e/everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'], {
      ready: 'listening on port',
      env: { PORT: String(port), MCP_TRIAGE_CANARY: CANARY, SERVICE_API_KEY: ENV_SECRET },
    });
    return `http://127.0.0.1:${port}/mcp`;
  });
});
test.afterAll(stopServers);

function inflate(link) {
  const data = link
    .split('#r=')[1]
    .replace(/^v\d+\./, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  return inflateRawSync(Buffer.from(data, 'base64')).toString('utf8');
}

async function shareAndMarkdown(page) {
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  const markdown = await page.getByTestId('markdown-preview').innerText();
  return { link, inflated: inflate(link), markdown };
}

const noEnvironment = (where, text) => {
  for (const value of [CANARY, ENV_SECRET, 'MCP_TRIAGE_CANARY', 'SERVICE_API_KEY']) {
    assert(!text.includes(value), `${where} carries the server's environment (${value})`);
  }
};

test('reference server: Quick check does not pick get-env, and its environment reaches no link or Markdown', async ({ guard }) => {
  guard.allow(expected.status(400, endpoint), expected.get405(endpoint), expected.status(404, endpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token: '' });
  const d = await page.getByTestId('card-D').innerText();
  assert(!d.includes('get-env'), `probe D picked get-env:\n${d}`);
  eq(await page.getByTestId('card-D').getByTestId('cause').first().getAttribute('data-id'), 'none', 'D succeeded');
  const { link, inflated, markdown } = await shareAndMarkdown(page);
  for (const [where, text] of [
    ['share link', link],
    ['inflated link', inflated],
    ['Markdown', markdown],
  ])
    noEnvironment(where, text);
  // The page declares no sampling or elicitation capability, so the reference server does not even
  // offer its tools that would send those requests (the engine answers any such request -32601).
  eq(
    JSON.parse(inflated).rows.some((r) => /trigger-(sampling|elicitation)/.test(r.tool || '')),
    false,
    'no sampling tool was called',
  );
  await context.close();
});

test('reference server: get-env picked by hand succeeds, and the link shares its shape, never the environment', async ({ guard }) => {
  guard.allow(expected.status(400, endpoint), expected.get405(endpoint), expected.status(404, endpoint));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await runQuick(page, { endpoint, token: '', review: true });
  const catalogue = await page.getByTestId('catalogue').innerText();
  assert(catalogue.includes('get-env'), 'get-env is in the catalogue');
  assert(!/trigger-sampling-request/.test(catalogue), 'no sampling tool is offered to a client without the sampling capability');
  await page.getByTestId('tool-D').fill('get-env');
  await page.getByTestId('run-plan').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  // The user's own view shows the answer (it is theirs); what they share does not.
  await page.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.open = true;
    }),
  );
  assert(
    (await page.getByTestId('card-D').innerText()).includes('MCP_TRIAGE_CANARY'),
    "the environment is on the user's own screen (the control for the checks below)",
  );
  const { link, inflated, markdown } = await shareAndMarkdown(page);
  for (const [where, text] of [
    ['share link', link],
    ['inflated link', inflated],
    ['Markdown', markdown],
  ])
    noEnvironment(where, text);
  const rowD = JSON.parse(inflated).rows.find((r) => r.step === 'D');
  eq(rowD.excerpt, null, 'no excerpt of a successful answer');
  assert(
    rowD.shape && rowD.shape.blocks.length >= 1 && rowD.shape.blocks[0][0] === 'text' && rowD.shape.blocks[0][1] > 0,
    `D's shape: ${JSON.stringify(rowD.shape)}`,
  );
  assert((await page.getByTestId('json-note').innerText()).includes('full answers'), 'the JSON download says it keeps full content');
  await context.close();
});
