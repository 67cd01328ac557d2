"""A real fastmcp 4.2.3 server (PyPI, newest 4.x) for the ecosystem tests: the demo's tools, stateless
Streamable HTTP, CORS for the page. Its tools declare no annotations (fastmcp emits none by default), so
the page's Quick check reaches its consent step.

    python e2e/py/fastmcp_server.py --port 18863 --cors-origin http://127.0.0.1:18081
                                    [--mask]   # mask_error_details=True: exception text withheld
                                    [--token T] # bearer auth (StaticTokenVerifier) under RemoteAuthProvider,
                                                # whose 401 challenge names resource_metadata
"""
import argparse
import json

from fastmcp import FastMCP
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

from serve import serve

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--cors-origin", required=True)
parser.add_argument("--mask", action="store_true")
parser.add_argument("--token")
args = parser.parse_args()

auth = None
if args.token:
    from fastmcp.server.auth import RemoteAuthProvider
    from fastmcp.server.auth.providers.jwt import StaticTokenVerifier

    base = f"http://127.0.0.1:{args.port}"
    auth = RemoteAuthProvider(
        token_verifier=StaticTokenVerifier(tokens={args.token: {"client_id": "e2e", "scopes": []}}),
        authorization_servers=["https://auth.invalid"],
        base_url=base,
    )
mcp = FastMCP("mcp-triage-fastmcp-peer", mask_error_details=args.mask, auth=auth)


@mcp.tool
def lead_get(id: str) -> str:
    """Get a lead by id (always fails)."""
    raise Exception("lead not found in this organization")


@mcp.tool
def icp_list() -> str:
    """List ideal customer profiles."""
    return json.dumps({"ok": True})


@mcp.tool
def echo(text: str) -> str:
    """Echo back the text."""
    return text


@mcp.tool
def crm_sync() -> str:
    """Push local changes to the CRM (a demo: changes nothing)."""
    return "synced 0 records (demo server)"


cors = Middleware(
    CORSMiddleware,
    allow_origins=[args.cors_origin],
    allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
    allow_headers=["Authorization", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version",
                   "Mcp-Method", "Mcp-Name", "Last-Event-ID"],
    expose_headers=["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"],
    max_age=600,
)
app = mcp.http_app(path="/mcp", stateless_http=True, middleware=[cors])
serve(app, args.port, f"fastmcp peer on http://127.0.0.1:{args.port}/mcp")
