// A hostile protected resource and authorization server for the OAuth doctor's tests: behaviour no
// real server produces on purpose. Every MCP request gets a 401 naming this server's resource
// metadata; the case is the first path segment (/CASE/mcp), and each case breaks one thing:
//   good             a conforming PRM and authorization server metadata (the baseline)
//   issuer-mismatch  the AS metadata's issuer is not the issuer its URL was built from
//   bad-endpoints    authorization_endpoint javascript:…, token_endpoint on another origin
//   no-pkce          no code_challenge_methods_supported
//   prm-huge         the PRM is a 5 MB JSON document
//   prm-redirect     the PRM answers 302 to another origin (the "elsewhere" port)
//   prm-loop         the PRM answers 302 to itself
//   prm-not-json     the PRM is an HTML page
//   private-as       the PRM names an authorization server at a private address literal
//   loopback-as      the PRM names one at a loopback literal on the "elsewhere" port (the endpoint
//                    is reached as localhost, a name, so neither may be fetched)
//   iss-mismatch     signs in, but its callback names another issuer in iss (RFC 9207)
//   no-state         signs in, but its callback drops state
//   js-authorize     authorization_endpoint javascript:…, the rest conforming
//   as-no-cors       a conforming setup whose authorization server metadata has no CORS (a page
//                    cannot read it; the OpenID places after it are tried)
// Everything on the main port but that allows any origin by CORS and exposes WWW-Authenticate, so a
// page reads what a command-line client reads. A second port ("elsewhere", --port + 1) answers 200
// to anything, without CORS, and only records it.
// Each case's authorization server also signs in (for --oauth): POST /CASE/register gives a client
// id, GET /CASE/authorize sends the browser back to its redirect_uri with a code (and the case's
// fault), POST /CASE/token gives tokens made from --sentinel S (access S-access, refresh S-refresh,
// code S-code), so a test knows every secret it must never find in an output.
//   GET /__log  on either port: every request it received [{method, path, authorization}]
//   node e2e/auth-hostile.mjs --port 18940
import { createServer } from 'node:http';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const port = Number(arg('port', '18940'));
const sentinel = arg('sentinel', 'mcptriageSENTINEL_hostile');
const elsewherePort = port + 1;
const base = `http://localhost:${port}`;
const elsewhere = `http://localhost:${elsewherePort}`;

function logged(log, req, body = null) {
  if (log.length < 1000) {
    log.push({ method: req.method, path: req.url, authorization: req.headers.authorization ?? null, body });
  }
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'WWW-Authenticate' };

function json(res, status, value, headers = CORS) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body);
}

function asMetadata(c) {
  const issuer = `${base}/${c}`;
  const doc = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['mcp:tools'],
  };
  if (c === 'issuer-mismatch') doc.issuer = `${base}/someone-else`;
  if (c === 'bad-endpoints') {
    doc.authorization_endpoint = 'javascript:alert(document.domain)//';
    doc.token_endpoint = `${elsewhere}/token`;
  }
  if (c === 'no-pkce') delete doc.code_challenge_methods_supported;
  if (c === 'js-authorize') doc.authorization_endpoint = 'javascript:alert(document.domain)//';
  return doc;
}

const log = [];
const server = createServer(async (req, res) => {
  const url = new URL(req.url, base);
  const path = url.pathname;
  if (path === '/__log') return json(res, 200, log);
  let body = '';
  for await (const chunk of req) if (body.length < 65536) body += chunk;
  logged(log, req, body || null);
  const signIn = path.match(/^\/([a-z-]+)\/(register|authorize|token)$/);
  if (signIn && req.method !== 'OPTIONS') {
    const [, c, step] = signIn;
    if (step === 'register') {
      let asked = {};
      try {
        asked = JSON.parse(body || '{}');
      } catch {
        /* not JSON: registered all the same */
      }
      return json(res, 201, { client_id: `hostile-client-${c}`, redirect_uris: asked?.redirect_uris ?? [] });
    }
    if (step === 'token')
      return json(res, 200, { access_token: `${sentinel}-access`, refresh_token: `${sentinel}-refresh`, token_type: 'Bearer', expires_in: 3600 });
    if (!URL.canParse(url.searchParams.get('redirect_uri') ?? '')) return json(res, 400, { error: 'invalid_request' });
    const back = new URL(url.searchParams.get('redirect_uri'));
    back.searchParams.set('code', `${sentinel}-code`);
    if (c !== 'no-state') back.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (c === 'iss-mismatch') back.searchParams.set('iss', elsewhere);
    res.writeHead(302, { Location: back.toString() });
    return res.end();
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...CORS,
      'Access-Control-Allow-Methods': 'GET, POST, DELETE',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] || '',
    });
    return res.end();
  }
  const prm = path.match(/^\/\.well-known\/oauth-protected-resource\/([a-z-]+)\/mcp$/);
  if (prm) {
    const c = prm[1];
    if (c === 'prm-huge') {
      res.writeHead(200, { 'Content-Type': 'application/json', ...CORS });
      res.write(`{"resource":"${base}/${c}/mcp","padding":"`);
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 80; i++) res.write(chunk);
      return res.end('"}');
    }
    if (c === 'prm-redirect') {
      res.writeHead(302, { Location: `${elsewhere}/prm`, ...CORS });
      return res.end();
    }
    if (c === 'prm-loop') {
      res.writeHead(302, { Location: req.url, ...CORS });
      return res.end();
    }
    if (c === 'prm-not-json') {
      res.writeHead(200, { 'Content-Type': 'text/html', ...CORS });
      return res.end("<html><body><img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>Sign in</body></html>");
    }
    const servers = c === 'private-as' ? ['https://10.20.30.40/'] : c === 'loopback-as' ? [`http://127.0.0.1:${elsewherePort}/`] : [`${base}/${c}`];
    return json(res, 200, { resource: `${base}/${c}/mcp`, authorization_servers: servers, scopes_supported: ['mcp:tools'] });
  }
  const as = path.match(/^\/\.well-known\/oauth-authorization-server\/([a-z-]+)$/);
  if (as) return json(res, 200, asMetadata(as[1]), as[1] === 'as-no-cors' ? {} : CORS);
  const mcp = path.match(/^\/([a-z-]+)\/mcp$/);
  if (mcp) {
    const challenge = `Bearer error="invalid_token", scope="mcp:tools", resource_metadata="${base}/.well-known/oauth-protected-resource/${mcp[1]}/mcp"`;
    // The token it was sent, echoed back: redaction must take it out of every output.
    return json(
      res,
      401,
      { error: 'invalid_token', received: (req.headers.authorization ?? '').replace(/^Bearer /, '') },
      { ...CORS, 'WWW-Authenticate': challenge },
    );
  }
  return json(res, 404, { error: 'not_found' });
});
server.listen(port, () => console.log(`auth hostile server on ${base}`));

const elsewhereLog = [];
const other = createServer((req, res) => {
  if (req.url === '/__log') return json(res, 200, elsewhereLog);
  logged(elsewhereLog, req);
  json(res, 200, { issuer: elsewhere }, {});
});
other.listen(elsewherePort);
