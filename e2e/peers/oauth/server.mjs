// An OAuth-protected MCP server of ours for the sign-in check's tests, in front of a real
// authorization server on the next port:
//   --as sdk    the TypeScript SDK 1.32.2 demo OAuth server (setupAuthServer; CORS on metadata,
//               registration and token), the metadata router and bearer middleware of the SDK
//   --as renew  the SDK's authorization router (mcpAuthRouter) over its demo provider, given what
//               the demo lacks: refresh tokens, rotated on use. For the sign-in's renewals:
//               --expire-after N  an access token issued for a code stops working after N requests
//                                 to /mcp (401 invalid_token, "Token has expired"), one issued for
//                                 a refresh token does not: expiry mid-run without a clock
//               --step-up         tools/call needs scope "mcp:tools mcp:call" (403
//                                 insufficient_scope naming it), everything else "mcp:tools"
//               GET /__grants on the authorization server lists the grants it answered, with the
//               tokens it gave (the leak checks' sentinels).
//   --as oidc   oidc-provider 9 (dynamic registration, resource indicators, dev interactions;
//               discovery open to any origin, no CORS on registration, token CORS per client);
//               --client ID=REDIRECT registers a public client beforehand
// The MCP endpoint (Streamable HTTP, stateless, one read-only tool) allows any origin by CORS and
// exposes WWW-Authenticate, as a server meant for browser clients must; without a valid token it
// answers 401 naming its protected resource metadata. Tokens are checked by the authorization
// server itself (the SDK demo's introspection, oidc-provider's token store).
//   node e2e/peers/oauth/server.mjs --as oidc --port 18950     (authorization server on 18951)
import cors from 'cors';
import express from 'express';
import Provider, { errors } from 'oidc-provider';
import { randomUUID } from 'node:crypto';
import { DemoInMemoryAuthProvider, setupAuthServer } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
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

// The scopes a request to /mcp needs (the SDK's bearer middleware names them in its challenges).
let requiredScopes = [];
let callScopes = null;
let verifier;
let peek;
if (kind === 'renew') {
  const expireAfter = Number(arg('expire-after', '0'));
  if (process.argv.includes('--step-up')) callScopes = ['mcp:tools', 'mcp:call'];
  requiredScopes = ['mcp:tools'];
  const grants = [];
  // The demo provider, with refresh tokens: each use of one rotates it.
  class RenewingProvider extends DemoInMemoryAuthProvider {
    constructor() {
      super((resource) => resource !== undefined && resource.href === mcpUrl.href);
      this.refreshTokens = new Map();
    }
    refreshFor(client, access) {
      const data = this.tokens.get(access);
      const refresh = randomUUID();
      this.refreshTokens.set(refresh, { clientId: client.client_id, scopes: data.scopes, resource: data.resource });
      return refresh;
    }
    async exchangeAuthorizationCode(client, code, verifier, redirectUri, resource) {
      const tokens = await super.exchangeAuthorizationCode(client, code, verifier, redirectUri, resource);
      const answer = { ...tokens, refresh_token: this.refreshFor(client, tokens.access_token) };
      grants.push({ grant: 'authorization_code', ...answer });
      return answer;
    }
    async exchangeRefreshToken(client, refreshToken) {
      const data = this.refreshTokens.get(refreshToken);
      if (!data || data.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
      this.refreshTokens.delete(refreshToken);
      const token = randomUUID();
      this.tokens.set(token, {
        token,
        clientId: client.client_id,
        scopes: data.scopes,
        expiresAt: Date.now() + 3600000,
        resource: data.resource,
        type: 'access',
        refreshed: true,
      });
      const answer = {
        access_token: token,
        token_type: 'bearer',
        expires_in: 3600,
        scope: data.scopes.join(' '),
        refresh_token: this.refreshFor(client, token),
      };
      grants.push({ grant: 'refresh_token', ...answer });
      return answer;
    }
  }
  const provider = new RenewingProvider();
  const authApp = express();
  authApp.use(express.urlencoded({ extended: false }));
  const scopesSupported = ['mcp:tools', 'mcp:call'];
  authApp.use(mcpAuthRouter({ provider, issuerUrl: new URL(issuer), scopesSupported }));
  authApp.get('/__grants', (_req, res) => res.json(grants));
  authApp.listen(asPort);
  const oauthMetadata = createOAuthMetadata({ provider, issuerUrl: new URL(issuer), scopesSupported });
  app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported, resourceName: 'MCP Triage OAuth peer (renewals)' }));
  const uses = new Map();
  const look = (token, count) => {
    const data = provider.tokens.get(token);
    if (!data) throw new InvalidTokenError('invalid or expired token');
    const n = (uses.get(token) || 0) + (count ? 1 : 0);
    uses.set(token, n);
    if (expireAfter > 0 && !data.refreshed && n > expireAfter) throw new InvalidTokenError('Token has expired');
    return { token, clientId: data.clientId, scopes: data.scopes, expiresAt: Math.floor(data.expiresAt / 1000), resource: data.resource };
  };
  verifier = { verifyAccessToken: async (token) => look(token, true) };
  peek = { verifyAccessToken: async (token) => look(token, false) };
} else if (kind === 'sdk') {
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
      return {
        token,
        clientId: data.client_id,
        scopes: data.scope ? data.scope.split(' ') : [],
        expiresAt: data.exp,
        resource: data.aud ? new URL([data.aud].flat()[0]) : undefined,
      };
    },
  };
} else if (kind === 'oidc') {
  // --client ID=REDIRECT: a public client registered beforehand (a page's pasted client id).
  const given = arg('client', '');
  const clients = given
    ? [
        {
          client_id: given.split('=')[0],
          redirect_uris: [given.slice(given.indexOf('=') + 1)],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ]
    : [];
  const provider = new Provider(issuer, {
    clients,
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
  console.error(`unknown --as ${kind}: sdk, renew or oidc`);
  process.exit(2);
}

const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
const auth = requireBearerAuth({ verifier, requiredScopes, resourceMetadataUrl, expectedResource: mcpUrl });
// --step-up: a second look at a tools/call's token, for the larger scope (not counted as a use).
const callAuth =
  callScopes &&
  requireBearerAuth({
    verifier: peek,
    requiredScopes: callScopes,
    resourceMetadataUrl,
    expectedResource: mcpUrl,
  });
const forCalls = (req, res, next) => (callAuth && req.body?.method === 'tools/call' ? callAuth(req, res, next) : next());

app.all('/mcp', auth, forCalls, async (req, res) => {
  const server = new McpServer({ name: `mcp-triage-oauth-peer-${kind}`, version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text.',
      inputSchema: { text: (await import('zod')).z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});

app.listen(port, () => console.log(`oauth peer (${kind}) on ${mcpUrl.href}, authorization server ${issuer}`));
