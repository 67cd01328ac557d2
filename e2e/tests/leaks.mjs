// The leak suite: a server echoes the token, a secret header and a path/query sentinel in every form
// of the leak checker's list; every channel a secret could leave the page by is captured and checked
// by the core's own checker (`leakcheck`). Against the real page every cell must be clean; against the
// leak-control build (redaction switched off) the suite must flag exactly the committed matrix.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { test } from '../fixtures.mjs';
import { assert, eq, expected, fillExactly, moreOptions, ROOT, serveDist, shared, stageDist, startHostile, stopServers } from '../lib.mjs';

const LEAKCHECK = join(ROOT, 'target/debug/leakcheck');
const CONTROL_DIST = join(ROOT, 'target/leak-control-dist');
const MATRIX = JSON.parse(readFileSync(join(ROOT, 'e2e/leak-matrix.json'), 'utf8'));

function leakcheck(args, input) {
  const r = spawnSync(LEAKCHECK, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`leakcheck ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// The sentinels and their echo forms, where the file is loaded: the tests' titles count the forms.
const seed = String(Math.floor(Math.random() * 2 ** 48));
const S = leakcheck(['sentinels', seed]);
const ECHOES = leakcheck(['echoes'], JSON.stringify(S));
const FORMS = Object.keys(ECHOES);
const echoFile = join(ROOT, 'target', 'leak-echoes.json');
// The page built with redaction switched off (its own port), and the echoing server for both pages.
let controlUrl, CONTROL_PORT, HOSTILE_ORIGIN, TARGET;
test.beforeAll(async () => {
  writeFileSync(echoFile, JSON.stringify(ECHOES));
  controlUrl = existsSync(CONTROL_DIST) ? await serveDist(stageDist('leak-control', null, CONTROL_DIST)) : null;
  CONTROL_PORT = controlUrl && new URL(controlUrl).port;
  const origins = controlUrl ? `${shared.appOrigin},${new URL(controlUrl).origin}` : shared.appOrigin;
  const hostile = await startHostile(origins, ['--leak', echoFile]);
  HOSTILE_ORIGIN = `http://127.0.0.1:${hostile.port}`;
  TARGET = hostile.targetPort;
});
test.afterAll(stopServers);
const appOrigin = (url) => new URL(url).origin;

// `leak-bytes`: the same echoes in bodies that end in bytes that are not UTF-8, so the JSON download
// keeps them as body_base64 (the echo inside the base64).
const endpointFor = (form, mode = 'leak') => `${HOSTILE_ORIGIN}/${mode}/${form}/${S.path}/mcp?key=${S.path}`;

