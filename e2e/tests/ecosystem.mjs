// The ecosystem, live: each peer is probed through the real page (Quick check, with the consent step
// where its tools declare no annotations), and every card must show exactly its expectation table
// (e2e/ecosystem/PEER.json, written from the SDK's source before this harness): channel, cause,
// decided-by, spec verdict and flags for A to D, the transport checks it names, and the summary's fix
// first. Peers start in parallel.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import {
  ARTIFACTS,
  assert,
  eq,
  expected,
  fillExactly,
  moreOptions,
  onFreePort,
  openCards,
  ROOT,
  shared,
  startDemo,
  startProcess,
  startPython,
  stopServers,
  watchedPage,
} from '../lib.mjs';

const table = (peer) => JSON.parse(readFileSync(join(ROOT, 'e2e/ecosystem', `${peer}.json`), 'utf8'));

function startRmcp(extra = []) {
  return onFreePort(async (port) => {
    await startProcess(join(ROOT, 'target/rmcp-peer/debug/rmcp-peer'), ['--port', String(port), '--cors-origin', shared.appOrigin, ...extra], {
      ready: 'rmcp peer on',
    });
    return `http://127.0.0.1:${port}/mcp`;
  });
}

function startFastmcp(extra = []) {
  return onFreePort(async (port) => {
    await startProcess(
      join(ROOT, 'e2e/py/.venv/bin/python'),
      ['e2e/py/fastmcp_server.py', '--port', String(port), '--cors-origin', shared.appOrigin, ...extra],
      { ready: 'fastmcp peer on' },
    );
    return `http://127.0.0.1:${port}/mcp`;
  });
}

// Each peer: how it starts (to its endpoint) and the console lines its run provokes on purpose.
const peers = [
  { peer: 'ts-1.29.0', start: async () => shared.demoEndpoint, token: 'demo-token', allow: (ep) => [expected.noToken(ep), expected.get405(ep)] },
  { peer: 'py-mcp-2.3.0-mcpserver', start: () => startPython(shared.appOrigin), allow: (ep) => [expected.get405(ep)] },
  {
    peer: 'ts-1.32.2',
    start: () => startDemo([shared.appOrigin], ['--sdk', 'e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk']),
    token: 'demo-token',
    allow: (ep) => [expected.noToken(ep), expected.get405(ep)],
  },
  { peer: 'py-mcp-2.3.0-lowlevel', start: () => startPython(shared.appOrigin, ['--lowlevel']), allow: (ep) => [expected.get405(ep)] },
  { peer: 'fastmcp-4.2.3', start: () => startFastmcp(), allow: (ep) => [expected.get405(ep)] },
  { peer: 'fastmcp-4.2.3-masked', start: () => startFastmcp(['--mask']), allow: (ep) => [expected.get405(ep)] },
  {
    peer: 'fastmcp-4.2.3-auth',
    start: () => startFastmcp(['--token', table('fastmcp-4.2.3-auth').token]),
    allow: (ep) => [expected.noToken(ep), expected.get405(ep)],
  },
  { peer: 'fastmcp-4.2.3-2026-07-28', start: () => startFastmcp(), allow: (ep) => [expected.get405(ep)] },
  { peer: 'rmcp-3.11.0', start: () => startRmcp(), allow: (ep) => [expected.get405(ep)] },
  { peer: 'rmcp-3.11.0-stateful', start: () => startRmcp(['--stateful']), allow: () => [] },
];
let endpoints;
test.beforeAll(async () => {
  endpoints = await Promise.all(peers.map((p) => p.start()));
});
test.afterAll(stopServers);

/** What a card shows: channel, cause, decided-by, and for a probe its spec verdict and flags. */
async function shown(page, id, probe = true) {
  const card = page.getByTestId(id);
  // Badges show their table's words; the identifiers tests compare are in `data-id`.
  const idOf = (testid) => card.getByTestId(testid).first().getAttribute('data-id');
  const channel = await idOf('channel');
  const cause = await idOf('cause');
  const decided = await idOf('decided-by');
  if (!probe) return [channel, cause, decided];
  const verdict = await idOf('verdict');
  const flags = (await card.getByTestId('flag').evaluateAll((els) => els.map((e) => e.dataset.id))).sort();
  return [channel, cause, decided, verdict, flags];
}

peers.forEach((p, i) => {
  const want = table(p.peer);
  test(`live peer ${p.peer} (${want.sdk}, ${want.era}): the page shows exactly its expectation table`, async ({ guard }) => {
    guard.allow(...p.allow(endpoints[i]));
    const context = await shared.browser.newContext({ acceptDownloads: true });
    const page = await watchedPage(context);
    await page.goto(shared.appUrl);
    await fillExactly(page, 'endpoint', endpoints[i]);
    await page.getByTestId('token').fill(want.token ?? (p.token || ''));
    await moreOptions(page);
    await page.getByTestId('era').selectOption(want.era);
    await page.getByTestId('quick-check').click();
    const step = await Promise.race([
      page
        .getByTestId('consent')
        .waitFor({ timeout: 45000 })
        .then(() => 'consent'),
      page
        .getByTestId('results')
        .waitFor({ timeout: 45000 })
        .then(() => 'results'),
    ]);
    eq(step === 'consent', want.consent, `${p.peer}: the consent step ${want.consent ? 'appears' : 'does not appear'}`);
    if (step === 'consent') {
      await page.getByTestId('consent-run').click();
      await page.getByTestId('results').waitFor({ timeout: 45000 });
    }
    await openCards(page);
    // The results are on screen: a probe card missing now is a finding, said with what the page shows.
    for (const probe of ['A', 'B', 'C', 'D']) {
      try {
        await page.getByTestId(`card-${probe}`).waitFor({ timeout: 15000 });
      } catch {
        const said = await page.getByTestId('results').innerText();
        throw new Error(`${p.peer}: no card for probe ${probe}; the results say:\n${said.slice(0, 3000)}`);
      }
      eq(JSON.stringify(await shown(page, `card-${probe}`)), JSON.stringify(want.probes[probe]), `${p.peer} probe ${probe}`);
    }
    if (want.checks?.no_token) {
      eq(JSON.stringify(await shown(page, 'card-no-token', false)), JSON.stringify(want.checks.no_token), `${p.peer} no-token check`);
      const challenge = await page.getByTestId('card-no-token').getByTestId('challenge').innerText();
      for (const param of want.checks.challenge) assert(challenge.includes(param), `${p.peer}: the challenge shows ${param}: ${challenge}`);
    }
    // The fix first, pinned per peer (ECOSYSTEM_FIX_WRITE=1 writes what the page says into the
    // table, to be read and committed; the sentence is the core's choice from the verdicts above).
    const fix = await page.getByTestId('fix-first').innerText();
    if (process.env.ECOSYSTEM_FIX_WRITE) {
      writeFileSync(join(ROOT, 'e2e/ecosystem', `${p.peer}.json`), `${JSON.stringify({ ...want, fix_first: fix }, null, 2)}\n`);
    } else {
      eq(fix, want.fix_first, `${p.peer}: the fix first`);
    }
    // The run as the page saves it: docs/ecosystem.md is generated from these captures.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
    mkdirSync(join(ARTIFACTS, 'ecosystem'), { recursive: true });
    writeFileSync(join(ARTIFACTS, 'ecosystem', `${p.peer}.json`), readFileSync(await download.path()));
    await context.close();
  });
});
