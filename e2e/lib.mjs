// Shared helpers for the browser tests: start real servers on ports the OS hands out, watch every
// page for browser problems, wait on the order of events. The fixtures that use them (the worker's
// app and browser, the guard) are in fixtures.mjs; the runner is Playwright's (playwright.config.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');
/**
 * Where the screenshots the docs show go: docs/ only when `./x screenshots` asks
 * (MCP_TRIAGE_SCREENSHOTS=1), else the untracked artifacts folder, so a test run writes no tracked file.
 */
export const SHOTS = process.env.MCP_TRIAGE_SCREENSHOTS ? join(ROOT, 'docs') : ARTIFACTS;
mkdirSync(ARTIFACTS, { recursive: true });

/** A listening socket on `port` on every interface (port 0: one the OS hands out). */
function listenOn(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
const close = (server) => new Promise((r) => server.close(r));

/**
 * A free port from the OS, released for the server that is started on it next; with `pair`, a port
 * whose next port is free too (for the servers that listen on PORT and PORT + 1).
 */
export async function freePort({ pair = false } = {}) {
  for (;;) {
    const first = await listenOn(0);
    const port = first.address().port;
    const next = pair ? await listenOn(port + 1).catch(() => null) : null;
    await close(first);
    if (next) await close(next);
    if (!pair || next) return port;
  }
}

/**
 * Starts a server on a free port: `start(port)` resolves once it listens. Between the OS handing the
 * port out and the server taking it, another program may take it: then it starts again on another.
 */
export async function onFreePort(start, { pair = false } = {}) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort({ pair });
    try {
      return await start(port);
    } catch (e) {
      if (attempt >= 5 || !/EADDRINUSE|address already in use|is in use/i.test(e.message)) throw e;
    }
  }
}

/**
 * Starts `node ARGS --port P` on a free port P whose next port is free too (the OAuth peers put
 * their authorization server there, the auth hostile server its "elsewhere"); resolves with P.
 * Start these one after the other: the next port is free only until its server takes it.
 */
export function startOnPair(args, ready) {
  return onFreePort(
    async (port) => {
      await startProcess('node', [...args, '--port', String(port)], { ready });
      return port;
    },
    { pair: true },
  );
}

/**
 * The servers started for the current test file (stopped after its last test, `stopServers`), and
 * those of the worker (the app and the demo server, `{ worker: true }`, stopped with the worker).
 */
const children = [];
const workerChildren = [];
export function startProcess(cmd, args, { ready, env, cwd, worker = false } = {}) {
  const child = spawn(cmd, args, { cwd: cwd || ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  (worker ? workerChildren : children).push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} ${args.join(' ')} not ready:\n${output}`)), 20000);
    const onData = (d) => {
      output += d.toString();
      if (!ready || output.includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited ${code}:\n${output}`));
    });
  });
}
/** Stops `list`'s servers and waits until each has exited (killed if it is still there after 5 s). */
async function stop(list) {
  const running = list.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    running.map(
      (c) =>
        new Promise((resolve) => {
          const kill = setTimeout(() => c.kill('SIGKILL'), 5000);
          c.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          try {
            c.kill('SIGTERM');
          } catch {
            clearTimeout(kill);
            resolve();
          }
        }),
    ),
  );
}
/** Stops every server the current test file started (its `test.afterAll`). */
export const stopServers = () => stop(children);
/** Stops the worker's own servers (the app fixture's teardown). */
export const stopWorkerServers = () => stop(workerChildren);
process.on('exit', () => {
  for (const c of [...children, ...workerChildren]) {
    try {
      c.kill('SIGTERM');
    } catch {
      /* gone */
    }
  }
});

