#!/usr/bin/env node
// The npm package as a user gets it: packed with `npm pack` from a tree with no build in it (its
// `prepack` script builds the WebAssembly, packages/npm/build.mjs, as in a fresh clone),
// installed from the tarball into a temporary project with no network, then used from plain Node
// ESM, CommonJS, TypeScript (`tsc --noEmit` over a typed example that uses every export) and a page
// in headless Chromium; and every public capture classified by the package equals the CLI's
// `classify --json` (the CLI's `file` field aside).
//   node packages/npm/test.mjs   (after a debug build of the CLI)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { captureFiles } from '../../scripts/captures.mjs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const PKG = join(ROOT, 'packages/npm');
const CLI = join(ROOT, 'target/debug/mcp-triage');
let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}\n${e.stack || e}`);
  }
}
const eq = (a, b, what) => {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`);
};
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).toString();

// Packed from a tree with no dist/ (as a fresh clone has none: git ignores it), so the tarball's
// WebAssembly is there only if `prepack` built it; then installed from the tarball alone into a
// new project, offline.
rmSync(join(PKG, 'dist'), { recursive: true, force: true });
const work = mkdtempSync(join(tmpdir(), 'mcp-triage-npm-'));
const tarball = join(
  work,
  execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: PKG, stdio: ['ignore', 'pipe', 'inherit'] })
    .toString()
    .trim()
    .split('\n')
    .pop(),
);
const project = join(work, 'project');
execFileSync('mkdir', ['-p', project]);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-mcp-triage', private: true, version: '0.0.0' }));
sh('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], project);
const installed = join(project, 'node_modules/mcp-triage');

const captures = captureFiles(ROOT);
const unknownTool = join(ROOT, 'fixtures/exchanges/ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json');
const call = {
  tool: 'get_wether',
  arguments: { city: 'Oslo' },
  result: { isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool get_wether not found' }] },
};

await test('the tarball, packed from a tree with no build, holds the package with its WebAssembly and nothing else', () => {
  const files = sh('tar', ['-tzf', tarball], work)
    .trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, ''))
    .sort();
  eq(
    files,
    [
      'README.md',
      'adapters.mjs',
      'dist/node/mcp_triage.js',
      'dist/node/mcp_triage_bg.wasm',
      'dist/node/package.json',
      'dist/web/mcp_triage.js',
      'dist/web/mcp_triage_bg.wasm',
      'index.cjs',
      'index.d.ts',
      'index.mjs',
      'package.json',
      'verdict.d.ts',
      'web.d.ts',
      'web.mjs',
      'wrap.mjs',
    ],
    'files',
  );
});

const script = (name, text) => {
  writeFileSync(join(project, name), text);
  return JSON.parse(sh('node', [name], project));
};
const probe = (load) => `
${load}
const fs = require('node:fs');
const v = m.classify(fs.readFileSync(${JSON.stringify(unknownTool)}, 'utf8'), { intent: 'A', protocolVersion: '2025-06-18' });
const o = m.classifyOutcome(${JSON.stringify(call)});
console.log(JSON.stringify({ v: [v.format, v.cause, v.action, v.spec.conformance], o: [o.cause, o.retry], retry: m.shouldRetry(o, 1, 3).retry, line: m.messageForModel(o) }));
`;
const expected = { v: ['mcp-triage-verdict/2', 'unknown_tool', 'pick_another_tool', 'deviates'], o: ['unknown_tool', 'futile'], retry: false };
await test('Node ESM: import, no init call', () => {
  const got = script(
    'esm.mjs',
    probe("import * as m from 'mcp-triage';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);"),
  );
  eq({ v: got.v, o: got.o, retry: got.retry }, expected, 'ESM');
  if (!got.line.includes('"get_wether"')) throw new Error(`the model's line: ${got.line}`);
});
await test('Node CommonJS: require, no init call', () => {
  const got = script('cjs.cjs', probe("const m = require('mcp-triage');"));
  eq({ v: got.v, o: got.o, retry: got.retry }, expected, 'CJS');
});
for (const [file, load] of [
  ['bad.cjs', "const m = require('mcp-triage');"],
  ['bad.mjs', "import * as m from 'mcp-triage';"],
]) {
  await test(`a call it cannot read gets the unknown verdict that says why, never an exception (${file})`, () => {
    const got = script(
      file,
      `${load}
const out = [];
const cyclic = { tool: 'x', raised: { message: 'm' } };
cyclic.raised.data = cyclic;
for (const call of [{ tool: 'x' }, 'not json', { tool: 'x', error: { code: 'NaN' } }, cyclic, { tool: 'x', arguments: { n: 1n }, result: {} }, undefined]) {
  try {
    const v = m.classifyOutcome(call);
    out.push([v.made_on, v.cause, v.retry, v.tool ?? null, v.said, m.shouldRetry(v, 1, 3).retry]);
  } catch (e) { out.push(['threw', String(e.message)]); }
}
console.log(JSON.stringify(out));`,
    );
    eq(
      got.map((r) => r.slice(0, 4)),
      [
        ['client', 'unknown', 'futile', 'x'],
        ['client', 'unknown', 'futile', null],
        ['client', 'unknown', 'futile', 'x'],
        ['client', 'unknown', 'futile', 'x'],
        ['client', 'unknown', 'futile', 'x'],
        ['client', 'unknown', 'futile', null],
      ],
      'the verdicts',
    );
    if (!got[0][4].includes('exactly one of result, error, transport, client_error and raised')) throw new Error(got[0][4]);
    eq(
      got.map((r) => r[5]),
      [false, false, false, false, false, false],
      'never retried',
    );
  });
}

