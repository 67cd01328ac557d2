// An OAuth-protected MCP server of ours for the sign-in check's tests, in front of a real
// authorization server on the next port:
//   --as sdk    the TypeScript SDK 1.32.2 demo OAuth server (setupAuthServer; CORS on metadata,
//               registration and token), the metadata router and bearer middleware of the SDK
//   --as oidc   oidc-provider 9 (dynamic registration, resource indicators, dev interactions;
//               discovery open to any origin, no CORS on registration, token CORS per client)
// The MCP endpoint (Streamable HTTP, stateless, one read-only tool) allows any origin by CORS and
// exposes WWW-Authenticate, as a server meant for browser clients must; without a valid token it
// answers 401 naming its protected resource metadata. Tokens are checked by the authorization
// server itself (the SDK demo's introspection, oidc-provider's token store).
//   node e2e/peers/oauth/server.mjs --as oidc --port 18950     (authorization server on 18951)
import cors from 'cors';
import express from 'express';
import Provider, { errors } from 'oidc-provider';
import { setupAuthServer } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const kind = arg('as', 'oidc');
const port = Number(arg('port', '18950'));
const asPort = port + 1;
const mcpUrl = new URL(`http://localhost:${port}/mcp`);
const issuer = `http://localhost:${asPort}`;

const app = express();
app.use(cors({ exposedHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version'] }));
app.use(express.json({ limit: '1mb' }));

let verifier;
if (kind === 'sdk') {
  const oauthMetadata = setupAuthServer({ authServerUrl: new URL(issuer), mcpServerUrl: mcpUrl, strictResource: true });
  app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'MCP Triage OAuth peer' }));
  verifier = {
    async verifyAccessToken(token) {
      const r = await fetch(oauthMetadata.introspection_endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
      if (!r.ok) throw new InvalidTokenError('invalid or expired token');
      const data = await r.json();
      return { token, clientId: data.client_id, scopes: data.scope ? data.scope.split(' ') : [], expiresAt: data.exp, resource: data.aud ? new URL([data.aud].flat()[0]) : undefined };
    },
  };
} else if (kind === 'oidc') {
  const provider = new Provider(issuer, {
    clients: [],
    scopes: ['openid', 'mcp:tools'],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl.href,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resource) {
          if (resource !== mcpUrl.href) throw new errors.InvalidTarget();
          return { scope: 'mcp:tools', accessTokenFormat: 'opaque' };
        },
      },
    },
  });
  provider.listen(asPort);
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: mcpUrl.href, authorization_servers: [issuer], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] });
  });
  verifier = {
    async verifyAccessToken(token) {
      const t = await provider.AccessToken.find(token);
      if (!t || t.aud !== mcpUrl.href) throw new InvalidTokenError('invalid or expired token');
      return { token, clientId: t.clientId, scopes: (t.scope || '').split(' ').filter(Boolean), expiresAt: t.exp, resource: mcpUrl };
    },
  };
} else {
  console.error(`unknown --as ${kind}: sdk or oidc`);
  process.exit(2);
}

const auth = requireBearerAuth({ verifier, requiredScopes: [], resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), expectedResource: mcpUrl });

app.all('/mcp', auth, async (req, res) => {
  const server = new McpServer({ name: `mcp-triage-oauth-peer-${kind}`, version: '1.0.0' });
  server.registerTool('echo', {
    description: 'Echoes its text.',
    inputSchema: { text: (await import('zod')).z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});

app.listen(port, () => console.log(`oauth peer (${kind}) on ${mcpUrl.href}, authorization server ${issuer}`));
