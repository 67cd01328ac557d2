// The benchmark ("An instant page"): measures this machine and writes docs/PERFORMANCE.md. Figures,
// never timed tests: nothing here passes or fails on a number.
//
//   node scripts/bench.mjs [--runs 7] [--out docs/PERFORMANCE.md]
//
// Needs dist/ (trunk build --release), what scripts/setup.sh installs (Chromium, node_modules, the
// Python peer), and, the first time, the network for `npm pack @modelcontextprotocol/inspector@2.12.0`
// (its web bundle, clients/web/dist, is kept under target/bench/; it is never `npm install`ed).
import { execFileSync, spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunch } from '../e2e/chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('runs', '7'));
const OUT = resolve(ROOT, arg('out', 'docs/PERFORMANCE.md'));
const BENCH = join(ROOT, 'target/bench');
mkdirSync(BENCH, { recursive: true });
// Ports of the benchmark's own (the tests use 18018–18979 and are not running beside it).
const P = { app: 19520, inspector: 19521, demo: 19522, stateful: 19523, python: 19524, hostile: 19525, unannotated: 19526, proxy: 19530 };
const APP = `http://127.0.0.1:${P.app}/`;
// Chromium's network emulation: a link's throughput both ways and its round trip.
const link = (mbps, rtt) => ({ offline: false, latency: rtt, downloadThroughput: (mbps * 1e6) / 8, uploadThroughput: (mbps * 1e6) / 8 });
const FAST = link(20, 40);
const SLOW = link(1.6, 150);
// The three conditions, by the name the report gives them, and the target of each (none for the slow link: reported).
const CONDITIONS = [
  ['unthrottled', null, 300],
  ['20 Mbps / 40 ms RTT', FAST, 400],
  ['1.6 Mbps / 150 ms RTT', SLOW, null],
];

const children = [];
process.on('exit', () => {
  for (const c of children) {
    try {
      c.kill('SIGTERM');
    } catch {
      /* gone */
    }
  }
});
function start(cmd, args, ready) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} ${args.join(' ')} not ready:\n${out}`)), 30000);
    const seen = (d) => {
      out += d;
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited ${code}:\n${out}`));
    });
  });
}

/** The Inspector's web bundle, from the npm tarball (never installed). */
function inspectorDist() {
  const dist = join(BENCH, 'inspector/package/clients/web/dist');
  if (existsSync(join(dist, 'index.html'))) return dist;
  mkdirSync(join(BENCH, 'inspector'), { recursive: true });
  execFileSync('npm', ['pack', '@modelcontextprotocol/inspector@2.12.0', '--pack-destination', join(BENCH, 'inspector')], { stdio: 'inherit' });
  const tgz = readdirSync(join(BENCH, 'inspector')).find((f) => f.endsWith('.tgz'));
  execFileSync('tar', ['xzf', join(BENCH, 'inspector', tgz), '-C', join(BENCH, 'inspector'), 'package/clients/web/dist']);
  return dist;
}

/**
 * A proxy that holds every request 50 ms before passing it on (a far server, for counting request
 * waves: a wave costs one delay however many requests it holds), and counts preflights.
 */
