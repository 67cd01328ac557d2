#!/usr/bin/env node
// client-metadata.mjs: writes the page's OAuth Client ID Metadata Document for the address it is
// served at, so a page signs in as that document's URL where an authorization server accepts such
// documents (and registers dynamically elsewhere). The page uses relative URLs and works under any
// sub-path, so the document is written per address, after the build:
//   node scripts/client-metadata.mjs https://owner.github.io/mcp-triage/ dist
// writes dist/client-metadata.json with client_id = its own URL and the page's URL as the only
// redirect URI. The address must be https with a host that is not loopback (an authorization server
// fetches the document over https, and a public document must not name a loopback redirect, which
// anyone could present with a port of their own). A build without an address has no document; the
// page then says so and registers dynamically.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NAME = 'client-metadata.json';

/** The document for a page at `address`, or throws with why not. */
export function documentFor(address) {
  let page;
  try {
    page = new URL(address);
  } catch {
    throw new Error(`not a URL: ${JSON.stringify(address)}`);
  }
  if (page.protocol !== 'https:')
    throw new Error(`the page's address must be https: (an authorization server fetches the document over https), not ${page.protocol}`);
  if (['localhost', '127.0.0.1', '[::1]'].includes(page.hostname) || page.hostname.endsWith('.localhost')) {
    throw new Error('a loopback address cannot serve a public client document: the page registers dynamically there');
  }
  if (page.search || page.hash || page.username || page.password) throw new Error("the address is the page's own: no query, fragment or credentials");
  page.pathname = `${page.pathname.replace(/\/+$/, '')}/`;
  const redirect = page.href;
  return {
    client_id: new URL(NAME, redirect).href,
    client_name: 'MCP Triage',
    client_uri: redirect,
    redirect_uris: [redirect],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'web',
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [address, dir] = process.argv.slice(2);
  if (!address || !dir) {
    console.error('usage: node scripts/client-metadata.mjs https://PAGE-ADDRESS/ DIST_DIR');
    process.exit(2);
  }
  try {
    const doc = documentFor(address);
    writeFileSync(join(dir, NAME), `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${join(dir, NAME)}: client_id ${doc.client_id}`);
  } catch (e) {
    console.error(`client-metadata: ${e.message}`);
    process.exit(1);
  }
}