await test('TypeScript: tsc --noEmit over a typed example that uses every export', () => {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['typed.mts'],
    }),
  );
  writeFileSync(
    join(project, 'typed.mts'),
    `import { classify, classifyOutcome, shouldRetry, messageForModel, withTriage, triageFetch, triageStep, raisedOf, type Verdict, type RetryWithBackoffVerdict, type Cause } from 'mcp-triage';
import init, { initSync, classifyOutcome as webClassify } from 'mcp-triage/web';
const v: Verdict = classifyOutcome({ tool: 't', transport: { kind: 'timeout' } });
// The union narrows on the action: only retry_with_backoff can be safe to retry.
if (v.action === 'retry_with_backoff') { const r: RetryWithBackoffVerdict = v; const s: 'safe' | 'outcome_unknown' = r.retry; void s; }
if (v.action === 'proceed') { const n: 'not_needed' = v.retry; void n; }
const c: Cause = classify('{}').cause;
const d = shouldRetry(v, 1, 3); const wait: number = d.after_ms; const line: string = messageForModel(v);
const wrapped = withTriage({ callTool: async (_params: { name: string }) => ({ content: [] }), listTools: async () => ({ tools: [] }) });
const triaged = await wrapped.callTool({ name: 't' }); const tv: Verdict = triaged.verdict; const content: unknown[] | undefined = triaged.result?.content;
const steps: Verdict[] = triageStep({ content: [] }).map((t) => t.verdict); const r = raisedOf(new Error('x')); const named: string | undefined = r.name;
const f: typeof fetch = triageFetch(fetch, (_e, v) => { const a: Verdict['action'] = v.action; void a; });
void [c, wait, line, init, initSync, webClassify, tv, f, content, steps, named];
`,
  );
  sh(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], project);
  // The control: a wrong use must fail the same check.
  writeFileSync(
    join(project, 'typed.mts'),
    `import { classifyOutcome } from 'mcp-triage';
const v = classifyOutcome({ tool: 't', result: {} });
if (v.action === 'proceed') { const wrong: 'safe' = v.retry; void wrong; }
`,
  );
  let refused = false;
  try {
    sh(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], project);
  } catch {
    refused = true;
  }
  if (!refused) throw new Error('tsc accepted a proceed verdict whose retry is "safe"');
});

await test(`parity: the package and the CLI give equal verdicts for all ${captures.length} public captures`, () => {
  const require = createRequire(join(installed, 'index.cjs'));
  const m = require(join(installed, 'index.cjs'));
  const cli = sh(CLI, ['classify', '--json', ...captures], ROOT)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  eq(cli.length, captures.length, 'one line a capture');
  let differ = 0;
  for (const [i, path] of captures.entries()) {
    const { file, ...fromCli } = cli[i];
    if (file !== path) throw new Error(`line ${i}: ${file}`);
    const fromPackage = m.classify(readFileSync(path, 'utf8'));
    // Equal parsed JSON: the same keys and values, whatever the order of keys.
    if (!isDeepStrictEqual(fromPackage, fromCli)) {
      differ += 1;
      if (differ <= 3) console.log(`  ${path}\n  package ${JSON.stringify(fromPackage)}\n  cli     ${JSON.stringify(fromCli)}`);
    }
  }
  eq(differ, 0, 'captures whose verdicts differ');
});

