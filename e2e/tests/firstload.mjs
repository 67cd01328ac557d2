// First load, as "A small page" defines it: every byte transferred (each response body at gzip -9) from
// navigation until the network is idle, with no user input: the page alone, and the page opening a
// share link. The test writes its table (target/test-logs/first-load.tsv), compares it with the
// committed one (docs/first-load.tsv: the same files, none more than 1 % or 256 bytes bigger) and
// holds each total to its bar (scripts/size-budget.json: first_load_page_bytes and
// first_load_share_bytes, plus its headroom). After a change that moves the bytes on purpose: FIRST_LOAD_WRITE=1 npx playwright test firstload, and commit the table.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from '../fixtures.mjs';
import { ROOT, assert, expected, shared } from '../lib.mjs';
import { bars } from '../../scripts/size-budget.mjs';

const TABLE = join(ROOT, 'docs/first-load.tsv');
const OUT = join(ROOT, 'target/test-logs/first-load.tsv');
const budgets = bars(join(ROOT, 'scripts/size-budget.json'));
const budgetOf = { page: budgets.first_load_page_bytes, 'share-link': budgets.first_load_share_bytes };
// A v8 link from a replay of Python mcp captures (committed with the core's old-link tests).
const LINK = readFileSync(join(ROOT, 'crates/mcp-triage/tests/share-links/v8-replay-py-mcp-2.3.0-intent.link'), 'utf8').trim();
const measured = {};

/** The file's name without Trunk's content hash, so the table survives a rebuild. */
// Trunk's hash is a u64 in hex without leading zeros: 1 to 16 digits.
const stable = (url) =>
  new URL(url).pathname
    .split('/')
    .pop()
    .replace(/-[0-9a-f]{1,16}(?=[._])/, '') || 'index.html';

/**
 * The bytes of one first load. `ready` waits for the page's last fetch of its own (events, not a
 * clock): the network is then idle for good, unless something loads later than it should, which the
 * comparison with the committed table then shows.
 */
async function firstLoad(url, ready) {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  const pending = [];
  page.on('response', (r) =>
    pending.push(
      r.body().then(
        (b) => [stable(r.url()), gzipSync(b, { level: 9 }).length],
        () => [stable(r.url()), 0],
      ),
    ),
  );
  const done = ready(page);
  await page.goto(url);
  await done;
  await page.waitForLoadState('networkidle');
  const rows = await Promise.all(pending);
  await context.close();
  const files = {};
  for (const [name, bytes] of rows) files[name] = (files[name] || 0) + bytes;
  return files;
}

function committed() {
  const want = {};
  for (const line of readFileSync(TABLE, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [load, file, bytes] = line.split('\t');
    want[load] ??= {};
    want[load][file] = Number(bytes);
  }
  return want;
}

function check(load, files) {
  const budget = budgetOf[load];
  assert(Number.isInteger(budget) && budget > 0, `scripts/size-budget.json has no budget for ${load}`);
  measured[load] = files;
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  const lines = Object.entries(files)
    .sort()
    .map(([f, b]) => `${load}\t${f}\t${b}`);
  mkdirSync(join(ROOT, 'target/test-logs'), { recursive: true });
  if (Object.keys(measured).length === 2) {
    const all = Object.entries(measured).flatMap(([l, fs]) =>
      Object.entries(fs)
        .sort()
        .map(([f, b]) => `${l}\t${f}\t${b}`),
    );
    const text = `# load\tfile\tgzip -9 bytes (written by e2e/tests/firstload.mjs)\n${all.join('\n')}\n`;
    writeFileSync(OUT, text);
    if (process.env.FIRST_LOAD_WRITE) writeFileSync(TABLE, text);
  }
  console.log(`     ${load}: ${(total / 1024).toFixed(1)} KiB in ${lines.length} files (budget ${(budget / 1024).toFixed(1)} KiB)`);
  assert(total <= budget, `${load}: first load ${total} bytes over the budget ${budget}`);
  if (process.env.FIRST_LOAD_WRITE) return;
  const want = committed()[load] || {};
  const grew = [];
  for (const [f, b] of Object.entries(files)) {
    if (!(f in want)) grew.push(`${f}: new in the first load (${b} bytes)`);
    else if (b > want[f] + Math.max(256, want[f] / 100)) grew.push(`${f}: ${b} bytes, committed ${want[f]}`);
  }
  for (const f of Object.keys(want)) if (!(f in files)) grew.push(`${f}: committed but no longer loaded`);
  assert(grew.length === 0, `${load} differs from docs/first-load.tsv (FIRST_LOAD_WRITE=1 npx playwright test firstload writes it):\n${grew.join('\n')}`);
}

test('first load of the page: every transferred byte at gzip -9 until the network is idle, within its budget and the committed table', async ({ guard }) => {
  guard.allow(expected.status(404, `${shared.plainUrl}demo.json`)); // a static host has no demo.json
  // The page's last fetch of its own is demo.json (a 404 on a static host), after the boot page
  // mounts; the app module is not loaded until the page is touched.
  check('page', await firstLoad(shared.plainUrl, (page) => page.waitForResponse((r) => r.url().endsWith('/demo.json'))));
});

test('first load of a share link: the same measure, within the same budget and the committed table', async () => {
  // A share link loads the share module alone and fetches nothing after it: its rows are on screen
  // when it is done.
  check('share-link', await firstLoad(`${shared.plainUrl}#${LINK}`, (page) => page.getByTestId('shared-view').waitFor()));
});
