// Hand-written servers for what no real MCP server does on purpose, for the census's tests and its
// scale benchmark. Every port of --ports serves every mode, chosen by the path's first segment:
//   /hang/…     accepts the request and never answers (the census's deadline ends it)
//   /garbage/…  200 with a body that is neither JSON nor SSE
//   /reset/…    destroys the connection before any answer
//   /fast/…     a tiny synthetic MCP server (initialize, tools/list with one annotated tool, an
//               unknown tool as a JSON-RPC -32602 error; GET and DELETE 405): the scale benchmark's
//               targets, not a stand-in for a real SDK in the tests
//   GET /__stats  per port: requests, the most in flight at once, the User-Agents seen, and the
//               tools called on /fast by name
//   node e2e/census-faults.mjs --ports 18701,18702
import { createServer } from 'node:http';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const ports = arg('ports', '18701').split(',').map(Number);
const MAX_AGENTS = 16;

function serve(port) {
  const stats = { requests: 0, in_flight: 0, max_in_flight: 0, user_agents: [], tools_called: {} };
  const server = createServer((req, res) => {
    if (req.url === '/__stats') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    stats.requests += 1;
    stats.in_flight += 1;
    stats.max_in_flight = Math.max(stats.max_in_flight, stats.in_flight);
    const ua = req.headers['user-agent'] || '';
    if (!stats.user_agents.includes(ua) && stats.user_agents.length < MAX_AGENTS) stats.user_agents.push(ua);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        stats.in_flight -= 1;
      }
    };
    res.on('close', finish);
    req.on('close', () => {
      if (res.writableEnded || req.socket.destroyed) finish();
    });
    const mode = req.url.split('/')[1];
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (mode === 'hang') return;
      if (mode === 'reset') {
        req.socket.destroy();
        finish();
        return;
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('%%% this is not JSON-RPC %%%');
        return;
      }
      if (mode === 'fast') return fast(req, res, Buffer.concat(chunks).toString('utf8'), stats);
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    });
  });
  server.listen(port, '127.0.0.1');
}

function fast(req, res, body, stats) {
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'POST' });
    res.end();
    return;
  }
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    res.writeHead(400);
    res.end();
    return;
  }
  if (msg.id === undefined) {
    res.writeHead(202);
    res.end();
    return;
  }
  const reply = (payload) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...payload }));
  };
  switch (msg.method) {
    case 'initialize':
      return reply({
        result: {
          protocolVersion: msg.params?.protocolVersion ?? '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'census-synthetic', version: '1' },
        },
      });
    case 'tools/list':
      return reply({
        result: {
          tools: [
            {
              name: 'echo',
              inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
              annotations: { readOnlyHint: true },
            },
          ],
        },
      });
    case 'tools/call': {
      const name = String(msg.params?.name).slice(0, 64);
      if (name === 'echo' || Object.keys(stats.tools_called).length < 64) stats.tools_called[name] = (stats.tools_called[name] || 0) + 1;
      if (name === 'echo') return reply({ result: { content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? '') }] } });
      return reply({ error: { code: -32602, message: `Unknown tool: ${msg.params?.name}` } });
    }
    default:
      return reply({ error: { code: -32601, message: 'Method not found' } });
  }
}

for (const p of ports) serve(p);