/** Runs the native binary (built by the test command's native stage; cargo brings it up to date). */
export function cli(args, env = {}) {
  try {
    return execFileSync('cargo', ['run', '-q', '-p', 'mcp-triage-cli', '--bin', 'mcp-triage', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, MCP_TRIAGE_PAGE: '', ...env },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    // A run that ends with a finding (exit 4, 5) still printed its report.
    if (typeof e.stdout === 'string' && e.stdout.length > 0) return e.stdout;
    throw new Error(`mcp-triage ${args.join(' ')}: ${e.stderr || e.message}`);
  }
}

/** Copies dist/ to a private folder (one per worker) with a demo.json pointing at `demoEndpoint` (or none). */
export function stageDist(name, demoEndpoint, from = join(ROOT, 'dist')) {
  const dir = join(ROOT, 'target', 'e2e-dist', `${name}-${process.env.TEST_PARALLEL_INDEX ?? 0}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, { recursive: true });
  rmSync(join(dir, 'demo.json'), { force: true });
  if (demoEndpoint) {
    writeFileSync(join(dir, 'demo.json'), JSON.stringify({ endpoint: demoEndpoint, token_hint: 'demo-token', server: 'TypeScript SDK 1.29.0 McpServer' }));
  }
  return dir;
}

/** Serves `dir` (scripts/serve.mjs) on a free port, or on `port`; resolves with its URL. */
export async function serveDist(dir, extra = [], { port, worker } = {}) {
  const start = async (p) => {
    await startProcess('node', ['scripts/serve.mjs', '--dir', dir, '--port', String(p), ...extra], { ready: 'serving', worker });
    return `http://127.0.0.1:${p}/`;
  };
  return port ? start(port) : onFreePort(start);
}

/** The Python `mcp` peer (e2e/py/server.py) on a free port, or on `port`; resolves with its endpoint. */
export function startPython(corsOrigin, extra = [], { port } = {}) {
  const start = async (p) => {
    await startProcess(join(ROOT, 'e2e/py/.venv/bin/python'), ['e2e/py/server.py', '--port', String(p), '--cors-origin', corsOrigin, ...extra], {
      ready: 'python MCP peer',
    });
    return `http://127.0.0.1:${p}/mcp`;
  };
  return port ? start(port) : onFreePort(start);
}

/** Fills the form and runs Quick check (or Review first); waits for results (or the plan). */
/**
 * Fills a field and checks it holds exactly `value`, filling again when it does not: the page
 * prefills the endpoint from demo.json when it arrives, and a prefill that lands inside a fill
 * (after its select-all, before its text) leaves both in the field. The prefill happens once and
 * only into an empty field, so the second fill's value stays.
 */
export async function fillExactly(page, testid, value) {
  const field = page.getByTestId(testid);
  for (let attempt = 0; attempt < 3; attempt++) {
    await field.fill(value);
    if ((await field.inputValue()) === value) return;
  }
  throw new Error(`${testid} does not hold ${JSON.stringify(value)}: ${JSON.stringify(await field.inputValue())}`);
}

/** Unfolds the form's optional fields (extra headers, era, time limit), as a user would to set them. */
export async function moreOptions(page) {
  const more = page.getByTestId('more-options');
  if (!(await more.evaluate((d) => d.open))) await more.locator('summary').click();
}

/** Opens every card of the results, as a reader would to read them (they open closed). */
export async function openCards(page) {
  await page.getByTestId('open-cards').first().waitFor();
  if ((await page.locator('details.card:not([open])').count()) === 0) return;
  const toggle = page.getByTestId('open-cards').first();
  if ((await toggle.innerText()).startsWith('Close')) await toggle.click();
  await toggle.click();
}

/** Runs Quick check (or Review first); the results' cards are opened unless `closed`. */
export async function runQuick(page, { endpoint, token, era, review, closed } = {}) {
  if (endpoint !== undefined) await fillExactly(page, 'endpoint', endpoint);
  if (token !== undefined) await fillExactly(page, 'token', token);
  if (era) {
    await moreOptions(page);
    await page.getByTestId('era').selectOption(era);
  }
  await page.getByTestId(review ? 'review-first' : 'quick-check').click();
  if (review) await page.getByTestId('plan').waitFor({ timeout: 30000 });
  else {
    await page.getByTestId('results').waitFor({ timeout: 45000 });
    if (!closed) await openCards(page);
  }
}

/** Channel and cause shown on a card. */
/** A card's channel and cause, by the identifiers behind the words shown (`data-id`). */
export async function cardOutcome(page, id) {
  const card = page.getByTestId(id);
  return [await card.getByTestId('channel').first().getAttribute('data-id'), await card.getByTestId('cause').first().getAttribute('data-id')];
}

/** The demo MCP server (demo/server.mjs) for the page's origins on a free port, or on `port`; resolves with its endpoint. */
export function startDemo(appOrigins, extra = [], { port, worker } = {}) {
  const start = async (p) => {
    await startProcess('node', ['demo/server.mjs', '--port', String(p), '--origins', appOrigins.join(','), ...extra], { ready: 'demo MCP server', worker });
    return `http://127.0.0.1:${p}/mcp`;
  };
  return port ? start(port) : onFreePort(start);
}

/**
 * Watches every context made from `browser` (the worker's, fixtures.mjs): console errors, uncaught
 * page errors (a wasm trap is one: `RuntimeError: unreachable`) and CSP violations of every page go to
 * the running test's problem list, and the guard fails the test on any problem it did not declare.
 */
export function watchBrowser(browser) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchContext(context);
    return context;
  };
  return browser;
}

