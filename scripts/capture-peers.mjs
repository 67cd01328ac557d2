// Captures our live test peers DIRECTLY over HTTP (node:http, no browser) as `mcp-exchange/1` files in
// crates/mcp-triage/tests/fixtures/captured/<stack>/<case>.pv<version>.json, in the format of the shared
// captures (fixtures/exchanges, see fixtures/README.md): one exchange per file, headers in wire order.
//
//   node scripts/capture-peers.mjs            run by hand (peers on ports 19401-19408); rewrites the
//                                             output folders of the stacks below and nothing else
//
// The test command never runs this: the captures are committed test data, re-made only by hand.
//
// Peers (all already installed/built by scripts/setup.sh), each started here and killed at the end:
//   ts-1.32.2-demo-stateless / -stateful   demo/server.mjs --sdk e2e/peers/ts-1.32.2/... [--stateful]
//                                     (the demo always requires its bearer token: every request but a
//                                     preflight sends `Authorization: Bearer demo-token`, after Origin;
//                                     AUTH1_no_token and AUTH2_wrong_token are captured as they are)
//   py-mcp-2.3.0-lowlevel-demo-stateless / -stateful   e2e/py/server.py --lowlevel [--stateful]
//                                     (the demo tools on the low-level Server: no argument validation)
//   fastmcp-4.2.3-stateless / fastmcp-4.2.3-masked-stateless   e2e/py/fastmcp_server.py [--mask]
//   rmcp-3.11.0-stateless / -stateful   target/rmcp-peer/debug/rmcp-peer [--stateful]
//
// Each request is a shared capture's request (the template), unchanged but for the URL and Host (our
// port), the Mcp-Session-Id (the one this peer's initialize returned; `bogus-session-id-0000` stays),
// Content-Length (recomputed) and the token above. Stateless peers take the templates of
// py-mcp-2.3.0-mcpserver-stateless, stateful ones those of ts-1.32.2-stateful; per protocol version:
// init, initialized, then each case in that session (M_delete_session, then M2_after_delete with the
// deleted id); then N_init_negotiation, O* and X* once. Skipped: C2_*/C3_* (our peers lack those
// tools) and AUTH* (except the two above for the TS demo). Two cases are ours, made from the tools_list
// template inside the pv2025-06-18 session: G4_accept_mixed_case (Accept lists both types in capitals,
// which media-type rules treat alike) and G5_content_type_mixed_case (Content-Type: Application/JSON):
// a refusal of either blames what the request did right. No `intent` and no `elapsed_ms` are written
// (the classifier decides without the first; the second would only make re-runs differ).
// Limits: 5 s per request (no headers by then: response null, transport_error "timeout"; a body still
// open then: body_complete false, body_end "deadline"); a GET stream is cut after its first event or
// 1.5 s (body_complete false).
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = process.env.MCP_TRIAGE_FIXTURES || join(ROOT, 'fixtures/exchanges');
const OUT = join(ROOT, 'crates/mcp-triage/tests/fixtures/captured');
const ORIGIN = 'http://localhost:5173';
const BOGUS_SESSION = 'bogus-session-id-0000';
const TIMEOUT_MS = 5000;
const GET_HOLD_MS = 1500;
const PY = join(ROOT, 'e2e/py/.venv/bin/python');
const RMCP = join(ROOT, 'target/rmcp-peer/debug/rmcp-peer');
const TS_SDK = 'e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk';

const demo = (port, extra) => ['node', ['demo/server.mjs', '--port', `${port}`, '--origins', ORIGIN, '--sdk', TS_SDK, ...extra], 'demo MCP server'];
const pyPeer = (port, extra) => [PY, ['e2e/py/server.py', '--lowlevel', '--port', `${port}`, '--cors-origin', ORIGIN, ...extra], 'python MCP peer'];
const fastmcp = (port, extra) => [PY, ['e2e/py/fastmcp_server.py', '--port', `${port}`, '--cors-origin', ORIGIN, ...extra], 'fastmcp peer on'];
const rmcp = (port, extra) => [RMCP, ['--port', `${port}`, '--cors-origin', ORIGIN, ...extra], 'rmcp peer on'];

