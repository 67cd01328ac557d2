// Shared helpers for the browser tests: start real servers, launch Debian's Chromium, tiny test runner.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const children = [];
export function startProcess(cmd, args, { ready, env, cwd } = {}) {
  const child = spawn(cmd, args, { cwd: cwd || ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} ${args.join(' ')} not ready:\n${output}`)), 20000);
    const onData = (d) => {
      output += d.toString();
      if (!ready || output.includes(ready)) { clearTimeout(timer); resolve(child); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => { output += d.toString(); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${cmd} exited ${code}:\n${output}`)); });
  });
}
export function stopAll() {
  for (const c of children) { try { c.kill('SIGTERM'); } catch { /* gone */ } }
}
process.on('exit', stopAll);

/** Copies dist/ to a private folder with a demo.json pointing at `demoEndpoint` (or none). */
export function stageDist(name, demoEndpoint) {
  const dir = join(ROOT, 'target', 'e2e-dist', name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), dir, { recursive: true });
  rmSync(join(dir, 'demo.json'), { force: true });
  if (demoEndpoint) {
    writeFileSync(join(dir, 'demo.json'), JSON.stringify({ endpoint: demoEndpoint, token_hint: 'demo-token', server: 'TypeScript SDK 1.29.0 McpServer' }));
  }
  return dir;
}

export async function serveDist(dir, port, extra = []) {
  await startProcess('node', ['scripts/serve.mjs', '--dir', dir, '--port', String(port), ...extra], { ready: 'serving' });
  return `http://127.0.0.1:${port}/`;
}

export async function startPython(port, corsOrigin, extra = []) {
  await startProcess(join(ROOT, 'e2e/py/.venv/bin/python'), ['e2e/py/server.py', '--port', String(port), '--cors-origin', corsOrigin, ...extra], { ready: 'python MCP peer' });
  return `http://127.0.0.1:${port}/mcp`;
}

/** Fills the form and runs Quick check (or Review first); waits for results (or the plan). */
export async function runQuick(page, { endpoint, token, era, review } = {}) {
  if (endpoint !== undefined) await page.getByTestId('endpoint').fill(endpoint);
  if (token !== undefined) await page.getByTestId('token').fill(token);
  if (era) await page.getByTestId('era').selectOption(era);
  await page.getByTestId(review ? 'review-first' : 'quick-check').click();
  if (review) await page.getByTestId('plan').waitFor({ timeout: 30000 });
  else await page.getByTestId('results').waitFor({ timeout: 45000 });
}

/** Channel and cause shown on a card. */
export async function cardOutcome(page, id) {
  const card = page.getByTestId(id);
  return [await card.getByTestId('channel').first().innerText(), await card.getByTestId('cause').first().innerText()];
}

export async function startDemo(port, appOrigins, extra = []) {
  await startProcess('node', ['demo/server.mjs', '--port', String(port), '--origins', appOrigins.join(','), ...extra], { ready: 'demo MCP server' });
  return `http://127.0.0.1:${port}/mcp`;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** Opens a page that records console errors, page errors and CSP violations. */
export async function watchedPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()} ${m.location()?.url || ''}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.problems = async () => [...problems, ...(await page.evaluate(() => window.__csp || []).catch(() => []))];
  return page;
}

export const shared = {};
const tests = [];
export function test(name, fn) { tests.push({ name, fn }); }
export async function run() {
  let passed = 0, failed = 0;
  for (const t of tests) {
    const start = Date.now();
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - start} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}\n${e && e.stack ? e.stack : e}`);
    }
  }
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  stopAll();
  process.exit(failed ? 1 : 0);
}

export function assert(cond, msg) { if (!cond) throw new Error(`assertion failed: ${msg}`); }
export function eq(a, b, msg) { if (a !== b) throw new Error(`${msg}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`); }
