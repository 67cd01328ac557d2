// Smoke test of README command 1: start `./x dev`, load the app, initialize the demo server with the
// token from the page's origin, start a second `./x dev` on the same ports (it must stop at once,
// naming the port), send SIGINT, and check that both servers are gone.
import { spawn } from 'node:child_process';
import { ROOT } from './lib.mjs';

const APP_PORT = 18090,
  DEMO_PORT = 18797;
const app = `http://127.0.0.1:${APP_PORT}/`;
const child = spawn('./x', ['dev'], {
  cwd: ROOT,
  env: { ...process.env, APP_PORT: String(APP_PORT), DEMO_PORT: String(DEMO_PORT) },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let out = '';
// Events, not clocks: the app URL in the output, and the process's exit. A timer only bounds a hang.
let urlPrinted;
const printed = new Promise((r) => {
  urlPrinted = r;
});
const onOutput = (d) => {
  out += d;
  if (out.includes(`http://127.0.0.1:${APP_PORT}/`)) urlPrinted(true);
};
child.stdout.on('data', onOutput);
child.stderr.on('data', onOutput);
const exited = new Promise((r) =>
  child.once('exit', () => {
    urlPrinted(false);
    r(true);
  }),
);
// A hang bound must not keep the process alive once the events it guards have happened.
const hangGuard = (ms) => new Promise((r) => setTimeout(() => r(false), ms).unref());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fail = (msg) => {
  console.log(`FAIL ${msg}\n--- ./x dev output ---\n${out}`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
};
async function up(url, init) {
  try {
    return await fetch(url, init);
  } catch {
    return null;
  }
}

if (!(await Promise.race([printed, hangGuard(15 * 60 * 1000)]))) fail('./x dev did not print the app URL');
const page = await up(app);
if (page?.status !== 200 || !(await page.text()).includes('Content-Security-Policy')) fail('app not served');
const demo = await (await up(`${app}demo.json`))?.json();
if (!demo || demo.endpoint !== `http://127.0.0.1:${DEMO_PORT}/mcp`) fail(`demo.json wrong: ${JSON.stringify(demo)}`);
let init = null;
for (let i = 0; i < 40 && !init; i++) {
  init = await up(demo.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: 'Bearer demo-token',
      Origin: `http://127.0.0.1:${APP_PORT}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'smoke', version: '0' } },
    }),
  });
  if (!init) await sleep(250);
}
const text = init ? await init.text() : '';
if (init?.status !== 200 || !text.includes('"serverInfo"')) fail(`initialize failed: ${init?.status} ${text}`);
if (init.headers.get('access-control-allow-origin') !== `http://127.0.0.1:${APP_PORT}`) fail('no CORS for the app origin');
const noToken = await up(demo.endpoint, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  body: '{}',
});
if (noToken?.status !== 401 || !noToken.headers.get('www-authenticate')) fail('no 401 challenge without the token');
// A second ./x dev on the same ports stops before it installs or builds anything, naming the port
// and the variable that moves it (order of events: its exit, then its output is read).
const second = spawn('./x', ['dev'], {
  cwd: ROOT,
  env: { ...process.env, APP_PORT: String(APP_PORT), DEMO_PORT: String(DEMO_PORT) },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let secondOut = '';
second.stdout.on('data', (d) => {
  secondOut += d;
});
second.stderr.on('data', (d) => {
  secondOut += d;
});
const secondCode = await Promise.race([new Promise((r) => second.once('exit', (code) => r(code))), hangGuard(60000).then(() => 'hung')]);
if (secondCode === 'hung') {
  second.kill('SIGKILL');
  fail(`a second ./x dev did not stop: ${secondOut}`);
}
if (secondCode === 0 || !secondOut.includes(`port ${APP_PORT} is in use`) || !secondOut.includes('APP_PORT=') || secondOut.includes('[setup]')) {
  fail(`a second ./x dev: exit ${secondCode}, said: ${secondOut}`);
}
if (!(await up(app))) fail('the second ./x dev stopped the first');
console.log('ok   a second ./x dev on the same ports stops at once and names the port and APP_PORT');
process.kill(child.pid, 'SIGINT');
if (!(await Promise.race([exited, hangGuard(10000)]))) fail('./x dev did not exit on SIGINT');
// Order of events: ./x dev exits only after `wait`ing for both servers, so by now both are gone.
if (await up(app)) fail('app server still answering after ./x dev exited');
if (await up(demo.endpoint)) fail('demo server still answering after ./x dev exited');
console.log('ok   ./x dev serves the app and the demo server, and SIGINT stops both');
console.log('e2e: 2 passed, 0 failed');
process.exit(0);