await test("a page in headless Chromium: init() from the package's web build, then a verdict", async () => {
  const { chromium } = await import(join(ROOT, 'node_modules/playwright-core/index.mjs'));
  writeFileSync(
    join(project, 'index.html'),
    `<!doctype html><meta charset="utf-8"><script type="module">
import init, { classifyOutcome, shouldRetry } from './node_modules/mcp-triage/web.mjs';
await init();
const v = classifyOutcome(${JSON.stringify(call)});
document.body.dataset.result = JSON.stringify([v.cause, v.action, shouldRetry(v, 1, 3).retry]);
</script>`,
  );
  const server = spawn('node', [join(ROOT, 'scripts/serve.mjs'), '--dir', project, '--port', String(18988)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => server.stdout.once('data', r));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:18988/index.html`);
    await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 15000 });
    eq(JSON.parse(await page.evaluate(() => document.body.dataset.result)), ['unknown_tool', 'pick_another_tool', false], 'in the page');
    eq(errors, [], 'page errors');
  } finally {
    await browser.close();
    server.kill();
  }
});

// The adapters with the real TypeScript SDK clients (1.29.0 and 1.32.2) against live peers of the
// browser tests, started as the e2e runner starts them (TypeScript SDK 1.29.0 demo, Python `mcp`
// 2.3.0 MCPServer, fastmcp 4.2.3, rmcp): probes A-D through withTriage, each exchange recorded by
// triageFetch; the adapter's verdict (from what the SDK handed over) and the exchange's (from the
// wire) must agree on channel, cause, action and party.
function startPeer(cmd, args, ready) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  const up = new Promise((resolve, reject) => {
    const look = (chunk) => {
      seen += chunk;
      if (seen.includes(ready)) resolve();
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}): ${seen.slice(-400)}`)));
  });
  return { child, up };
}
const ORIGIN = 'http://127.0.0.1:18081';
const peers = [
  {
    name: 'TypeScript SDK 1.29.0 demo',
    port: 18998,
    token: 'demo-token',
    start: (p) => startPeer('node', ['demo/server.mjs', '--port', String(p)], 'demo MCP server'),
  },
  {
    name: 'Python mcp 2.3.0 MCPServer',
    port: 18930,
    start: (p) => startPeer(join(ROOT, 'e2e/py/.venv/bin/python'), ['e2e/py/server.py', '--port', String(p), '--cors-origin', ORIGIN], 'python MCP peer'),
  },
  {
    name: 'fastmcp 4.2.3',
    port: 18932,
    start: (p) =>
      startPeer(join(ROOT, 'e2e/py/.venv/bin/python'), ['e2e/py/fastmcp_server.py', '--port', String(p), '--cors-origin', ORIGIN], 'fastmcp peer on'),
  },
  {
    name: 'rmcp',
    port: 18934,
    start: (p) => startPeer(join(ROOT, 'target/rmcp-peer/debug/rmcp-peer'), ['--port', String(p), '--cors-origin', ORIGIN], 'rmcp peer on'),
  },
];
const running = peers.map((peer) => ({ ...peer, ...peer.start(peer.port) }));
for (const peer of running) {
  await test(`${peer.name} is up for the adapter tests`, () => peer.up);
}
// The README's examples, as the packed README has them: every ```ts block is type-checked with
// `tsc --strict` against the frameworks' own types, then run against the demo (TypeScript SDK
// 1.29.0, which needs a token); each must print what its `// prints:` line says, and the same run
// without the token (the control) must not.
const FRAMEWORKS = [
  ['@modelcontextprotocol/sdk', 'e2e/peers/ts-1.32.2'],
  ['@modelcontextprotocol/client', 'e2e/peers/ts-client-2'],
  ['ai', 'e2e/peers/ai-sdk'],
  ['@ai-sdk/mcp', 'e2e/peers/ai-sdk'],
  ['@types/node', '.'],
];
const readmeExamples = [...readFileSync(join(installed, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
await test(`the README's ${readmeExamples.length} TypeScript examples pass tsc --strict`, () => {
  if (readmeExamples.length < 3) throw new Error(`${readmeExamples.length} examples found`);
  for (const [name, dir] of FRAMEWORKS) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    rmSync(link, { recursive: true, force: true });
    symlinkSync(join(ROOT, dir, 'node_modules', name), link);
  }
  const dir = join(project, 'readme');
  mkdirSync(dir, { recursive: true });
  readmeExamples.forEach((code, i) => {
    writeFileSync(join(dir, `example-${i + 1}.mts`), code);
  });
  // The agent loop's model, scripted (the AI SDK's own test model): a call to a tool the server
  // does not have, then a text.
  writeFileSync(
    join(dir, 'model.mts'),
    `import { MockLanguageModelV4 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
export const model = new MockLanguageModelV4({
  doGenerate: [
    { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'get_forecast', input: '{"city":"Oslo"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
    { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ],
});
`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, outDir: 'out', skipLibCheck: true, types: ['node'] },
      include: ['*.mts'],
    }),
  );
  try {
    sh(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], dir);
  } catch (e) {
    throw new Error(`tsc --strict refused an example:\n${e.stdout}`);
  }
});
for (const [i, code] of readmeExamples.entries()) {
  const prints = code.match(/^\/\/ prints: (.+?)(?:…)?$/m)?.[1];
  await test(`README example ${i + 1} prints what it says, with the token (and not without it)`, () => {
    if (!prints) throw new Error('no "// prints:" line');
    const run = (token) =>
      execFileSync('node', [join(project, 'readme/out', `example-${i + 1}.mjs`)], {
        cwd: project,
        env: { ...process.env, MCP_URL: 'http://127.0.0.1:18998/mcp', MCP_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60000,
      }).toString();
    const out = run('demo-token');
    if (!out.includes(prints)) throw new Error(`expected "${prints}" in:\n${out}`);
    let without = '';
    try {
      without = run('not-the-token');
    } catch (e) {
      without = String(e.stdout ?? '') + String(e.stderr ?? '');
    }
    if (without.includes(prints)) throw new Error(`printed "${prints}" without the token too:\n${without}`);
  });
}
for (const [sdk, dir] of [
  ['1.29.0', 'demo'],
  ['1.32.2', 'e2e/peers/ts-1.32.2'],
]) {
  for (const peer of running) {
    await test(`withTriage and triageFetch, TypeScript SDK ${sdk} client, ${peer.name}: probes A-D, the SDK's verdict equals the wire's`, () => {
      const base = join(ROOT, dir, 'node_modules/@modelcontextprotocol/sdk/dist/esm');
      const headers = peer.token ? { Authorization: `Bearer ${peer.token}` } : {};
      const got = script(
        `live.mjs`,
        `import { withTriage, triageFetch } from 'mcp-triage';
import { Client } from ${JSON.stringify(join(base, 'client/index.js'))};
import { StreamableHTTPClientTransport } from ${JSON.stringify(join(base, 'client/streamableHttp.js'))};
const wire = [];
const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:${peer.port}/mcp'), {
  requestInit: { headers: ${JSON.stringify(headers)} },
  fetch: triageFetch(fetch, (exchange, verdict) => wire.push({ exchange, verdict })),
});
const client = withTriage(new Client({ name: 'mcp-triage-npm-test', version: '1.0.0' }));
await client.connect(transport);
await client.listTools();
const out = {};
for (const [probe, name, args] of [['A', 'no_such_tool_3f9', {}], ['B', 'echo', {}], ['C', 'lead_get', { id: 'x' }], ['D', 'icp_list', {}]]) {
  const before = wire.length;
  const { verdict } = await client.callTool({ name, arguments: args });
  const recorded = wire.slice(before).find((w) => (w.exchange.request.body || '').includes('"tools/call"'));
  const pick = (v) => v && [v.channel, v.cause, v.action, v.party];
  out[probe] = { sdk: pick(verdict), wire: pick(recorded?.verdict), token: ${JSON.stringify(peer.token || '')} !== '' && JSON.stringify(recorded?.exchange).includes(${JSON.stringify(peer.token || 'none')}) };
}
await client.close();
console.log(JSON.stringify(out));
process.exit(0);
`,
      );
      eq(
        Object.fromEntries(Object.entries(got).map(([p, r]) => [p, r.sdk[1]])),
        { A: 'unknown_tool', B: 'invalid_arguments', C: 'tool_execution', D: 'none' },
        `SDK ${sdk}, ${peer.name}: the causes`,
      );
      for (const [probe, r] of Object.entries(got)) {
        eq(r.sdk, r.wire, `SDK ${sdk}, ${peer.name}, probe ${probe}: the adapter's verdict and the wire's`);
        eq(r.token, false, `SDK ${sdk}, ${peer.name}, probe ${probe}: the recorded exchange holds no token`);
      }
    });
  }
}
for (const peer of running) peer.child.kill();

// A connection lost while the tool runs: a server of these tests (TypeScript SDK 1.32.2, JSON
// responses, packages/npm/fixtures/slow-tools.mjs) is killed once the call has reached its tool;
// through withTriage and the TypeScript SDK clients (1.32.2, and the v2 client 2.4.0) the call may
// have run, so it is retried only for the tools declared read-only or idempotent, and the model is
// told to check first. With the v2 client, its own timeout (a code that is a name) too.
const clients = [
  [
    'TypeScript SDK 1.32.2 client',
    join(ROOT, 'e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'),
    join(ROOT, 'e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js'),
  ],
  [
    'TypeScript v2 client 2.4.0',
    join(ROOT, 'e2e/peers/ts-client-2/node_modules/@modelcontextprotocol/client/dist/index.mjs'),
    join(ROOT, 'e2e/peers/ts-client-2/node_modules/@modelcontextprotocol/client/dist/index.mjs'),
  ],
];
for (const [client, clientModule, transportModule] of clients) {
  for (const ending of ['killed', 'timeout']) {
    if (ending === 'timeout' && !client.includes('v2')) continue;
    await test(`${client}, a call that ${ending === 'killed' ? 'loses its server mid-call' : 'times out on the client'}: it may have run; only a repeatable tool is retried`, () => {
      const got = script(
        `${ending}-${client.includes('v2') ? 'v2' : 'v1'}.mjs`,
        `import { withTriage, shouldRetry, messageForModel } from 'mcp-triage';
import { spawn } from 'node:child_process';
import { Client } from ${JSON.stringify(clientModule)};
import { StreamableHTTPClientTransport } from ${JSON.stringify(transportModule)};
const out = {};
for (const name of ['read_slowly', 'set_slowly', 'send_slowly']) {
  const events = [];
  const server = spawn('node', [${JSON.stringify(join(ROOT, 'packages/npm/fixtures/slow-tools.mjs'))}, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  const port = await new Promise((resolve) => server.stdout.on('data', (c) => {
    seen += c;
    const m = seen.match(/slow tools on (\\d+)/);
    if (m) resolve(Number(m[1]));
    if (seen.includes('called ' + name) && !events.includes('tool ran')) {
      events.push('tool ran');
      if (${JSON.stringify(ending)} === 'killed') { server.kill('SIGKILL'); events.push('server killed'); }
    }
  }));
  const client = withTriage(new Client({ name: 'mcp-triage-npm-test', version: '1.0.0' }));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:' + port + '/mcp')));
  await client.listTools();
  const options = { timeout: ${ending === 'killed' ? 20000 : 1000} };
  // v1's callTool(params, resultSchema, options); v2's callTool(params, options).
  const { verdict } = await client.callTool({ name, arguments: {} }, ${client.includes('v2') ? 'options' : 'undefined, options'});
  events.push('verdict');
  server.kill('SIGKILL');
  out[name] = { events, cause: verdict.cause, made_on: verdict.made_on, delivery: verdict.delivery, retry: verdict.retry, again: shouldRetry(verdict, 1, 3).retry, line: messageForModel(verdict) };
}
console.log(JSON.stringify(out));
process.exit(0);
`,
      );
      const order = ending === 'killed' ? ['tool ran', 'server killed', 'verdict'] : ['tool ran', 'verdict'];
      const cause = ending === 'killed' ? 'connection_lost' : 'timeout';
      for (const [name, retry] of [
        ['read_slowly', 'safe'],
        ['set_slowly', 'safe'],
        ['send_slowly', 'outcome_unknown'],
      ]) {
        const r = got[name];
        eq(r.events, order, `${name}: the call reached its tool, then the verdict came`);
        eq([r.made_on, r.cause, r.delivery, r.retry, r.again], ['client', cause, 'may_have_run', retry, retry === 'safe'], `${name}: the verdict`);
        eq(/may (still )?have run; check before calling it again/.test(r.line), true, `${name}: the model's line: ${r.line}`);
      }
    });
  }
}

// The framework matrix (packages/npm/frameworks.tsv, written from the frameworks' sources): each
// TypeScript path (fixtures/paths.mjs) against the TypeScript SDK 1.32.2 peer (the demo's tools,
// behind a token) and the Python `mcp` 2.3.0 peer, probes A-D and a call whose server is killed
// once the tool runs (E). A fresh server for each path, as E ends it.
const MATRIX_PEERS = {
  'ts-1.32.2': (port) => ({
    ...startPeer(
      'node',
      ['demo/server.mjs', '--port', String(port), '--sdk', 'e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk', '--slow-tool'],
      'demo MCP server',
    ),
    token: 'demo-token',
  }),
  'py-2.3.0': (port) => ({
    ...startPeer(
      join(ROOT, 'e2e/py/.venv/bin/python'),
      ['e2e/py/server.py', '--port', String(port), '--cors-origin', ORIGIN, '--slow-tool'],
      'python MCP peer',
    ),
    token: '-',
  }),
};
const matrix = readFileSync(join(PKG, 'frameworks.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t'));
const [header, ...rows] = matrix;
const cells = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
writeFileSync(join(project, 'paths.mjs'), readFileSync(join(PKG, 'fixtures/paths.mjs')));
const seenCells = [];
let matrixPort = 18960;
for (const path of [...new Set(cells.map((e) => e.path))]) {
  for (const peerName of Object.keys(MATRIX_PEERS)) {
    await test(`framework matrix: ${path} × ${peerName}, probes A-E as frameworks.tsv says`, async () => {
      const port = matrixPort++;
      const peer = MATRIX_PEERS[peerName](port);
      const events = [];
      try {
        await peer.up;
        peer.child.stdout.on('data', (chunk) => {
          if (String(chunk).includes('called wait_forever') && !events.includes('tool ran')) {
            events.push('tool ran');
            peer.child.kill('SIGKILL');
            events.push('server killed');
          }
        });
        const child = spawn('node', ['paths.mjs', path, `http://127.0.0.1:${port}/mcp`, peer.token], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c) => {
          out += c;
          if (/"probe":"E"/.test(out) && !events.includes('verdict E')) events.push('verdict E');
        });
        child.stderr.on('data', (c) => {
          err += c;
        });
        const code = await new Promise((resolve) => child.on('exit', resolve));
        const got = out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        if (code !== 0 || got.length !== 5) throw new Error(`exit ${code}, ${got.length} lines: ${out}\n${err.slice(-800)}`);
        eq(events, ['tool ran', 'server killed', 'verdict E'], 'E: the tool ran, the server was killed, then the verdict came');
        const wrong = [];
        for (const g of got) {
          const want = cells.find((e) => e.path === path && e.peer === peerName && e.probe === g.probe);
          const cell = [g.cause, g.delivery, g.made_on, g.retry].join(' ');
          seenCells.push(`${path}\t${peerName}\t${g.probe}\t${cell}`);
          // A cause "a|b" is either (the row's source says why); the rest must match exactly.
          const fits =
            want?.cause.split('|').includes(g.cause) && [g.delivery, g.made_on, g.retry].join(' ') === [want.delivery, want.made_on, want.retry].join(' ');
          if (!fits) wrong.push(`${g.probe}: got ${cell}, expected ${want ? [want.cause, want.delivery, want.made_on, want.retry].join(' ') : 'no row'}`);
        }
        if (wrong.length) throw new Error(wrong.join('\n'));
      } finally {
        peer.child.kill('SIGKILL');
      }
    });
  }
}
console.log(`framework matrix cells seen:\n${seenCells.join('\n')}`);

const wasm = readFileSync(join(installed, 'dist/node/mcp_triage_bg.wasm'));
const { gzipSync } = await import('node:zlib');
console.log(`package wasm: ${wasm.length} bytes, ${gzipSync(wasm, { level: 9 }).length} gzip -9 (budget 204800)`);
await test("the package's WebAssembly is at most 200 KiB gzip", () => {
  const gz = gzipSync(wasm, { level: 9 }).length;
  if (gz > 200 * 1024) throw new Error(`${gz} bytes`);
});
rmSync(work, { recursive: true, force: true });
console.log(`node: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
