"""A real Python MCP peer (PyPI `mcp` 2.3.0, MCPServer over Streamable HTTP) for the browser tests.

    python e2e/py/server.py --port 18790 --cors-origin http://127.0.0.1:18081 [--stateful]
                            [--refuse-origin]   # CORS lets the page read answers, the SDK's Origin check refuses it
                            [--unannotated]     # the tools declare no annotations (most servers in the wild)
                            [--lowlevel]        # the low-level Server instead of MCPServer
                            [--slow-tool]       # one more tool, wait_forever, that prints "called
                                                # wait_forever" when called and never answers
"""
import argparse

import anyio

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.middleware.cors import CORSMiddleware

from demo_tools import lowlevel, register
from serve import serve

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--cors-origin", required=True)
parser.add_argument("--stateful", action="store_true")
parser.add_argument("--refuse-origin", action="store_true")
parser.add_argument("--unannotated", action="store_true")
parser.add_argument("--lowlevel", action="store_true")
parser.add_argument("--slow-tool", action="store_true")
args = parser.parse_args()

if args.lowlevel:
    mcp = lowlevel("mcp-triage-py-lowlevel-peer", args.unannotated)
else:
    mcp = MCPServer("mcp-triage-py-peer")
    register(mcp, args.unannotated)
    if args.slow_tool:
        @mcp.tool()
        async def wait_forever() -> str:
            """Never answers."""
            print("called wait_forever", flush=True)
            await anyio.sleep_forever()
            return ""

allowed = ["http://localhost:5173"] if args.refuse_origin else [args.cors_origin]
security = TransportSecuritySettings(
    enable_dns_rebinding_protection=True,
    allowed_hosts=["127.0.0.1:*", "localhost:*"],
    allowed_origins=allowed,
)
app = mcp.streamable_http_app(stateless_http=not args.stateful, transport_security=security)
app.add_middleware(
    CORSMiddleware,
    allow_origins=[args.cors_origin],
    allow_methods=["GET", "POST", "DELETE"],
    allow_headers=["Authorization", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version",
                   "Mcp-Method", "Mcp-Name", "Last-Event-ID"],
    expose_headers=["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"],
    max_age=600,
)
serve(app, args.port, f"python MCP peer on http://127.0.0.1:{args.port}/mcp")
