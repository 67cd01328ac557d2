// A small static file server for dist/ (README command 1 and the browser tests): correct MIME types,
// no directory listing, no path traversal, and the headers a meta tag cannot carry.
//
//   node scripts/serve.mjs [--dir dist] [--port 8080] [--host 127.0.0.1] [--demo-endpoint URL] [--gzip]
//   --demo-endpoint: answer demo.json (the page's demo endpoint and token hint) from memory, so
//   ./x dev never writes into dist/.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const root = resolve(arg('dir', 'dist'));
const port = Number(arg('port', '8080'));
const host = arg('host', '127.0.0.1');
// --prefix /sub/: serve the folder under a sub-path only (proves the relative asset URLs).
const prefix = arg('prefix', '/');
// --plain: no security headers, like a bare static host (tests use it to prove the page defends itself).
const plain = process.argv.includes('--plain');
// --gzip: answer gzip -9 to a client that accepts it, like a production host (the benchmark).
const gzip = process.argv.includes('--gzip');
const gzipped = new Map();
const demoEndpoint = arg('demo-endpoint', '');
const demoFile = demoEndpoint
  ? Buffer.from(JSON.stringify({ endpoint: demoEndpoint, token_hint: 'demo-token', server: 'TypeScript SDK 1.29.0 McpServer' }))
  : null;
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

const server = createServer(async (req, res) => {
  const headers = plain
    ? {}
    : {
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "frame-ancestors 'none'",
        'Cache-Control': 'no-store',
      };
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!full.startsWith(prefix) && full !== prefix.replace(/\/$/, '')) {
      res.writeHead(404, headers).end();
      return;
    }
    const path = `/${full.slice(prefix.length)}`;
    if (demoFile && path === '/demo.json') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : demoFile);
      return;
    }
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403, headers).end();
      return;
    }
    if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
    let body = await readFile(file);
    const type = { 'Content-Type': types[extname(file)] || 'application/octet-stream' };
    const accepts = (req.headers['accept-encoding'] || '').split(',').some((e) => {
      const [coding, ...params] = e.split(';').map((x) => x.trim());
      const q = params.find((x) => x.startsWith('q='));
      return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
    });
    if (gzip && accepts && extname(file) in types) {
      const key = `${file}:${(await stat(file)).mtimeMs}`;
      if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
      body = gzipped.get(key);
      type['Content-Encoding'] = 'gzip';
      type.Vary = 'Accept-Encoding';
    }
    res.writeHead(200, { ...headers, ...type });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
  }
});
server.listen(port, host, () => console.log(`serving ${root} on http://${host}:${port}/`));
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
