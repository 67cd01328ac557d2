// The MCP Triage demo server: a real MCP server built with @modelcontextprotocol/sdk 1.29.0 (the version
// the seed studied), McpServer over Streamable HTTP, behind the SDK's own bearer-token middleware, with
// CORS for the app's origin. Its tools reproduce the seed's failures.
//
//   node demo/server.mjs [--port 8787] [--host 127.0.0.1] [--token demo-token]
//                        [--origins http://127.0.0.1:8080,http://localhost:8080] [--stateful]
//                        [--allowed-hosts a.example,b.example] [--max-sessions 100] [--sdk DIR]
//   Safe by default: it answers only requests whose Host header names a loopback name (the SDK's
//   host validation, against DNS rebinding), or --allowed-hosts; a --host that is not loopback is
//   refused unless an explicit --token other than the public demo token is given; a stateful server
//   keeps at most --max-sessions sessions (the least recently used one is closed to make room).
//   Test-only switches (the browser tests start misconfigured real servers with them):
//     --cors full|none|no-authorization|no-protocol-version|no-expose-session|legacy-headers|error-without-cors
//                          (legacy-headers: Mcp-Method and Mcp-Name not allowed, as most servers before 2026-07-28;
//                          error-without-cors: every POST is answered 500 before CORS runs, as a crashed
//                          handler whose error answer skips the CORS middleware)
//     --tool-delay-ms N    tools/call handlers wait N ms (a slow backend, for Cancel)
//     --slow-tool          one more tool, wait_forever (no annotations), that prints "called
//                          wait_forever" when its call arrives and never answers (a mid-call kill)
//     --stats              GET /__stats reports requests per method and tool calls per name
//     --unannotated        the read tools (lead_get, icp_list, echo) declare no annotations, as most
//                          servers in the wild: Quick check reaches its consent step
//     --write-like         only tools with write words in their names that fit probes B, C and D
//                          best by schema (delete_lead, sendEmail, crm-sync), none annotated
//     --invalid-params-error  the same tools on the SDK's low-level Server, whose tools/call answers
//                          arguments that fail the tool's schema with a JSON-RPC -32602 error (the
//                          SDK's McpError) and everything else as McpServer does (an unknown tool and
//                          a thrown error as isError with the same words): only probe B differs
import { randomUUID } from 'node:crypto';
import express from 'express';
import cors from 'cors';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { registerDemoTools } from './tools.mjs';

// --help: this file's usage (its opening comment), without starting anything.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const usage = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0];
  console.log(usage.replace(/^\/\/ ?/gm, ''));
  process.exit(0);
}

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
// The SDK: the demo's own 1.29.0, or (--sdk DIR, for the ecosystem tests) another locked copy.
const sdkDir = resolve(arg('sdk', join(dirname(fileURLToPath(import.meta.url)), 'node_modules/@modelcontextprotocol/sdk')));
const sdkVersion = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')).version;
const sdk = (path) => import(pathToFileURL(join(sdkDir, 'dist/esm', path)).href);
const { McpServer } = await sdk('server/mcp.js');
const { Server } = await sdk('server/index.js');
const { ListToolsRequestSchema, CallToolRequestSchema, McpError, ErrorCode } = await sdk('types.js');
const { StreamableHTTPServerTransport } = await sdk('server/streamableHttp.js');
const { requireBearerAuth } = await sdk('server/auth/middleware/bearerAuth.js');
const { InvalidTokenError } = await sdk('server/auth/errors.js');
const { hostHeaderValidation } = await sdk('server/middleware/hostHeaderValidation.js');
const port = Number(arg('port', process.env.DEMO_PORT || '8787'));
const host = arg('host', '127.0.0.1');
const explicitToken = arg('token', process.env.DEMO_TOKEN || '');
const token = explicitToken || 'demo-token';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];
const loopbackBind = LOOPBACK_NAMES.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
if (!loopbackBind && (!explicitToken || explicitToken === 'demo-token')) {
  console.error(
    `demo server: refusing --host ${host}: it is not a loopback address, and the demo token is public. ` +
      'Give your own --token (or DEMO_TOKEN) to serve beyond this machine.',
  );
  process.exit(2);
}
const allowedHosts = arg('allowed-hosts', '')
  .split(',')
  .map((h) => h.trim())
  .filter(Boolean);
const hostNames = allowedHosts.length ? allowedHosts : loopbackBind ? ['localhost', '127.0.0.1', '[::1]'] : [host];
const maxSessions = Math.max(1, Number(arg('max-sessions', '100')) || 100);
const origins = arg('origins', process.env.DEMO_ORIGINS || 'http://127.0.0.1:8080,http://localhost:8080')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
const stateful = process.argv.includes('--stateful');
const base = `http://${host}:${port}`;
const corsMode = arg('cors', 'full');
const toolDelay = Number(arg('tool-delay-ms', '0'));
const withStats = process.argv.includes('--stats');
const slowTool = process.argv.includes('--slow-tool');
const unannotated = process.argv.includes('--unannotated');
const writeLike = process.argv.includes('--write-like');
const invalidParamsError = process.argv.includes('--invalid-params-error');
const stats = { methods: {}, tools: {} };
const pause = () => new Promise((resolve) => setTimeout(resolve, toolDelay));