const PEERS = [
  { stack: 'ts-1.32.2-demo-stateless', sdk: '@modelcontextprotocol/sdk 1.32.2', port: 19401, start: demo, extra: [], token: 'demo-token' },
  { stack: 'ts-1.32.2-demo-stateful', sdk: '@modelcontextprotocol/sdk 1.32.2', port: 19402, start: demo, extra: ['--stateful'], token: 'demo-token' },
  { stack: 'py-mcp-2.3.0-lowlevel-demo-stateless', sdk: 'mcp 2.3.0 (low-level Server)', port: 19403, start: pyPeer, extra: [] },
  { stack: 'py-mcp-2.3.0-lowlevel-demo-stateful', sdk: 'mcp 2.3.0 (low-level Server)', port: 19404, start: pyPeer, extra: ['--stateful'] },
  { stack: 'fastmcp-4.2.3-stateless', sdk: 'fastmcp 4.2.3', port: 19405, start: fastmcp, extra: [] },
  { stack: 'fastmcp-4.2.3-masked-stateless', sdk: 'fastmcp 4.2.3 (mask_error_details=True)', port: 19406, start: fastmcp, extra: ['--mask'] },
  { stack: 'rmcp-3.11.0-stateless', sdk: 'rmcp 3.11.0', port: 19407, start: rmcp, extra: [] },
  { stack: 'rmcp-3.11.0-stateful', sdk: 'rmcp 3.11.0', port: 19408, start: rmcp, extra: ['--stateful'] },
];
const TEMPLATES = { stateless: 'py-mcp-2.3.0-mcpserver-stateless', stateful: 'ts-1.32.2-stateful', auth: 'ts-1.32.2-auth' };
const VERSIONS = ['2025-06-18', '2025-11-25', '2025-03-26'];
// The cases made inside one session (stateless peers: one after the other), in this order.
const SESSION_CASES = [
  'init',
  'initialized',
  'tools_list',
  'A_unknown_tool',
  'B_missing_required_arg',
  'B2_wrong_arg_type',
  'C_tool_throws',
  'D_success',
  'D2_echo_success',
  'D3_omitted_arguments',
  'E_unknown_method',
  'F_malformed_json',
  'F2_not_jsonrpc',
  'G_accept_json_only',
  'G2_no_accept',
  'G3_wrong_content_type',
  'H_get',
  'I_bogus_session_id',
  'I2_no_session_id',
  'J_missing_name',
  'K_cors_preflight',
  'K2_cors_post_with_origin',
  'L_bad_protocol_version_header',
  'L2_no_protocol_version_header',
  'M_delete_session',
  'M2_after_delete',
];
const SKIPPED = /^(C2_|C3_|AUTH)/;
// Our own cases: a shared request with one header spelled differently (same meaning by RFC 9110).
const DERIVED = [
  {
    name: 'G4_accept_mixed_case',
    header: 'accept',
    value: 'Application/JSON, Text/Event-Stream',
    description: 'tools/list with Accept: Application/JSON, Text/Event-Stream (both types, capitalised)',
  },
  {
    name: 'G5_content_type_mixed_case',
    header: 'content-type',
    value: 'Application/JSON',
    description: 'tools/list with Content-Type: Application/JSON (capitalised)',
  },
];

// ---- peers: started one at a time, every one killed at the end (also on error or Ctrl-C) ----
const children = new Set();
function killAll() {
  for (const c of children) {
    try {
      c.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    killAll();
    process.exit(130);
  });

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

async function startPeer(peer) {
  if (await portOpen(peer.port)) throw new Error(`port ${peer.port} is already in use`);
  const [cmd, args, ready] = peer.start(peer.port, peer.extra);
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${peer.stack} not ready after 20 s:\n${output}`)), 20000);
    const onData = (d) => {
      output += d;
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${peer.stack} exited ${code}:\n${output}`));
    });
  });
  // Some peers print their line before the socket is bound.
  for (let i = 0; i < 100 && !(await portOpen(peer.port)); i++) await new Promise((r) => setTimeout(r, 100));
  return child;
}

