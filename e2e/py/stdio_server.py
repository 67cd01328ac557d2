"""A real Python MCP server over stdio (PyPI `mcp` 2.3.0, MCPServer.run("stdio")) with the demo's tools,
started by `mcp-triage probe --stdio -- e2e/py/.venv/bin/python e2e/py/stdio_server.py` in the tests.

    python e2e/py/stdio_server.py [--unannotated]
"""
import argparse
import json

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

parser = argparse.ArgumentParser()
parser.add_argument("--unannotated", action="store_true")
args = parser.parse_args()

READ_ONLY = None if args.unannotated else ToolAnnotations(readOnlyHint=True, openWorldHint=False)
mcp = MCPServer("mcp-triage-py-stdio")


@mcp.tool(annotations=READ_ONLY)
def lead_get(id: str) -> str:
    """Get a lead by id (always fails)."""
    raise Exception("lead not found in this organization")


@mcp.tool(annotations=READ_ONLY)
def icp_list() -> str:
    """List ideal customer profiles."""
    return json.dumps({"ok": True})


@mcp.tool(annotations=READ_ONLY)
def echo(text: str) -> str:
    """Echo back the text."""
    return text


mcp.run("stdio")