/** The problems seen while the current test runs (the guard gives each test a list of its own). */
let problems = [];
let problemWaiters = [];
function report(text) {
  problems.push(text);
  for (const w of problemWaiters) w(text);
  problemWaiters = [];
}
/**
 * Resolves with the next problem any watched page reports (for the guard's own control test), or
 * with null if none comes within `hangMs` (only a bound on a hang: the normal path is the event).
 */
export const nextProblem = (hangMs = 10000) =>
  new Promise((r) => {
    problemWaiters.push(r);
    setTimeout(() => r(null), hangMs).unref();
  });

async function watchContext(context) {
  context.on('console', (m) => {
    if (m.type() === 'error') report(`console: ${m.text()} ${m.location()?.url || ''}`.trimEnd());
  });
  context.on('weberror', (e) => report(`pageerror: ${e.error()?.message ?? e.error()}`));
  // CSP violations reach Node as they happen (a binding is not subject to the page's CSP).
  await context.exposeBinding('__e2eCspViolation', (_source, text) => report(`csp: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      // eslint-disable-next-line no-undef
      window.__e2eCspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
}

/**
 * Notes in the page (window.__order) the order in which moments first hold, checked on every change
 * of the DOM: 'GET check over' (the GET check's progress row is past sending and waiting for its
 * stream), then each [name, selectors] of `moments` once all its selectors match. The GET check
 * is looked at first: when it ends in the same batch of changes as another moment, it came first.
 */
export async function watchOrder(page, moments) {
  await page.evaluate((moments) => {
    window.__order = [];
    const note = (e) => {
      if (!window.__order.includes(e)) window.__order.push(e);
    };
    new MutationObserver(() => {
      const get = [...document.querySelectorAll('[data-testid=step]')].find((li) => li.textContent.includes('check: GET'));
      if (get && !get.textContent.includes('waiting for the stream') && !get.textContent.includes('sending')) note('GET check over');
      for (const [name, selectors] of moments) if (selectors.every((s) => document.querySelector(s))) note(name);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, moments);
}

/** A page in `context` (every page of a launched browser is watched; this name is kept for clarity). */
export async function watchedPage(context) {
  return context.newPage();
}

/**
 * Problems a test provokes on purpose, declared one by one (never ignored wholesale). Each is a
 * RegExp over the problem line, made by these helpers from the exact status and URL.
 */
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const expected = {
  /** Chromium's log line for an HTTP error status the test provoked, at exactly this URL. */
  status: (code, url) => new RegExp(`^console: Failed to load resource: the server responded with a status of ${code} \\([^)]*\\) ${escapeRegExp(url)}$`),
  /** Chromium's log lines for a request blocked by CORS, to exactly this URL. */
  cors: (url) =>
    new RegExp(
      `^console: (Access to fetch at '${escapeRegExp(url)}'.* has been blocked by CORS policy.*|Failed to load resource: net::ERR_FAILED ${escapeRegExp(url)})$`,
    ),
  /** The 401 of the no-token check (a Quick check always makes it), at exactly this endpoint. */
  noToken: (endpoint) => expected.status(401, endpoint),
  /** The 405 of the GET check where a server refuses GET, at exactly this endpoint. */
  get405: (endpoint) => expected.status(405, endpoint),
  /** A request the browser could not complete at all (connection refused), to exactly this URL. */
  failed: (url, reason = 'ERR_[A-Z_]+') => new RegExp(`^console: Failed to load resource: net::${reason} ${escapeRegExp(url)}$`),
};

/**
 * The worker's app and browser, set by the app fixture (fixtures.mjs) before any hook or test of the
 * worker runs: `browser`, `appUrl` and `appOrigin` (the built app, its demo.json naming the demo
 * server), `demoEndpoint` (the demo MCP server, TS SDK 1.29.0, with --stats) and `plainUrl` (the
 * same build with no demo.json and no security headers, as a bare static host serves it).
 */
export const shared = {};

/** A real WebAssembly module whose export `f` traps (`unreachable`), as a Rust panic does. */
export const WASM_TRAP = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, 0x0a,
  0x05, 0x01, 0x03, 0x00, 0x00, 0x0b,
];

/**
 * The hostile server (behaviour no SDK produces: echoes the token, redirects, serves markup) on a free
 * port, for the page at `origin`, with its redirect target (which counts and logs what reaches it) on
 * another; each test file that needs it starts its own. Resolves with both ports.
 */
export async function startHostile(origin, extra = []) {
  const targetPort = await freePort();
  const port = await onFreePort(async (p) => {
    await startProcess('node', ['e2e/hostile.mjs', '--port', String(p), '--origin', origin, '--redirect-to', `http://127.0.0.1:${targetPort}/mcp`, ...extra], {
      ready: 'hostile server',
    });
    return p;
  });
  return { port, targetPort };
}

