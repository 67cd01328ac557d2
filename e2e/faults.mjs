// A fault proxy for the fault table's tests: it stands between an MCP client (the CLI or the page)
// and a real SDK server, breaks ONE kind of request per row, and passes every other request (CORS
// preflights included) through as it came: status, raw header lines (case and repeats), the body
// streamed. The row is the first path segment: /ROW/mcp is forwarded to the upstream's /mcp.
//   targets: initialize  a POST whose JSON body's method is initialize or server/discover
//            call-c      a POST whose body holds mcp-triage-probe-nonexistent (probe C's tools/call)
//            get         a GET                     no-token  a POST without an Authorization header
//   rows:    pass                 nothing is targeted
//            reset-json           no-token: Content-Length of the whole body, half of it, then a TCP RST
//            reset-sse            call-c: chunked, the body up to the middle of its first data: line, RST
//            truncated-chunked    initialize: one chunk of half the body, then FIN without the last chunk
//            stall                call-c: the upstream's head, then no body until the client leaves
//            drip                 call-c: the upstream's body one byte every 100 ms
//            dup-content-type     call-c: Content-Type: text/plain, then the upstream's own Content-Type
//            mixed-case-sse       call-c: Content-Type: Text/Event-Stream; charset=utf-8
//            moved                call-c: 307 to --redirect-to (another origin); the upstream never sees it
//            over-cap             call-c: 1 MiB of SSE comment lines before the upstream's body
//            silent-sse           get: 200 text/event-stream from the proxy itself, then silence
//            close-before-answer  call-c: the request read, the connection closed without a byte
//   GET /__faults  what the rows did, the last 1000: [{row, target, method, action, at}] (at: epoch ms)
//   node e2e/faults.mjs --port 18870 --upstream http://127.0.0.1:8787 [--redirect-to http://127.0.0.1:1/mcp]
import { Agent, createServer, request } from 'node:http';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const port = Number(arg('port', '18870'));
const upstream = new URL(arg('upstream', 'http://127.0.0.1:8787'));
const redirectTo = arg('redirect-to', 'http://127.0.0.1:1/mcp');
const CAP = 1024 * 1024; // the request body, and any upstream body the proxy must hold whole
const agent = new Agent({ keepAlive: true });

const log = [];
function record(row, target, req, action) {
  log.push({ row, target, method: req.method, action, at: Date.now() });
  if (log.length > 1000) log.shift();
}

// Raw header lines as [name, value] pairs, and the edits the rows make to them.
const pairs = (raw) => Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i], raw[2 * i + 1]]);
const is =
  (name) =>
  ([k]) =>
    k.toLowerCase() === name.toLowerCase();
