// A real HTTP server that misbehaves on purpose, for behaviour no SDK produces: it echoes the token
// back everywhere, redirects, and serves script-shaped text. Modes by path prefix:
//   /echo/mcp      echoes the bearer token in error.message, error.data, content text, a header, HTML
//   /redirect/mcp  307 to another port (which must never see a request)
//   /slash/mcp     307 to /slash/mcp/ on the same origin (a server that serves its path with a slash)
//   /xss/mcp       tool names, error texts and headers shaped like markup and script
//   /leak/FORM/…   echoes the leak sentinels (token, secret header, path) in one FORM of the leak
//                  checker's list, in every place a page reads: error.message, error.data, content
//                  text, structuredContent, serverInfo.name, response headers, HTML and SSE bodies
//   /leak-bytes/FORM/…
//                  the /leak route whose other bodies (all but initialize's and tools/list's) end with
//                  bytes that are not UTF-8 (0xFF 0xFE), so a report keeps them as body_base64
//   /secretish/mcp error texts holding the server's own secret-shaped data (env pairs, a JSON
//                  password, a connection string, a private key, a JWT, long base64 and hex runs)
//   /big/mcp       probes C and D answer 4 MiB text/plain 500 bodies (memory over repeated runs)
//   /controls/mcp  probe C answers 600,000 zero-width characters and probe D 2 MiB of U+0001, as
//                  text/plain 500 bodies (what froze a page that rendered one node per character)
//   /slow/mcp      probe C answers a ~4 MiB text/plain 500 body of U+0001 and U+200B: its first 64 KiB
//                  at once, the rest only when the test asks (GET /__slow/sent waits for the first
//                  chunk; GET /__slow/release sends the rest), so a test can act mid-body
//   /gzip/mcp      the /echo answers gzip-encoded when the request accepts gzip (as compression
//                  middleware does), plain otherwise
//   /gzip-bomb/mcp the /gzip route whose probe C answers a gzip bomb (50 MiB of "x" in ~50 KiB) as a
//                  text/plain 500, whether or not the request accepts gzip
//   /fat/mcp       the /echo answers (JSON, not SSE), each padded to just under the 4 MiB body cap,
//                  and so are its 401 and its GET's 405 (the command line's memory on a whole run)
//   /together/mcp  the /echo answers, but a call of lookup or status (probes B, C, D) is held until
//                  three are held at once, then all are answered: only a client that sends a wave's
//                  requests together gets their answers (no clock: the order of arrivals decides)
//   /silent/mcp    reads every request and never answers (a server hung before `initialize`)
//   /doctor-redirect/CODE/mcp
//                  no CORS headers at all (so every request of a run fails and the CORS doctor runs),
//                  and a CODE redirect (301, 302, 307, 308) for the doctor's no-cors request, which
//                  browsers must follow: the redirect target logs what reaches it (GET /__log)
//   node e2e/hostile.mjs --port N --origin http://127.0.0.1:18081 --redirect-to http://127.0.0.1:M/mcp
//                        [--leak ECHOES.json]   (from `leakcheck echoes`)
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const port = Number(arg('port', '18810'));
const origin = arg('origin', 'http://127.0.0.1:18081');
const redirectTo = arg('redirect-to', 'http://127.0.0.1:18812/mcp');
const leakFile = arg('leak', '');
const ECHOES = leakFile ? JSON.parse(readFileSync(leakFile, 'utf8')) : {};
// Every Referer this server was sent (the page sends none).
const referers = [];
const XSS = [
  '<img src=x onerror=window.__pwned=1>',
  '"><svg onload=window.__pwned=1>',
  '</textarea><script>window.__pwned=1</script>',
  'javascript:window.__pwned=1',
  'bidi \u202Egnp.exe\u202C',
];

const origins = origin.split(',');
const baseCors = {
  'Access-Control-Allow-Origin': origins[0],
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, X-Api-Key, X-Leak-Secret',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate, X-Echo, X-Evil, X-Echo-Header, X-Echo-Path',
  'Access-Control-Max-Age': '600',
};
const cors = baseCors;