/** Adds figures to e2e/artifacts/perf.json, keeping what other test files wrote there. */
export function mergePerf(figures) {
  const file = join(ARTIFACTS, 'perf.json');
  const all = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...all, ...figures }, null, 1));
}

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The token sentinel of this run: random, so no fixed string can make the leak checks pass. */
export const SENTINEL = `mcptriageSENTINEL_${Array.from({ length: 32 }, () => letters[Math.floor(Math.random() * 52)]).join('')}`;

/** Every form of the secret a leak check looks for (8-char substrings of the random part, encodings). */
export function leakForms(secret) {
  const forms = new Set();
  const random = secret.slice('mcptriageSENTINEL_'.length);
  for (let i = 0; i + 8 <= random.length; i++) forms.add(random.slice(i, i + 8));
  for (const pad of ['', 'x', 'xy']) {
    const b64 = Buffer.from(pad + secret).toString('base64');
    const skip = Math.ceil((pad.length * 4) / 3);
    forms.add(b64.slice(skip, skip + 16));
    forms.add(
      b64
        .slice(skip, skip + 16)
        .replace(/\+/g, '-')
        .replace(/\//g, '_'),
    );
  }
  forms.add(encodeURIComponent(secret));
  forms.add(Buffer.from(secret).toString('hex').slice(0, 24));
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms];
}

/** The leak forms of `secret` found in `text`. */
export function leaks(text, secret = SENTINEL) {
  return leakForms(secret).filter((f) => text.includes(f));
}
/**
 * Runs `fn` with a problem list of its own and resolves with the problems seen meanwhile (the list
 * of whatever ran before is restored after: a test may run a test, as the guard's own control does).
 */
export async function collectProblems(fn) {
  const outer = problems;
  problems = [];
  try {
    await fn();
    return problems;
  } finally {
    problems = outer;
  }
}

/** The guard's verdict on `seen`: null, or the failure for the problems `allow` does not declare. */
export function undeclared(seen, allow) {
  const unexpected = seen.filter((p) => !allow.some((re) => re.test(p)));
  return unexpected.length ? `undeclared browser problems (${unexpected.length}):\n  ${unexpected.join('\n  ')}` : null;
}

/**
 * Runs one test body under the guard and returns its outcome: `null` when it passed, or the failure
 * text (what the guard fixture does around every test; the guard's control test calls it directly).
 */
export async function runOne(t) {
  let failure = null;
  const seen = await collectProblems(async () => {
    try {
      await t.fn();
    } catch (e) {
      failure = e?.stack ? e.stack : String(e);
    }
  });
  return failure ?? undeclared(seen, t.allow);
}

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}
export function eq(a, b, msg) {
  if (a !== b) throw new Error(`${msg}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`);
}