/** One Quick check against the echoing server; returns every channel's text. */
async function capture(appUrl, form, mode = 'leak') {
  const endpoint = endpointFor(form, mode);
  const context = await shared.browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const consoleText = [];
  const requests = [];
  page.on('console', (m) => consoleText.push(m.text()));
  page.on('pageerror', (e) => consoleText.push(String(e?.message)));
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(() => {
    window.__clip = [];
    const write = (t) => {
      window.__clip.push(String(t));
      return Promise.resolve();
    };
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: write }, configurable: true });
  });
  await page.goto(appUrl);
  await page.getByTestId('target-form').waitFor();
  await fillExactly(page, 'endpoint', endpoint);
  await page.getByTestId('token').fill(S.token);
  await moreOptions(page);
  await page.getByTestId('add-header').click();
  await page.getByTestId('extra-name').fill('X-Leak-Secret');
  await page.getByTestId('extra-value').fill(S.header);
  await page.getByTestId('quick-check').click();
  await page.getByTestId('results').waitFor({ timeout: 45000 });
  // What the results flag, read when they replace the live cards (the run has ended), before any
  // other click, and by identifier: a card's flags and advice sit inside its <details>, which
  // innerText reads only while it is open and rendered at that moment.
  const flagged = await page.getByTestId('results').evaluate((r) => ({
    cards: [...r.querySelectorAll('[data-testid=flag][data-id=secret_echoed]')].map((f) => f.closest('[data-testid^=card-]')?.dataset.testid),
    advice: r.textContent.includes('never echo tokens or secret headers'),
  }));
  // Render everything: open every disclosure, press every "show all".
  await page.evaluate(() =>
    document.querySelectorAll('details').forEach((d) => {
      d.open = true;
    }),
  );
  for (let i = 0; i < 50; i++) {
    const more = page.getByRole('button', { name: 'show all' });
    if ((await more.count()) === 0) break;
    await more.first().click();
  }
  const dom = await page.evaluate(() => {
    const clone = document.documentElement.cloneNode(true);
    // The two secret fields hold the secrets by design.
    clone.querySelectorAll('[data-testid=token], [data-testid=extra-value]').forEach((el) => {
      el.remove();
    });
    return clone.outerHTML;
  });
  const markdown = await page.getByTestId('markdown-preview').innerText();
  for (const b of await page.getByTestId('copy-curl').all()) await b.click();
  const curl = (await page.evaluate(() => window.__clip)).join('\n');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  const json = readFileSync(await download.path(), 'utf8');
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  const data = link
    .split('#r=')[1]
    .replace(/^v\d+\./, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const shareInflated = inflateRawSync(Buffer.from(data, 'base64')).toString('utf8');
  const storage =
    (await page.evaluate(async () =>
      JSON.stringify({
        local: Object.entries(localStorage),
        session: Object.entries(sessionStorage),
        cookie: document.cookie,
        idb: indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name) : [],
      }),
    )) + JSON.stringify(await context.cookies());
  const location = await page.evaluate(() => JSON.stringify([location.href, history.length, history.state]));
  const referers = await (await fetch(`${HOSTILE_ORIGIN}/__referers`)).text();
  const allowed = [appOrigin(appUrl), HOSTILE_ORIGIN];
  const thirdHosts = requests.filter((u) => !allowed.some((o) => u.startsWith(o))).join('\n');
  await context.close();
  return {
    channels: {
      dom,
      curl,
      markdown,
      json,
      share_inflated: shareInflated,
      share_raw: link,
      console: consoleText.join('\n'),
      storage,
      location,
      referer: referers,
      third_hosts: thirdHosts,
    },
    flagged,
  };
}

/** How a run ended, request by request, from its JSON download (what a failure message needs). */
function ending(json) {
  const report = JSON.parse(json);
  const step = (r) => (r.step.step === 'probe' ? `probe:${r.step.n}` : r.step.step);
  const end = (ex) => ex.transport_error ?? ex.response?.body_end ?? 'none';
  return `run ${report.ended}: ${report.records.map((r) => `${step(r)} ${end(r.exchange)}`).join(', ')}`;
}

/** The secrets found per channel (path only where it is not shown by design). */
function check(channels) {
  const found = leakcheck(['check'], JSON.stringify({ secrets: { token: S.token, header: S.header, path: S.path }, channels }));
  const pathShownByDesign = new Set(['dom', 'curl', 'location', 'console']);
  for (const [channel, secrets] of Object.entries(found)) {
    found[channel] = secrets.filter((s) => !(s === 'path' && pathShownByDesign.has(channel))).sort();
  }
  return found;
}

// Chromium logs the URL as sent: the sentinel's non-ASCII letter percent-encoded, in path and query.
const sentUrl = (form, mode) => endpointFor(form, mode).replaceAll(S.path, encodeURIComponent(S.path));
const provokedBy = (mode) =>
  FORMS.flatMap((f) => [expected.noToken(sentUrl(f, mode)), expected.get405(sentUrl(f, mode)), expected.status(500, sentUrl(f, mode))]);