function sse(res, message, extraHeaders = {}) {
  res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', ...extraHeaders });
  res.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** The server's own secrets, as a careless server prints them into an error. */
export const SECRETISH = [
  'API_KEY=sk-live-51HxQe2EXAMPLEkey',
  '"db_password": "hunter2-correct-horse"',
  'postgres://app:s3cr3t-pw@db.internal:5432/app',
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXJ2aWNlIn0.c2lnbmF0dXJlLWJ5dGVz',
  'QUtJQUlPU0ZPRE5ON0VYQU1QTEUxMjM0NTY3ODkwYWJjZGVmZ2g=',
  'deadbeefcafebabe0123456789abcdef00112233',
];

function rpc(mode, msg, token) {
  const id = msg.id;
  if (mode === 'secretish' && msg.method === 'tools/call') {
    return { jsonrpc: '2.0', id, error: { code: -32603, message: `Internal error: config dump ${SECRETISH.join(' ')}` } };
  }
  const b64 = Buffer.from(`x${token}y`).toString('base64');
  switch (msg.method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: mode === 'xss' ? XSS[0] : `echo server for ${token}`, version: '0' },
        },
      };
    case 'tools/list': {
      const tools = [
        { name: 'lookup', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, annotations: { readOnlyHint: true } },
        { name: 'status', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
      ];
      if (mode === 'xss') tools.push(...XSS.map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { destructiveHint: true } })));
      return { jsonrpc: '2.0', id, result: { tools } };
    }
    case 'tools/call': {
      const name = msg.params?.name;
      if (name === 'status') {
        return {
          jsonrpc: '2.0',
          id,
          result: { content: [{ type: 'text', text: mode === 'xss' ? XSS.join(' | ') : `ok, your token is ${encodeURIComponent(token)}` }] },
        };
      }
      if (name === 'lookup' && msg.params.arguments && msg.params.arguments.id) {
        return {
          jsonrpc: '2.0',
          id,
          result: {
            isError: true,
            content: [{ type: 'text', text: mode === 'xss' ? XSS[2] : `failed for Bearer ${token}; hex ${Buffer.from(token).toString('hex')}` }],
          },
        };
      }
      return {
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: mode === 'xss' ? XSS[1] : `Unknown tool: ${name} (token ${token})`, data: mode === 'xss' ? XSS[3] : b64 },
      };
    }
    default:
      return id === undefined ? null : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}