function buildServer() {
  if (invalidParamsError) return buildLowLevelServer();
  const server = new McpServer({ name: 'mcp-triage-demo', version: sdkVersion });
  registerDemoTools(server, { unannotated, writeLike, pause });
  if (slowTool) {
    server.registerTool('wait_forever', { description: 'Never answers.' }, async () => {
      console.log('called wait_forever');
      return new Promise(() => {});
    });
  }
  return server;
}

// --invalid-params-error: the demo's tools on the low-level Server (see the switch above).
function buildLowLevelServer() {
  const tools = new Map();
  registerDemoTools({ registerTool: (name, config, handler) => tools.set(name, { config, handler }) }, { unannotated, writeLike, pause });
  const server = new Server({ name: 'mcp-triage-demo', version: sdkVersion }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools].map(([name, { config }]) => ({
      name,
      description: config.description,
      inputSchema: zodToJsonSchema(z.object(config.inputSchema), { strictUnions: true }),
      ...(config.annotations ? { annotations: config.annotations } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const tool = tools.get(name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `MCP error -32602: Tool ${name} not found` }] };
    const parsed = z.object(tool.config.inputSchema).safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for tool ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    try {
      return await tool.handler(parsed.data);
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }] };
    }
  });
  return server;
}

// Stateful sessions, least recently used first (a Map keeps insertion order; a used session moves last).
const sessions = new Map();
const app = express();
app.disable('x-powered-by');
// DNS rebinding: a page on an attacker's name that resolves to this machine sends its own Host.
app.use(hostHeaderValidation(hostNames));
app.use((req, _res, next) => {
  stats.methods[req.method] = (stats.methods[req.method] || 0) + 1;
  next();
});
if (withStats) app.get('/__stats', (_req, res) => res.json({ ...stats, sessions: sessions.size, maxSessions }));
const allowedHeaders = ['Authorization', 'Content-Type', 'Accept', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID'].filter(
  (h) =>
    !(corsMode === 'no-authorization' && h === 'Authorization') &&
    !(corsMode === 'no-protocol-version' && h === 'Mcp-Protocol-Version') &&
    !(corsMode === 'legacy-headers' && (h === 'Mcp-Method' || h === 'Mcp-Name')),
);
const exposedHeaders = ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'WWW-Authenticate'].filter(
  (h) => !(corsMode === 'no-expose-session' && h === 'Mcp-Session-Id'),
);
if (corsMode === 'error-without-cors') {
  app.post('/mcp', (_req, res) => res.status(500).type('text/plain').send('Internal Server Error'));
}
if (corsMode !== 'none') {
  app.use(cors({ origin: origins, allowedHeaders, exposedHeaders, methods: ['GET', 'POST', 'DELETE', 'OPTIONS'], maxAge: 600 }));
}
app.use(express.json({ limit: '1mb' }));

const resourceMetadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
  res.json({ resource: `${base}/mcp`, scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'], resource_name: 'mcp-triage-demo' });
});

const auth = requireBearerAuth({
  verifier: {
    async verifyAccessToken(presented) {
      if (presented !== token) throw new InvalidTokenError('Invalid token');
      return { token: presented, clientId: 'demo', scopes: ['mcp:tools'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    },
  },
  resourceMetadataUrl,
});

app.all('/mcp', auth, async (req, res) => {
  if (req.body && req.body.method === 'tools/call') {
    const name = String(req.body.params?.name);
    stats.tools[name] = (stats.tools[name] || 0) + 1;
  }
  try {
    if (!stateful) {
      const server = buildServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (transport) {
      sessions.delete(sid);
      sessions.set(sid, transport);
    }
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          while (sessions.size >= maxSessions) {
            const [oldest, old] = sessions.entries().next().value;
            sessions.delete(oldest);
            old.close();
          }
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await buildServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  } catch (err) {
    console.error('demo server error:', err);
    if (!res.headersSent) {
      res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
  }
});

// Express 5 hands a listen error to this callback: the server then never listened, so say why and
// exit non-zero (a caller such as `./x dev` must not report a server that is not there).
const listener = app.listen(port, host, (err) => {
  if (err) {
    const why = err.code === 'EADDRINUSE' ? `port ${port} is in use (another demo server?); choose another with --port or DEMO_PORT` : err.message;
    console.error(`demo server: cannot listen on ${host}:${port}: ${why}`);
    process.exit(1);
  }
  console.log(`demo MCP server (TS SDK ${sdkVersion}, ${stateful ? 'stateful' : 'stateless'}) on ${base}/mcp, token required, CORS for ${origins.join(' ')}`);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    listener.close();
    process.exit(0);
  });
}