const without = (list, name) => list.filter((p) => !is(name)(p));
/** The first `name` line gets `value` (its name's case kept), later ones go; appended if there was none. */
function replace(list, name, value) {
  const i = list.findIndex(is(name));
  if (i < 0) return [...list, [name, value]];
  return list.flatMap((p, j) => (j === i ? [[p[0], value]] : is(name)(p) ? [] : [p]));
}
const head = (up, list) => `HTTP/1.1 ${up.statusCode} ${up.statusMessage}\r\n${list.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
const chunk = (buf) => (buf.length ? Buffer.concat([Buffer.from(`${buf.length.toString(16)}\r\n`), buf, Buffer.from('\r\n')]) : Buffer.alloc(0));
const cors = (req) => [...(req.headers.origin ? ['Access-Control-Allow-Origin', req.headers.origin] : []), 'Vary', 'Origin'];

/** A stream's whole body, or null past `cap` (then the stream is left paused). */
function readAll(stream, cap) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    const onData = (b) => {
      size += b.length;
      if (size > cap) {
        stream.off('data', onData);
        stream.pause();
        resolve(null);
      } else parts.push(b);
    };
    stream
      .on('data', onData)
      .on('end', () => resolve(Buffer.concat(parts)))
      .on('error', reject);
  });
}
async function readUpstream(up) {
  const body = await readAll(up, CAP);
  if (body === null) {
    up.destroy();
    throw new Error('upstream body over 1 MiB');
  }
  return body;
}

/** The request to the upstream, headers as they came but Host; resolves with its response. */
function forward({ req, res, path, body }) {
  return new Promise((resolve, reject) => {
    const headers = [];
    for (const [k, v] of pairs(req.rawHeaders)) if (!is('host')([k])) headers.push(k, v);
    headers.unshift('Host', upstream.host);
    let upRes;
    const out = request({ host: upstream.hostname, port: upstream.port || 80, method: req.method, path, headers, agent }, (r) => {
      upRes = r;
      resolve(r);
    });
    out.on('error', reject);
    res.on('close', () => {
      if (!upRes?.complete) out.destroy();
    }); // the client went away
    out.end(body);
  });
}
/** Sends `up`'s status with `list` as its header lines through Node (keep-alive kept), nothing added but what HTTP needs, at once. */
function sendHead(res, up, list) {
  res.sendDate = false;
  res.writeHead(up.statusCode, up.statusMessage, list.flat());
  res.flushHeaders(); // a stream's head must not wait for its first event
}
function pipeBody(up, res) {
  up.on('close', () => {
    if (!up.complete) res.destroy();
  });
  up.pipe(res);
}
/** Writes `bytes` on the client's raw socket, then `then(socket)` once they are handed to the kernel. */
function raw(req, bytes, then) {
  const socket = req.socket;
  // A moment between the bytes and the cut, as a server that dies mid-answer leaves it: a reset
  // that overtakes bytes the client has not read yet makes Linux drop them, and the row would
  // become "reset before any answer".
  socket.write(bytes, () =>
    setTimeout(() => {
      if (!socket.destroyed) then(socket);
    }, 250),
  );
}

async function pass(c) {
  const up = await forward(c);
  sendHead(c.res, up, pairs(up.rawHeaders));
  pipeBody(up, c.res);
}

/** Where reset-sse cuts: the middle of the first data: line, -1 while that line's end has not come. */
function dataCut(buf, ended) {
  const text = buf.toString('latin1');
  const m = /(?:^|[\r\n])data:/.exec(text);
  if (!m) return ended ? text.length : -1;
  const start = m.index + m[0].length - 5;
  const end = text.slice(start).search(/[\r\n]/);
  if (end < 0 && !ended) return -1;
  return start + Math.floor((end < 0 ? text.length - start : end) / 2);
}

const PAD_BLOCK = Buffer.from(`: ${'x'.repeat(1021)}\n`.repeat(64)); // 64 lines of 1024 bytes

const ROWS = {
  pass: { target: null },
  'reset-json': {
    target: 'no-token',
    async run(c) {
      const up = await forward(c);
      const body = await readUpstream(up);
      const half = body.subarray(0, body.length >> 1);
      const list = replace(without(pairs(up.rawHeaders), 'Transfer-Encoding'), 'Content-Length', String(body.length));
      c.note(`Content-Length ${body.length}, ${half.length} bytes, then RST`);
      raw(c.req, Buffer.concat([Buffer.from(head(up, list)), half]), (s) => s.resetAndDestroy());
    },
  },
  'reset-sse': {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      let buf = Buffer.alloc(0);
      const cut = await new Promise((resolve, reject) => {
        up.on('data', (b) => {
          buf = Buffer.concat([buf, b]);
          const at = dataCut(buf, false);
          if (at >= 0) resolve(at);
          else if (buf.length > CAP) reject(new Error('no data: line in 1 MiB'));
        })
          .on('end', () => resolve(dataCut(buf, true)))
          .on('error', reject);
      });
      up.destroy();
      const list = replace(without(pairs(up.rawHeaders), 'Content-Length'), 'Transfer-Encoding', 'chunked');
      c.note(`chunked, ${cut} body bytes (mid data: line), then RST`);
      raw(c.req, Buffer.concat([Buffer.from(head(up, list)), chunk(buf.subarray(0, cut))]), (s) => s.resetAndDestroy());
    },
  },
  'truncated-chunked': {
    target: 'initialize',
    async run(c) {
      const up = await forward(c);
      const body = await readUpstream(up);
      const half = body.subarray(0, body.length >> 1);
      const list = replace(without(pairs(up.rawHeaders), 'Content-Length'), 'Transfer-Encoding', 'chunked');
      c.note(`one chunk of ${half.length} of ${body.length} bytes, then FIN without the last chunk`);
      raw(c.req, Buffer.concat([Buffer.from(head(up, list)), chunk(half)]), (s) => s.end());
    },
  },
  stall: {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      sendHead(c.res, up, without(pairs(up.rawHeaders), 'Content-Length'));
      up.resume(); // the body is dropped
      c.note('head, then no body');
    },
  },
  drip: {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      sendHead(c.res, up, without(pairs(up.rawHeaders), 'Content-Length'));
      c.note('body one byte every 100 ms');
      let queue = Buffer.alloc(0);
      let ended = false;
      up.on('data', (b) => {
        queue = Buffer.concat([queue, b]);
        if (queue.length > 65536) up.pause();
      }).on('end', () => {
        ended = true;
      });
      up.on('close', () => {
        if (!up.complete) c.res.destroy();
      });
      const timer = setInterval(() => {
        if (queue.length) {
          c.res.write(queue.subarray(0, 1));
          queue = queue.subarray(1);
          if (queue.length <= 65536) up.resume();
        } else if (ended) {
          clearInterval(timer);
          c.res.end();
        }
      }, 100);
      c.res.on('close', () => clearInterval(timer));
    },
  },
  'dup-content-type': {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      const list = pairs(up.rawHeaders);
      const i = list.findIndex(is('Content-Type'));
      list.splice(i < 0 ? list.length : i, 0, ['Content-Type', 'text/plain']);
      c.note('Content-Type sent twice, text/plain first');
      sendHead(c.res, up, list);
      pipeBody(up, c.res);
    },
  },
  'mixed-case-sse': {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      c.note('Content-Type: Text/Event-Stream; charset=utf-8');
      sendHead(c.res, up, replace(pairs(up.rawHeaders), 'Content-Type', 'Text/Event-Stream; charset=utf-8'));
      pipeBody(up, c.res);
    },
  },
  // Not `redirect`: a path piece of 8 characters or more is hidden from every report, identifiers
  // included (`redirect_refused`), which would defeat the comparison.
  moved: {
    target: 'call-c',
    async run(c) {
      c.note(`307 to ${redirectTo}`);
      c.res.writeHead(307, ['Location', redirectTo, ...cors(c.req), 'Content-Length', '0']);
      c.res.end();
    },
  },
  'over-cap': {
    target: 'call-c',
    async run(c) {
      const up = await forward(c);
      sendHead(c.res, up, without(pairs(up.rawHeaders), 'Content-Length'));
      c.note('1 MiB of SSE comments before the body');
      let blocks = 0;
      const pump = () => {
        while (blocks < 16) {
          blocks++;
          if (!c.res.write(PAD_BLOCK)) {
            c.res.once('drain', pump);
            return;
          }
        }
        pipeBody(up, c.res);
      };
      pump();
    },
  },
  'silent-sse': {
    target: 'get',
    async run(c) {
      c.note('200 text/event-stream, then silence');
      c.res.writeHead(200, ['Content-Type', 'text/event-stream', 'Cache-Control', 'no-cache', ...cors(c.req)]);
      c.res.flushHeaders();
    },
  },
  'close-before-answer': {
    target: 'call-c',
    async run(c) {
      c.note('closed without a byte');
      c.req.socket.destroy();
    },
  },
};

function jsonMethod(body) {
  try {
    const v = JSON.parse(body.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v.method : undefined;
  } catch {
    return undefined;
  }
}
const TARGETS = {
  initialize: (req, body) => req.method === 'POST' && ['initialize', 'server/discover'].includes(jsonMethod(body)),
  'call-c': (req, body) => req.method === 'POST' && body.includes('mcp-triage-probe-nonexistent'),
  get: (req) => req.method === 'GET',
  'no-token': (req) => req.method === 'POST' && req.headers.authorization === undefined,
};

function text(res, status, message, extra = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(`${message}\n`);
}

async function handle(req, res) {
  const m = /^\/([^/?]*)(.*)$/s.exec(req.url || '');
  if (m && m[1] === '__faults' && /^(\?|$)/.test(m[2]) && req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(log));
    return;
  }
  const row = m && Object.hasOwn(ROWS, m[1]) ? m[1] : null;
  if (!row) {
    text(res, 404, `fault proxy: no such row (rows: ${Object.keys(ROWS).join(', ')})`);
    return;
  }
  const path = m[2].startsWith('/') ? m[2] : `/${m[2]}`;
  const body = Number(req.headers['content-length']) > CAP ? null : await readAll(req, CAP);
  if (body === null) {
    text(res, 413, 'fault proxy: request body over 1 MiB', { Connection: 'close' });
    return;
  }
  const { target, run } = ROWS[row];
  const c = { req, res, path, body, note: (action) => record(row, target, req, action) };
  if (target && req.method !== 'OPTIONS' && TARGETS[target](req, body)) await run(c);
  else await pass(c);
}

createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (res.headersSent || req.socket.destroyed) res.destroy();
    else text(res, 502, `fault proxy: upstream error: ${err.message}`);
  });
}).listen(port, '127.0.0.1', () => console.log(`fault proxy on http://127.0.0.1:${port} for ${upstream.origin}`));
