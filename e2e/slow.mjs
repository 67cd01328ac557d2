// A real HTTP server that misbehaves in size and time, for the fetch module's tests (wasm-bindgen
// tests in Chromium call it cross-origin, so it allows any origin; it never sees credentials).
//   node e2e/slow.mjs --port 18820
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 18820);
const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': '*',
};
const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
const result = (id) => JSON.stringify({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'split' }] } });

createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors);
    res.end();
    return;
  }
  const path = (req.url || '').split('?')[0];
  const timers = [];
  req.on('close', () => timers.forEach(clearInterval));
  switch (path) {
    case '/big': {
      // 50 MiB of JSON-ish bytes, with a Content-Length
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024) });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
      };
      res.on('drain', pump);
      pump();
      break;
    }
    case '/big-chunked': {
      // the same without a length
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
      };
      res.on('drain', pump);
      pump();
      break;
    }
    case '/gzip-bomb':
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(bomb);
      break;
    case '/comments': // endless SSE comments
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      timers.push(setInterval(() => res.write(': keepalive\n\n'), 50));
      break;
    case '/drip': // one byte at a time, slowly
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      timers.push(setInterval(() => res.write('d'), 800));
      break;
    case '/long-line': // 10 MiB without a newline
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      res.write('data: ');
      res.end(Buffer.alloc(10 * 1024 * 1024, 0x62));
      break;
    case '/silent': // SSE headers, then nothing
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      res.flushHeaders();
      break;
    case '/redirect':
      res.writeHead(307, { ...cors, Location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
      break;
    case '/split': {
      // our response split across many small chunks, after a server request
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      const text = `event: message\ndata: {"jsonrpc":"2.0","id":"s1","method":"ping"}\n\nevent: message\r\ndata: ${result(7)}\r\n\r\n`;
      let i = 0;
      timers.push(
        setInterval(() => {
          res.write(text.slice(i, i + 5));
          i += 5;
          if (i >= text.length) {
            timers.forEach(clearInterval);
            res.end();
          }
        }, 2),
      );
      break;
    }
    case '/slow':
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
      timers.push(setInterval(() => res.write(': wait\n\n'), 100));
      break;
    default:
      res.writeHead(404, cors);
      res.end();
  }
}).listen(port, '127.0.0.1', () => console.log(`slow server on http://127.0.0.1:${port}`));