function delayingProxy(port, target) {
  const stats = { requests: 0, preflights: 0 };
  const server = createServer((req, res) => {
    stats.requests += 1;
    if (req.method === 'OPTIONS') stats.preflights += 1;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const url = new URL(req.url, target);
        const up = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (r) => {
          res.writeHead(r.statusCode, r.headers);
          res.flushHeaders(); // a held stream's headers must reach the page before its first byte
          r.pipe(res);
        });
        up.on('error', () => {
          res.writeHead(502).end();
        });
        up.end(Buffer.concat(chunks));
      }, 50),
    );
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, stats, url: `http://127.0.0.1:${port}/mcp` })));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${Math.round(x)}`;

/** Cache off and, for a throttled condition, Chromium's network emulation on the page. */
async function throttle(context, page, conditions) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (conditions) await cdp.send('Network.emulateNetworkConditions', conditions);
}

/** One cold load in a fresh context: `when` (run in the page) resolves with performance.now() of the moment. */
async function coldLoad(browser, url, when, throttled) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await throttle(context, page, throttled);
  await page.addInitScript(when);
  await page.goto(url);
  const t = await page.waitForFunction(() => window.__benchAt, null, { timeout: 30000 }).then((h) => h.jsonValue());
  phases.push({ url, throttled, at: t, ...(await page.evaluate(PHASES)) });
  await context.close();
  return t;
}

// Where a load's time went, from the page's own timeline: the HTML's arrival, the loader's User
// Timing marks (Trunk.toml), and the module's wasm request (Resource Timing).
const phases = [];
const PHASES = () => {
  const mark = (n) => performance.getEntriesByName(`mcp-triage:${n}`)[0]?.startTime ?? null;
  const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
  return {
    html: performance.getEntriesByType('navigation')[0]?.responseEnd ?? null,
    loader: mark('loader'),
    wasmAsked: wasm?.startTime ?? null,
    wasmIn: wasm?.responseEnd ?? null,
    glue: mark('glue'),
    started: mark('started'),
  };
};

// In the page, before its scripts: note performance.now() when the moment comes.
// Both pages by the same rule, checked once per frame: the page's own signal and a visible control.
const OUR_READY = () => {
  const look = () => {
    const b = document.querySelector('[data-testid=quick-check]');
    if (document.documentElement?.hasAttribute('data-app-ready') && b && b.offsetParent !== null) window.__benchAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
};
const INSPECTOR_READY = () => {
  const look = () => {
    const b = [...document.querySelectorAll('button')].find((x) => /add servers?/i.test(x.textContent) && x.offsetParent !== null);
    if (b) window.__benchAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
};
const SHARED_VISIBLE = () => {
  new MutationObserver((_, o) => {
    if (document.querySelector('[data-testid=shared-view]') && !window.__benchAt) {
      window.__benchAt = performance.now();
      o.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

/** First load in Chromium: every response body at gzip -9 until the network is idle (firstload.mjs's measure). */
async function firstLoadBytes(browser, url, done) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const rows = [];
  // A body that never ends (a held stream) is counted as nothing after 5 s, not waited for.
  const name = (r) => new URL(r.url()).pathname.split('/').pop() || 'index.html';
  page.on('response', (r) =>
    rows.push(
      Promise.race([
        r.body().then(
          (b) => [name(r), gzipSync(b, { level: 9 }).length],
          () => [name(r), 0],
        ),
        new Promise((res) => setTimeout(() => res([`${name(r)} (unfinished)`, 0]), 5000).unref()),
      ]),
    ),
  );
  await page.goto(url);
  await done(page);
  await page.waitForLoadState('networkidle', { timeout: 10000 }).catch(() => null);
  const files = await Promise.all(rows);
  await context.close();
  return files;
}

/** A Quick check on our page: fills the form, touches it (as a user does), clicks; returns what `measure` read. */
async function quickCheck(browser, { endpoint, token, era, measure, atReady = false, conditions = null, until = 'results', devtools = true }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // DevTools' network domain copies every body to this driver and itself adds main-thread work
  // per chunk (30-50 ms on a 4 MiB body, measured): the capped routes' long tasks go without it.
  if (devtools) await throttle(context, page, conditions);
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
    // The longest task that ends after the click (the Quick check's; the click's own task counts) and the longest before it (the page's load).
    window.__longest = (during) => Math.max(0, ...window.__longTasks.filter(([at, d]) => at + d > window.__clickAt === during).map(([, d]) => d));
    document.addEventListener(
      'click',
      (e) => {
        if (e.target.closest?.('[data-testid=quick-check]')) window.__clickAt = performance.now();
      },
      true,
    );
    new MutationObserver(() => {
      const cards = ['A', 'B', 'C', 'D'].filter((p) => document.querySelector(`[data-testid=card-${p}]`));
      if (cards.length === 4 && !window.__lastCardAt) window.__lastCardAt = performance.now();
      if (document.querySelector('[data-testid=consent]') && !window.__consentAt) window.__consentAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(APP);
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'));
  // The first touch loads the app module: let it arrive, as it does while a user types; or click
  // before it is there (atReady: the boot page sends the run's connect requests and hands them over).
  const appStarted = page.evaluate(
    () =>
      new Promise((r) =>
        addEventListener('mcp-triage-module', (e) => {
          if (e.detail.name === 'app') r();
        }),
      ),
  );
  if (atReady)
    await page.route(/mcp-triage-web-[0-9a-f]+\.js$/, async (route) => {
      await page.waitForFunction(() => window.__clickAt);
      await route.continue();
    });
  await page.getByTestId('endpoint').fill(endpoint);
  await page.getByTestId('token').fill(token);
  if (era) {
    // The era is among the optional fields, folded under "More options".
    const more = page.getByTestId('more-options');
    if (!(await more.evaluate((d) => d.open))) await more.locator('summary').click();
    await page.getByTestId('era').selectOption(era);
  }
  if (!atReady) await appStarted;
  await page.getByTestId('quick-check').click();
  await page.getByTestId(until).waitFor({ timeout: 60000 });
  const result = await measure(page);
  await context.close();
  return result;
}

const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT }).toString().trim();
// Its own output does not count as a change to what was measured.
const ownOut = relative(ROOT, OUT);
const outside = ownOut.startsWith('..') || isAbsolute(ownOut);
const dirty = execFileSync('git', ['status', '--porcelain', '--', '.', ...(outside ? [] : [`:(exclude)${ownOut}`])], { cwd: ROOT })
  .toString()
  .trim()
  ? ' (with uncommitted changes)'
  : '';
const machine = `${cpus().length} × ${cpus()[0]?.model?.trim() || 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`;

// Servers: the demo (stateless and stateful), the Python peer, the hostile server, our dist and the
// Inspector's bundle (both served with gzip, no cache).
const origin = APP.replace(/\/$/, '');
const demo = `http://127.0.0.1:${P.demo}/mcp`;
const stateful = `http://127.0.0.1:${P.stateful}/mcp`;
await start('node', ['demo/server.mjs', '--port', String(P.demo), '--origins', origin], 'demo MCP server');
await start('node', ['demo/server.mjs', '--port', String(P.stateful), '--origins', origin, '--stateful'], 'demo MCP server');
await start('node', ['demo/server.mjs', '--port', String(P.unannotated), '--origins', origin, '--stateful', '--unannotated'], 'demo MCP server');
await start(join(ROOT, 'e2e/py/.venv/bin/python'), ['e2e/py/server.py', '--port', String(P.python), '--cors-origin', origin], 'python MCP peer');
await start(
  'node',
  ['e2e/hostile.mjs', '--port', String(P.hostile), '--origin', origin, '--redirect-to', `http://127.0.0.1:${P.hostile + 100}/mcp`],
  'hostile server',
);
await start('node', ['scripts/serve.mjs', '--dir', join(ROOT, 'dist'), '--port', String(P.app), '--gzip', '--demo-endpoint', demo], 'serving');
await start('node', ['scripts/serve.mjs', '--dir', inspectorDist(), '--port', String(P.inspector), '--gzip'], 'serving');
const browser = await chromium.launch(chromiumLaunch);

const LINK = readFileSync(join(ROOT, 'crates/mcp-triage/tests/share-links/v8-replay-py-mcp-2.3.0-intent.link'), 'utf8').trim();
const out = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

// 1. Ready, both pages, both conditions: the samples alternate between the pages within a run.
const ready = {};
for (const [cond, throttled] of CONDITIONS) {
  ready[cond] = { ours: [], inspector: [], share: [] };
  for (let i = 0; i < RUNS; i++) {
    ready[cond].ours.push(await coldLoad(browser, APP, OUR_READY, throttled));
    ready[cond].inspector.push(await coldLoad(browser, `http://127.0.0.1:${P.inspector}/`, INSPECTOR_READY, throttled));
    ready[cond].share.push(await coldLoad(browser, `${APP}#${LINK}`, SHARED_VISIBLE, throttled));
  }
  console.log(cond, JSON.stringify(ready[cond]));
}

// 2. First-load bytes per file.
console.log('first-load bytes');
const pageFiles = await firstLoadBytes(browser, APP, (p) => p.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready')));
const shareFiles = await firstLoadBytes(browser, `${APP}#${LINK}`, (p) => p.getByTestId('shared-view').waitFor());
const inspectorFiles = await firstLoadBytes(browser, `http://127.0.0.1:${P.inspector}/`, (p) =>
  p.waitForFunction(() => [...document.querySelectorAll('button')].some((x) => /add servers?/i.test(x.textContent))),
);

console.log('quick checks');
// 3. A Quick check: the stateful last-card time, the longest main-thread task; a 4 MiB hostile body.
const lastCard = [];
const quickLongest = [];
const loadLongest = [];
for (let i = 0; i < RUNS; i++) {
  const m = await quickCheck(browser, {
    endpoint: stateful,
    token: 'demo-token',
    measure: (p) => p.evaluate(() => ({ last: window.__lastCardAt - window.__clickAt, longest: window.__longest(true), atLoad: window.__longest(false) })),
  });
  lastCard.push(m.last);
  quickLongest.push(m.longest);
  loadLongest.push(m.atLoad);
}
console.log('hostile body');
const lastCardAtReady = [];
for (let i = 0; i < RUNS; i++) {
  lastCardAtReady.push(
    await quickCheck(browser, {
      endpoint: stateful,
      token: 'demo-token',
      atReady: true,
      measure: (p) => p.evaluate(() => window.__lastCardAt - window.__clickAt),
    }),
  );
}
// The click as the first touch (the app module's load held until it), a stateless Quick check on
// the demo, on the two throttled links: the boot page sends the connect requests, the app module
// arrives and takes over.
const firstTouch = {};
for (const [cond, conditions] of CONDITIONS.filter(([, c]) => c)) {
  firstTouch[cond] = [];
  for (let i = 0; i < RUNS; i++) {
    firstTouch[cond].push(
      await quickCheck(browser, {
        endpoint: demo,
        token: 'demo-token',
        atReady: true,
        conditions,
        measure: (p) => p.evaluate(() => window.__lastCardAt - window.__clickAt),
      }),
    );
  }
}
// The consent step on a stateful server with unannotated tools (it keeps its GET stream open).
const consentAt = [];
for (let i = 0; i < RUNS; i++) {
  consentAt.push(
    await quickCheck(browser, {
      endpoint: `http://127.0.0.1:${P.unannotated}/mcp`,
      token: 'demo-token',
      until: 'consent',
      measure: (p) => p.evaluate(() => window.__consentAt - window.__clickAt),
    }),
  );
}
const hostileLongest = await quickCheck(browser, {
  endpoint: `http://127.0.0.1:${P.hostile}/big/mcp`,
  token: 'x-token-1234',
  measure: (p) => p.evaluate(() => window.__longest(true)),
});
// Issue 74's capped routes: the longest task of a Quick check whose answers hit the caps (a 4 MiB
// 500, a gzip bomb, 600k zero-width characters, every answer just under the 4 MiB cap).
// Three runs each: one run's longest task moves with whatever else the machine does.
const cappedLongest = [];
for (const route of ['big', 'gzip-bomb', 'controls', 'fat']) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    runs.push(
      await quickCheck(browser, {
        endpoint: `http://127.0.0.1:${P.hostile}/${route}/mcp`,
        token: 'x-token-0123456789',
        measure: (p) => p.evaluate(() => window.__longest(true)),
        devtools: false,
      }),
    );
  }
  cappedLongest.push([route, runs]);
}