/** The raw answer of the leak route: bodies built as text, so each form stands as a writer put it. */
function leakAnswer(req, res, form, body, bytes = false) {
  const end = res.end.bind(res);
  if (bytes) res.end = (t) => end(t === undefined ? t : Buffer.concat([Buffer.from(t), Buffer.from([0xff, 0xfe])]));
  // This route serves several pages (the real build and the leak-control build): allow the caller's
  // origin when it is one of --origin's comma-separated list.
  const cors = { ...baseCors, 'Access-Control-Allow-Origin': origins.includes(req.headers.origin) ? req.headers.origin : origins[0] };
  const e = ECHOES[form];
  if (!e) {
    res.writeHead(404, cors);
    res.end();
    return;
  }
  // Header values: visible Latin-1 only (a non-ASCII letter goes percent-encoded, as servers do).
  const h = (s) => s.replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c));
  const echoHeaders = { 'X-Echo': `Bearer ${h(e.token.plain)}`, 'X-Echo-Header': h(e.header.plain), 'X-Echo-Path': h(e.path.plain) };
  const html = `<html><body><p>token ${e.token.plain}</p><p>header ${e.header.plain}</p><p>path ${e.path.plain}</p></body></html>`;
  if (req.method === 'GET') {
    res.writeHead(405, { ...cors, ...echoHeaders, 'Content-Type': 'text/html' });
    res.end(html);
    return;
  }
  if (!req.headers.authorization) {
    res.writeHead(401, {
      ...cors,
      ...echoHeaders,
      'WWW-Authenticate': `Bearer error="invalid_token", error_description="token ${h(e.token.plain)}"`,
      'Content-Type': 'text/html',
    });
    res.end(html);
    return;
  }
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    res.writeHead(400, cors);
    res.end('bad json');
    return;
  }
  const id = JSON.stringify(msg.id ?? null);
  const json = (text) => {
    res.writeHead(200, { ...cors, ...echoHeaders, 'Content-Type': 'application/json' });
    res.end(text);
  };
  const name = msg.params?.name;
  switch (msg.method) {
    case 'initialize':
      res.end = end;
      return json(
        `{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"leak ${e.token.in_json}","version":"0"}}}`,
      );
    case 'notifications/initialized':
      res.writeHead(202, cors);
      res.end();
      return;
    case 'tools/list':
      res.end = end;
      return json(
        `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"lookup","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"annotations":{"readOnlyHint":true}},{"name":"status","inputSchema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":true}}]}}`,
      );
    case 'tools/call':
      if (name === 'status') {
        // D: an HTML page the page reads as the answer to a POST.
        res.writeHead(500, { ...cors, ...echoHeaders, 'Content-Type': 'text/html' });
        res.end(html);
        return;
      }
      if (name === 'lookup' && msg.params.arguments && msg.params.arguments.id) {
        // C: an SSE frame with isError, content text and structuredContent.
        res.writeHead(200, { ...cors, ...echoHeaders, 'Content-Type': 'text/event-stream' });
        res.end(
          `event: message\ndata: {"jsonrpc":"2.0","id":${id},"result":{"isError":true,"content":[{"type":"text","text":"header ${e.header.in_json} token ${e.token.in_json}"}],"structuredContent":{"header":"${e.header.in_json}","token":"${e.token.in_json}","path":"${e.path.in_json}"}}}\n\n`,
        );
        return;
      }
      if (name === 'lookup') {
        // B: isError with the echo in content text.
        return json(
          `{"jsonrpc":"2.0","id":${id},"result":{"isError":true,"content":[{"type":"text","text":"header ${e.header.in_json} token ${e.token.in_json} path ${e.path.in_json}"}]}}`,
        );
      }
      // A: an error frame with the echo in message and data.
      return json(
        `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Unknown tool: token ${e.token.in_json}","data":"header ${e.header.in_json} path ${e.path.in_json}"}}`,
      );
    default:
      if (msg.id === undefined) {
        res.writeHead(202, cors);
        res.end();
        return;
      }
      return json(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`);
  }
}

// The /together route's held calls.
let held = [];

// The /gzip-bomb route's body, made once when first asked for.
let bomb = null;

// The /slow route's hold: who waits for the first chunk, and how to send the rest.
let slow = { sent: false, waiters: [], release: null };
function slowAnswer(res) {
  const pair = '\u0001\u200B'; // 4 bytes in UTF-8
  res.writeHead(500, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' });
  res.write(pair.repeat(16 * 1024));
  slow.sent = true;
  for (const w of slow.waiters) w();
  slow.waiters = [];
  slow.release = () => res.end(pair.repeat(1_040_000 - 16 * 1024));
}

createServer((req, res) => {
  const mode = (req.url || '').split('/')[1];
  if (req.url === '/__slow/sent') {
    const done = () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"sent":true}');
    };
    if (slow.sent) done();
    else slow.waiters.push(done);
    return;
  }
  if (req.url === '/__slow/release') {
    const release = slow.release;
    slow = { sent: false, waiters: slow.waiters, release: null };
    if (release) release();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ released: Boolean(release) }));
    return;
  }
  if (req.url === '/__referers') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(referers));
    return;
  }
  if (req.headers.referer) referers.push(req.headers.referer);
  if ((mode === 'leak' || mode === 'leak-bytes') && req.method === 'OPTIONS') {
    res.writeHead(204, { ...baseCors, 'Access-Control-Allow-Origin': origins.includes(req.headers.origin) ? req.headers.origin : origins[0] });
    res.end();
    return;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors);
    res.end();
    return;
  }
  if (mode === 'leak' || mode === 'leak-bytes') {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => leakAnswer(req, res, (req.url || '').split('/')[2], body, mode === 'leak-bytes'));
    return;
  }
  if (mode === 'silent') {
    req.resume();
    return;
  }
  if (mode === 'redirect') {
    res.writeHead(307, { ...cors, Location: redirectTo });
    res.end();
    return;
  }
  if (mode === 'slash') {
    res.writeHead(307, { ...cors, Location: '/slash/mcp/' });
    res.end();
    return;
  }
  if (mode === 'doctor-redirect') {
    const code = Number((req.url || '').split('/')[2]);
    if (req.headers['sec-fetch-mode'] === 'no-cors') {
      res.writeHead(code, { Location: `${new URL(redirectTo).origin}/doctor/${code}` });
      res.end();
      return;
    }
    req.resume();
    res.writeHead(req.method === 'OPTIONS' ? 204 : 200, { 'Content-Type': 'application/json' });
    res.end(req.method === 'OPTIONS' ? '' : '{}');
    return;
  }
  const auth = req.headers.authorization || '';
  const token = auth.replace(/^Bearer /, '');
  // /fat: a body of `text` padded with "x" to just under the 4 MiB cap.
  const FAT = 4 * 1024 * 1024 - 1024;
  const fat = (text) => text + 'x'.repeat(Math.max(0, FAT - Buffer.byteLength(text)));
  if (mode === 'fat' && (req.method === 'GET' || !token)) {
    req.resume();
    res.writeHead(req.method === 'GET' ? 405 : 401, { ...cors, 'Content-Type': 'text/html', 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    res.end(fat('<p>no</p>'));
    return;
  }
  if (req.method === 'GET') {
    res.writeHead(405, { ...cors, 'Content-Type': 'text/html' });
    res.end(`<html><body><h1>No GET</h1><p>${mode === 'xss' ? XSS.join(' ') : `token=${token}`}</p></body></html>`);
    return;
  }
  let body = '';
  req.on('data', (d) => {
    body += d;
  });
  req.on('end', () => {
    if (!token) {
      res.writeHead(401, { ...cors, 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Type': 'text/html' });
      res.end(mode === 'xss' ? `<script>window.__pwned=1</script>${XSS.join('')}` : '<p>login required</p>');
      return;
    }
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      res.writeHead(400, cors);
      res.end('bad json');
      return;
    }
    if (mode === 'big' && msg.method === 'tools/call' && msg.params && (msg.params.name === 'status' || msg.params.arguments?.id)) {
      res.writeHead(500, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('x'.repeat(4 * 1024 * 1024));
      return;
    }
    const isC = msg.method === 'tools/call' && msg.params && msg.params.arguments && msg.params.arguments.id;
    if (mode === 'controls' && isC) {
      res.writeHead(500, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('\u200B'.repeat(600000));
      return;
    }
    if (mode === 'controls' && msg.method === 'tools/call' && msg.params && msg.params.name === 'status') {
      res.writeHead(500, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('\u0001'.repeat(2 * 1024 * 1024));
      return;
    }
    if (mode === 'slow' && isC) {
      slowAnswer(res);
      return;
    }
    if (mode === 'together' && msg.method === 'tools/call' && msg.params && ['lookup', 'status'].includes(msg.params.name)) {
      held.push(() => sse(res, rpc(mode, msg, token)));
      if (held.length >= 3) {
        const all = held;
        held = [];
        for (const answer of all) answer();
      }
      return;
    }
    if (mode === 'gzip-bomb' && isC) {
      bomb = bomb || gzipSync(Buffer.alloc(50 * 1024 * 1024, 'x'));
      res.writeHead(500, { ...cors, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Encoding': 'gzip' });
      res.end(bomb);
      return;
    }
    const answer = rpc(mode, msg, token);
    if (!answer) {
      res.writeHead(202, cors);
      res.end();
      return;
    }
    if (mode === 'fat') {
      const json = JSON.stringify(answer);
      // The padding goes in a member of its own: the answer stays the answer.
      const padded = `${json.slice(0, -1)},"pad":"${'x'.repeat(Math.max(0, FAT - json.length - 16))}"}`;
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(padded);
      return;
    }
    if ((mode === 'gzip' || mode === 'gzip-bomb') && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      // X-Gzipped says so where a client that decodes no longer shows Content-Encoding.
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Content-Encoding': 'gzip', 'X-Gzipped': '1' });
      res.end(gzipSync(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
      return;
    }
    sse(res, answer, { 'X-Echo': `Bearer ${token}`, 'X-Evil': mode === 'xss' ? XSS[0] : 'none' });
  });
}).listen(port, '127.0.0.1', () => console.log(`hostile server on http://127.0.0.1:${port}`));

// The redirect target: counts what reaches it from /redirect (it must stay at zero), and logs what
// reaches /doctor/CODE from /doctor-redirect (method, URL, headers, body), for GET /__log.
let hits = 0;
const doctorLog = [];
const targetPort = Number(new URL(redirectTo).port);
createServer((req, res) => {
  if (req.url === '/__hits') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ hits }));
    return;
  }
  if (req.url === '/__log') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(doctorLog));
    return;
  }
  let body = '';
  req.on('data', (d) => {
    body += d;
  });
  req.on('end', () => {
    if ((req.url || '').startsWith('/doctor/')) doctorLog.push({ method: req.method, url: req.url, headers: req.headers, body });
    else hits += 1;
    res.writeHead(200, cors);
    res.end('{}');
  });
}).listen(targetPort, '127.0.0.1');