test(`leaks: no secret in any of 11 channels, for each of the ${FORMS.length} echo forms, and the echo is a flagged finding`, async ({ guard }) => {
  guard.allow(...provokedBy('leak'));
  const dirty = [];
  for (const form of FORMS) {
    const { channels, flagged } = await capture(shared.appUrl, form);
    assert(flagged.cards.length > 0, `${form}: the card flags secret_echoed (${ending(channels.json)})`);
    assert(flagged.advice, `${form}: with advice for the server author`);
    for (const [channel, secrets] of Object.entries(check(channels))) {
      if (secrets.length) dirty.push(`${form} × ${channel}: ${secrets.join(', ')}`);
    }
  }
  eq(dirty.join('\n'), '', 'leaks found');
  const hits = await (await fetch(`http://127.0.0.1:${TARGET}/__hits`)).json();
  eq(hits.hits, 0, 'requests that reached another port');
});

test('leaks control: with redaction switched off the suite flags exactly the committed matrix', async ({ guard }) => {
  // The control build is served from loopback without a demo file, so the page asks for it once.
  guard.allow(...provokedBy('leak'), expected.status(404, `http://127.0.0.1:${CONTROL_PORT}/demo.json`));
  assert(controlUrl, `the leak-control build is missing at ${CONTROL_DIST} (./x test builds it)`);
  const want = [];
  const got = [];
  for (const form of FORMS) {
    const { channels } = await capture(controlUrl, form);
    const found = check(channels);
    for (const [channel, cell] of Object.entries(MATRIX.cells)) {
      const special = cell.also?.[form];
      const secrets = special ? special.secrets : (cell.except || []).includes(form) ? cell.except_secrets || [] : cell.secrets;
      want.push(`${form} × ${channel}: ${[...secrets].sort().join(', ')}`);
      got.push(`${form} × ${channel}: ${(found[channel] || []).join(', ')}`);
    }
    eq(Object.keys(found).sort().join(','), Object.keys(MATRIX.cells).sort().join(','), 'channels checked');
  }
  const diff = want.filter((w, i) => w !== got[i]).map((w) => `want ${w}`);
  const gotDiff = got.filter((g, i) => g !== want[i]).map((g) => `got  ${g}`);
  eq([...diff, ...gotDiff].join('\n'), '', 'control matrix');
});

test(`leaks, beside bytes that are not UTF-8: no secret in any channel for the ${FORMS.length} forms (the JSON download's body_base64 included); with redaction off the JSON leaks the token in each`, async ({
  guard,
}) => {
  guard.allow(...provokedBy('leak-bytes'), expected.status(404, `http://127.0.0.1:${CONTROL_PORT}/demo.json`));
  assert(controlUrl, `the leak-control build is missing at ${CONTROL_DIST} (./x test builds it)`);
  const dirty = [];
  const quiet = [];
  for (const form of FORMS) {
    const { channels } = await capture(shared.appUrl, form, 'leak-bytes');
    assert(channels.json.includes('body_base64'), `${form}: the JSON download keeps a body as body_base64`);
    for (const [channel, secrets] of Object.entries(check(channels))) {
      if (secrets.length) dirty.push(`${form} × ${channel}: ${secrets.join(', ')}`);
    }
    // The control: the same run with redaction off leaves the token in the JSON download.
    const control = await capture(controlUrl, form, 'leak-bytes');
    if (!(check(control.channels).json || []).includes('token')) quiet.push(form);
  }
  eq(dirty.join('\n'), '', 'leaks found');
  eq(quiet.join(', '), '', 'forms whose control run left no token in the JSON download');
});

test('the release bundle carries no leak-control code; the control build does', async () => {
  const marker = 'MCP-TRIAGE-LEAK-CONTROL-BUILD';
  // Every module of the build: the boot page, the app (where redaction runs) and the share view.
  const wasmIn = (dir) => {
    const files = readdirSync(dir).filter((f) => f.endsWith('_bg.wasm'));
    eq(files.length, 3, `three modules in ${dir}: ${files}`);
    return files.map((f) => readFileSync(join(dir, f)));
  };
  assert(!wasmIn(join(ROOT, 'dist')).some((w) => w.includes(marker)), 'dist/ contains the leak-control marker');
  assert(
    wasmIn(CONTROL_DIST).some((w) => w.includes(marker)),
    'the control build lacks its marker (so the check above proves nothing)',
  );
});