console.log('waves');
// 4. Request waves per era, 50 ms added per request by a delaying proxy.
const waves = [];
for (const [label, target, era, limit] of [
  ['legacy (2025-11-25), stateless: TypeScript demo', demo, '2025-11-25', 3],
  ['legacy (2025-11-25), stateful: TypeScript demo --stateful', stateful, '2025-11-25', 4],
  ['2026-07-28: Python mcp peer', `http://127.0.0.1:${P.python}/mcp`, '2026-07-28', 2],
]) {
  const proxy = await delayingProxy(P.proxy + waves.length, target);
  const m = await quickCheck(browser, {
    endpoint: proxy.url,
    token: target === demo || target === stateful ? 'demo-token' : '',
    era,
    measure: (p) =>
      p.evaluate(() => ({ wall: performance.now() - window.__clickAt, summary: document.querySelector('[data-testid=results]')?.textContent || '' })),
  });
  proxy.server.close();
  const rounds = (m.summary.match(/(\d+) sequential rounds?/) || [])[1];
  waves.push({ label, limit, rounds: rounds ? Number(rounds) : null, wall: m.wall, requests: proxy.stats.requests, preflights: proxy.stats.preflights });
}
await browser.close();

console.log('throughput');
// 5. Classifier throughput: native (the cargo bench) and wasm (the same loop in headless Chromium).
const native = execFileSync('cargo', ['bench', '-q', '-p', 'mcp-triage', '--bench', 'classify'], { cwd: ROOT }).toString();
let wasm = '';
try {
  wasm = execFileSync(
    'cargo',
    ['test', '--release', '-p', 'mcp-triage-web', '--target', 'wasm32-unknown-unknown', '--test', 'throughput', '--', '--nocapture'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  ).toString();
} catch (e) {
  wasm = `(not measured: ${String(e.stderr || e).split('\n')[0]})`;
}
// The packages, each through its own JSON boundary: npm (after its build) and Python (its wheel
// built from the sdist and installed into a fresh virtualenv by packages/python/test.sh --bench).
const packageBench = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString()
      .split('\n')
      .filter((l) => /^(npm|python) package: /.test(l))
      .join('\n');
  } catch (e) {
    return `(not measured: ${String(e.stderr || e).split('\n')[0]})`;
  }
};
const npmBench = packageBench('node', ['packages/npm/bench.mjs']);
const pyBench = packageBench('bash', ['packages/python/test.sh', '--bench']);
// 6. The census at scale: the release command over 1,000 and 10,000 synthetic targets.
let censusBench = '';
try {
  execFileSync('cargo', ['build', '-q', '--release', '-p', 'mcp-triage-cli'], { cwd: ROOT, stdio: 'ignore' });
  censusBench = execFileSync('node', ['scripts/census-bench.mjs'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();
} catch (e) {
  censusBench = `(not measured: ${String(e.stderr || e).split('\n')[0]})`;
}

// 7. What is in the app module, and the floor of a module for a Quick check alone.
let appModule = '';
try {
  appModule = execFileSync('node', ['scripts/app-module-table.mjs', '--floor'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();
} catch (e) {
  appModule = `(not measured: ${String(e.stderr || e).split('\n')[0]}; it needs twiggy: cargo install --locked twiggy)`;
}

const CENSUS_TEXT =
  "The release command (`node scripts/census-bench.mjs`) over 1,000 and 10,000 targets of `e2e/census-faults.mjs`'s synthetic `/fast` server spread over 64 ports (64 hosts), `--host-delay-ms 0`, the default concurrency of 16; wall time, and the peak resident memory by GNU time. Each target sends about five requests (initialize, the initialized notification, tools/list, probe A, the GET check). Lines are written as targets end and never kept; what stays in memory is the list itself (each target's key, endpoint and sources) and the politeness state per host, so memory grows with the list by about 2 KB a target and time linearly.";
const READY_FLOOR_TEXT =
  "**What 4× at 20 Mbps would take.** A visit's critical path is the HTML (a round trip), the loader (the browser's commit of the navigation and the head: 25–30 ms here for any page), the boot module's wasm (another round trip, then its bytes: at 20 Mbps the page's first load alone is about 50 ms of transfer), its compile, instantiation and the form's mount, and a frame. Only the last three shrink with the boot module, and in it Leptos (its renderer, `tachys`, and `reactive_graph`) is about a third (`node scripts/app-module-table.mjs --bin mcp-triage-boot`: ≈ 31 of its 112 KiB at gzip -9, more with the generic code it instantiates). A boot page without Leptos (plain `web-sys`, the same form markup and behaviour), which the issue allows, would take out an estimated 30–40 KiB (≈ 15 ms at 20 Mbps) and part of the mount: about the gap left on a quiet run, not a margin. Not done in this issue; the numbers above are where it would start.";
const APP_MODULE_TEXT = [
  "**Where the floor is, and which cut pays.** wasm-bindgen does not split a module: every module of ours repeats the Leptos runtime, the glue, std (allocator, formatting) and serde (the line under the table), and a module loaded after another needs the page's state handed over. So a cut pays where what it moves out is large and its hand-off is cheap.",
  '',
  "- *The features a Quick check never runs* (the second table): the `quick-floor` build above leaves them out, and with them the generic code only they instantiate. That is the cut that pays: what a first-touch Quick check downloads would shrink by that difference (at 1.6 Mbps, 100 KiB is about half a second). It is not taken yet: each of those features starts from a finished live run (the exports and the comparison from its report, the sign-in from the OAuth doctor's machine, Review first from the engine before it sends), so moving them out means handing a live run to a second module on their first click: the engine and the doctor serialised whole by the core, and the secrets, which the page holds only in memory, passed across without touching a URL or storage. That is a piece of work of its own, and the next one for this target.",
  "- *The view code*: Leptos renders through types generic over each view's element tree, so every `view!` instantiates its own build and update code (`tachys` and `reactive_graph`, the largest groups; `core` holds much of the rest: iterator and formatting code instantiated for our types). The cards and the share view already go through one renderer of a plain markup tree (`web/src/components/markup.rs`) for this reason; the floor below the `quick-floor` figure is the form, the progress list and the results drawn the same way.",
  '- *Panic and formatting machinery*: the same app built on nightly Rust with `-Cpanic=immediate-abort` and `-Zbuild-std` measured 458,730 bytes at gzip -9 (2026-12-06, against 502,603 on stable: −8.7 %). Not taken: the workspace builds on stable 1.95 (TOOLCHAIN.md), and a nightly compiler for the shipped bundle is a risk for every verdict for 44 KB.',
  '- *wasm-opt*: `-Oz` with `--converge`, `--gufa` or a second `-Oz` gives back 0.1 % at most; nothing to take.',
  '',
  'So the 200 KiB target is not met: on this architecture the module for a Quick check alone is the `quick-floor` figure above, and 200 KiB needs both the split and the views as markup trees. The visit and the share link, the two first loads, did not grow.',
].join('\n');
const table = (rows) => rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
say('# Performance');
say();
say(
  `Written by \`node scripts/bench.mjs\` (runs: ${RUNS}) on ${new Date().toISOString().slice(0, 10)}, commit \`${commit}\`${dirty}, on ${machine}. Figures, not tests: nothing fails on them. Headless Chromium (Debian's), pages served from loopback with gzip -9 and no cache; every load is cold (a fresh browser context, cache disabled). Throttled: Chromium's network emulation at 20 Mbps both ways and 40 ms round trip, and at 1.6 Mbps both ways and 150 ms round trip (a slow mobile link).`,
);
say();
say('## Ready');
say();
say(
  'Ready is `performance.now()` at the first animation frame where the page is usable, checked the same way for both: for MCP Triage `<html>` has `data-app-ready` (the boot page\'s form is wired: typing works, and Quick check sends its first requests at once, without waiting for the app module) and the Quick check button is visible; for the MCP Inspector 2.12.0 web bundle (`npm pack`, `clients/web/dist`, served alone as the issue defines it: its requests to its own backend, `config`, `client` and `events`, get no answer) its "Add Servers" button is visible. A share link is ready when its results are on screen.',
);
say();
const rows = [['condition', 'page', 'median ms', 'samples ms']];
for (const [cond, r] of Object.entries(ready)) {
  rows.push([cond, 'MCP Triage', ms(median(r.ours)), r.ours.map(ms).join(', ')]);
  rows.push([cond, 'MCP Inspector 2.12.0', ms(median(r.inspector)), r.inspector.map(ms).join(', ')]);
  rows.push([cond, 'MCP Triage, a share link (results on screen)', ms(median(r.share)), r.share.map(ms).join(', ')]);
}
say(table([rows[0], rows[0].map(() => '---'), ...rows.slice(1)]));
say();
for (const [cond, , bar] of CONDITIONS) {
  const r = ready[cond];
  say(
    `- ${cond}: the Inspector's median over ours: **${(median(r.inspector) / median(r.ours)).toFixed(1)}×** (${bar ? `target ≥ 4×; ours ≤ ${bar} ms` : 'reported, no target'}).`,
  );
}
say();
say('### Where the time goes');
say();
say(
  "MCP Triage's loads above, step by step (median ms since navigation over the same samples): the HTML's last byte; the loader script runs (the browser has committed the navigation to a new renderer process and parsed the head, the same for any page); the boot module's wasm is asked for and its last byte is in (its JS glue and the stylesheet share the link); the glue has run; the wasm is compiled (streamed while it downloads) and instantiated and its main has mounted the form and set `data-app-ready`; ready, the first frame that shows the form (style and layout).",
);
say();
const steps = [
  ['html', 'HTML in'],
  ['loader', 'loader runs'],
  ['wasmAsked', 'wasm asked'],
  ['wasmIn', 'wasm in'],
  ['glue', 'glue ran'],
  ['started', 'form mounted'],
  ['at', 'ready'],
];
const stepRows = [['condition', ...steps.map(([, l]) => l)]];
for (const [cond, throttled] of CONDITIONS) {
  const ours = phases.filter((x) => x.url === APP && x.throttled === throttled);
  stepRows.push([
    cond,
    ...steps.map(([k]) => {
      const xs = ours.map((x) => x[k]).filter((v) => typeof v === 'number');
      return xs.length ? ms(median(xs)) : '?';
    }),
  ]);
}
say(table([stepRows[0], stepRows[0].map(() => '---'), ...stepRows.slice(1)]));
say();
const pageKiB = (pageFiles.reduce((a, [, b]) => a + b, 0) / 1024).toFixed(1);
for (const [cond, throttled] of CONDITIONS) {
  const ours = phases.filter(
    (x) => x.url === APP && x.throttled === throttled && [x.loader, x.wasmAsked, x.wasmIn, x.glue, x.started].every((v) => typeof v === 'number'),
  );
  if (!ours.length) continue;
  const m = (f) => ms(median(ours.map(f)));
  const target = median(ready[cond].inspector) / 4;
  const gap = median(ready[cond].ours) - target;
  say(
    `- ${cond}, per load (medians): ${m((x) => x.loader)} ms before the loader runs; ${m((x) => x.wasmIn - x.wasmAsked)} ms from asking for the wasm to its last byte (the page's first load is ${pageKiB} KiB at gzip -9); ${m((x) => x.started - Math.max(x.wasmIn, x.glue))} ms from there to the mounted form; ${m((x) => x.at - x.started)} ms to the first frame that shows it. 4× sooner than the Inspector's median means ready by ${ms(target)} ms: ${gap > 0 ? `${ms(gap)} ms short of it` : 'met'}.`,
  );
}
say();
say(READY_FLOOR_TEXT);
say();
say('## First load');
say();
say(
  'Every response body at gzip -9 from navigation until the network is idle, with no input (what `e2e/tests/firstload.mjs` gates; `docs/first-load.tsv` is its committed table).',
);
say();
const fileRows = [['load', 'file', 'gzip -9 bytes']];
for (const [load, files] of [
  ['the page', pageFiles],
  ['a share link', shareFiles],
  ['MCP Inspector 2.12.0', inspectorFiles],
]) {
  for (const [f, b] of files.sort()) fileRows.push([load, f.replace(/-[0-9a-zA-Z_]{8,16}(?=[._])/, ''), String(b)]);
  fileRows.push([load, '**total**', `**${files.reduce((a, [, b]) => a + b, 0)}** (${(files.reduce((a, [, b]) => a + b, 0) / 1024).toFixed(1)} KiB)`]);
}
say(table([fileRows[0], fileRows[0].map(() => '---'), ...fileRows.slice(1)]));
say();
say('## A run');
say();
say(
  `- Stateful Quick check (TypeScript demo \`--stateful\`, loopback, the app module loaded by the first touch as while a user types): the four probe cards are all on screen ${ms(median(lastCard))} ms after the click (median; samples ${lastCard.map(ms).join(', ')} ms; target ≤ 500 ms), while the GET check still waits up to the core's first-event window for its stream.`,
);
say(
  `- The same run clicked before the app module is there (its load held until the click, so the boot page sends the run's connect requests and hands them over): ${ms(median(lastCardAtReady))} ms (median; samples ${lastCardAtReady.map(ms).join(', ')} ms).`,
);
for (const [cond, xs] of Object.entries(firstTouch))
  say(
    `- Stateless Quick check (TypeScript demo) clicked as the first touch, the app module not yet loaded, at ${cond}: the four probe cards are on screen ${ms(median(xs))} ms after the click (median; samples ${xs.map(ms).join(', ')} ms${cond.startsWith('20 ') ? '; target ≤ 600 ms' : ''}). The MCP Inspector's time to its first tool result cannot be measured the same way: served alone, as above, it has no backend (its proxy is what calls a server), so it never gets one.`,
  );
say(
  `- Consent step on a stateful server with unannotated tools (TypeScript demo \`--stateful --unannotated\`, loopback; it keeps its GET stream open): the step is on screen ${ms(median(consentAt))} ms after the click (median; samples ${consentAt.map(ms).join(', ')} ms; target ≤ 500 ms); it is asked once probe A and \`tools/list\` are in, while the GET check still waits for its stream.`,
);
say(
  `- Longest main-thread task during a Quick check (from the click's own task to the results): ${ms(Math.max(...quickLongest))} ms (over ${RUNS} runs; per run ${quickLongest.map(ms).join(', ')}; 0 means none over 50 ms; target ≤ 50 ms). During a run whose probe C answers a ~4 MiB hostile body: ${ms(hostileLongest)} ms. Per capped route, the longest of three runs and each run, with no DevTools network domain attached (target ≤ 200 ms): ${cappedLongest.map(([r, v]) => `/${r} ${ms(Math.max(...v))} ms (${v.map(ms).join(', ')})`).join(', ')}. Before the click, while the page loads (the boot module compiled, instantiated and the form mounted in one task; the app module at the first touch): ${ms(Math.max(...loadLongest))} ms (per run ${loadLongest.map(ms).join(', ')}).`,
);
say();
say(
  "Request waves per era (the rounds the results count up to the last probe answer), each request held 50 ms by a delaying proxy of ours (a wave costs one delay however many requests it holds); wall time from the click to the results (it includes the GET check's first-event window where the server opens a stream), and the requests and preflights the proxy saw.",
);
say();
say(
  table([
    ['era and server', 'waves (limit)', 'wall ms', 'requests', 'preflights'],
    ['---', '---', '---', '---', '---'],
    ...waves.map((w) => [w.label, `${w.rounds ?? '?'} (≤ ${w.limit})`, ms(w.wall), String(w.requests), String(w.preflights)]),
  ]),
);
say();
say('## The app module');
say();
say('What a click that needs the tool loads after the boot page (`node scripts/app-module-table.mjs --floor`, on the release build this benchmark ran):');
say();
say(appModule);
say();
say(APP_MODULE_TEXT);
say();
say('## Classifier throughput');
say();
say('Native (`cargo bench -p mcp-triage --bench classify`, release):');
say();
say('```');
say(native.trim());
say('```');
say();
say(
  'In wasm (headless Chromium, release; `cargo test --release -p mcp-triage-web --target wasm32-unknown-unknown --test throughput`, over the embedded public captures):',
);
say();
say('```');
say((wasm.match(/classify throughput in wasm[^\n]*/g) || [wasm.trim().split('\n').slice(-3).join('\n')]).join('\n'));
say('```');
say();
say(
  "The npm package (`node packages/npm/bench.mjs`, after `node packages/npm/build.mjs`; each verdict goes through the package's JSON boundary: the exchange's text in, the whole `mcp-triage-verdict/1` with its advice out):",
);
say();
say('```');
say(npmBench);
say('```');
say();
say(
  'The Python package (`bash packages/python/test.sh --bench`: the abi3 wheel built from the sdist, release, installed into a fresh virtualenv; each verdict goes through the same JSON boundary and then into the frozen `Verdict` with its `StrEnum`s):',
);
say();
say('```');
say(pyBench);
say('```');
say();
say(
  "Next to native (the classifier alone, above), each package gives a fraction: the rest is JSON text both ways and the verdict's advice, which an agent's one call per failure never notices.",
);
say();
say('## Census');
say();
say(CENSUS_TEXT);
say();
say('```');
say(censusBench);
say('```');
say();
say('## Measured elsewhere');
say();
say(
  '- The test command (`./x test`) prints the size report (`target/size-report.txt`: each way in, gated by `scripts/size-budget.json`), the first-load table (`target/test-logs/first-load.tsv`, compared with `docs/first-load.tsv`), the hostile-body and memory figures of `e2e/tests/bounds.mjs` (`e2e/artifacts/perf.json`, `e2e/artifacts/memory.json`) and its own stage times.',
);
say('- The share-link decoder fuzzer: `cargo run --release -p mcp-triage --example fuzz_share -- 10000000` (a 6,000-input run is part of the test command).');
writeFileSync(OUT, `${out.join('\n')}\n`);
console.log(`wrote ${OUT}`);
process.exit(0);