async function stopPeer(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

// ---- one HTTP exchange ----
function decode(buf) {
  try {
    return { body: new TextDecoder('utf-8', { fatal: true }).decode(buf) };
  } catch {
    return { body: buf.toString('utf8'), body_base64: buf.toString('base64') };
  }
}

/** Sends `req` exactly (headers in order, nothing added) and records what came back. */
function send(req) {
  return new Promise((resolve) => {
    const u = new URL(req.url);
    const r = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: req.method,
      headers: Object.fromEntries(req.headers),
      agent: false,
      setHost: false,
    });
    r.removeHeader('Connection'); // Node would add `Connection: close`; the templates send none
    let res = null;
    const chunks = [];
    let done = false;
    // complete: the server ended the body; end: how reading stopped (or why no headers came).
    const finish = (complete, end, detail) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      r.destroy();
      if (!res) {
        resolve({ response: null, transport_error: end, transport_error_detail: detail });
        return;
      }
      const headers = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      const { body, body_base64 } = decode(Buffer.concat(chunks));
      const response = { status: res.statusCode, headers, body, body_complete: complete };
      if (end === 'deadline' || end === 'aborted') response.body_end = end;
      if (body_base64) response.body_base64 = body_base64;
      resolve({ response });
    };
    const deadline = setTimeout(() => (res ? finish(false, 'deadline') : finish(false, 'timeout', `no response headers within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    r.on('error', (e) => finish(false, res ? 'aborted' : 'network', `${e.code || ''} ${e.message}`.trim()));
    r.on('response', (incoming) => {
      res = incoming;
      if (req.method === 'GET' && /^text\/event-stream/i.test(incoming.headers['content-type'] || '')) {
        // A held-open stream: stop at its first event or after GET_HOLD_MS.
        setTimeout(() => finish(false, 'held'), GET_HOLD_MS);
        incoming.on('data', (c) => {
          chunks.push(c);
          if (/\r?\n\r?\n/.test(Buffer.concat(chunks).toString())) finish(false, 'held');
        });
      } else {
        incoming.on('data', (c) => chunks.push(c));
      }
      incoming.on('end', () => finish(true));
      incoming.on('error', () => finish(false, 'aborted'));
    });
    r.end(req.body ?? undefined);
  });
}

// ---- templates → requests → exchange files ----
function template(folder, file) {
  const path = join(SHARED, folder, file);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/** The template's request for this peer: only URL, Host, session id, Content-Length and the token change. */
function request(tpl, peer, sid, { auth = true } = {}) {
  const url = new URL(tpl.request.url);
  url.host = `127.0.0.1:${peer.port}`;
  const body = tpl.request.body;
  const headers = [];
  for (const [name, value] of tpl.request.headers) {
    const lower = name.toLowerCase();
    if (lower === 'host') headers.push([name, url.host]);
    else if (lower === 'content-length') headers.push([name, String(Buffer.byteLength(body ?? ''))]);
    else if (lower === 'mcp-session-id' && value !== BOGUS_SESSION) {
      if (sid) headers.push([name, sid]);
    } else headers.push([name, value]);
  }
  if (peer.token && auth && tpl.request.method !== 'OPTIONS') {
    const at = headers.findIndex(([n]) => n.toLowerCase() === 'origin');
    const cl = headers.findIndex(([n]) => n.toLowerCase() === 'content-length');
    headers.splice(at >= 0 ? at + 1 : cl >= 0 ? cl : headers.length, 0, ['Authorization', `Bearer ${peer.token}`]);
  }
  return { method: tpl.request.method, url: url.href, headers, body };
}

/** The initialize result's protocolVersion in a JSON or SSE body, if any. */
function negotiated(response) {
  if (response?.status !== 200 || !response.body) return undefined;
  const candidates = [
    response.body,
    ...response.body
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5)),
  ];
  for (const text of candidates) {
    try {
      const v = JSON.parse(text)?.result?.protocolVersion;
      if (typeof v === 'string') return v;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}

async function capture(peer, tpl, file, sid, opts) {
  const req = request(tpl, peer, sid, opts);
  const got = await send(req);
  const doc = {
    format: 'mcp-exchange/1',
    case: tpl.case,
    description: tpl.description,
    server: { stack: peer.stack, sdk: peer.sdk },
    vantage: 'direct',
    protocol_version: tpl.protocol_version,
    request: req,
    response: got.response,
  };
  if (got.transport_error) Object.assign(doc, { transport_error: got.transport_error, transport_error_detail: got.transport_error_detail });
  const version = /^(init|N_init_negotiation|AUTH)/.test(tpl.case) ? negotiated(got.response) : undefined;
  if (version) doc.negotiated_version = version;
  writeFileSync(join(OUT, peer.stack, file), `${JSON.stringify(doc, null, 1)}\n`);
  return got.response;
}

async function capturePeer(peer) {
  const stateful = peer.extra.includes('--stateful');
  const folder = stateful ? TEMPLATES.stateful : TEMPLATES.stateless;
  const files = readdirSync(join(SHARED, folder))
    .filter((f) => f.endsWith('.json'))
    .sort();
  rmSync(join(OUT, peer.stack), { recursive: true, force: true });
  mkdirSync(join(OUT, peer.stack), { recursive: true });
  const done = new Set();
  const skipped = files.filter((f) => SKIPPED.test(f));
  const notes = [];
  for (const version of VERSIONS) {
    let sid = null;
    for (const name of SESSION_CASES) {
      const file = `${name}.pv${version}.json`;
      const tpl = template(folder, file);
      if (!tpl) continue;
      const response = await capture(peer, tpl, file, sid);
      done.add(file);
      if (name === 'init') {
        const h = response?.headers.find(([n]) => n.toLowerCase() === 'mcp-session-id');
        sid = h ? h[1] : null;
        if (stateful && !sid) notes.push(`pv${version}: initialize returned no Mcp-Session-Id`);
      }
      if (name === 'tools_list' && version === VERSIONS[0]) {
        for (const d of DERIVED) {
          const tpl = structuredClone(template(folder, file));
          tpl.case = d.name;
          tpl.description = d.description;
          tpl.request.headers = tpl.request.headers.map(([n, v]) => [n, n.toLowerCase() === d.header ? d.value : v]);
          const out = `${d.name}.pv${version}.json`;
          await capture(peer, tpl, out, sid);
          done.add(out);
        }
      }
    }
  }
  for (const file of files) {
    if (done.has(file) || SKIPPED.test(file)) continue;
    await capture(peer, template(folder, file), file, null);
    done.add(file);
  }
  if (peer.token) {
    for (const file of ['AUTH1_no_token.pv2025-06-18.json', 'AUTH2_wrong_token.pv2025-06-18.json']) {
      await capture(peer, template(TEMPLATES.auth, file), file, null, { auth: false });
      done.add(file);
    }
  }
  return { written: done.size, skipped, notes };
}

// ---- main ----
let failed = false;
try {
  mkdirSync(OUT, { recursive: true });
  for (const peer of PEERS) {
    const child = await startPeer(peer);
    try {
      const { written, skipped, notes } = await capturePeer(peer);
      console.log(`${peer.stack}: ${written} files (skipped ${skipped.length}: ${skipped.join(' ') || '-'})${notes.length ? `; ${notes.join('; ')}` : ''}`);
    } finally {
      await stopPeer(child);
    }
  }
} catch (e) {
  failed = true;
  console.error(e?.stack ? e.stack : e);
} finally {
  killAll();
}
process.exit(failed ? 1 : 0);
