"""A real Python MCP server over stdio (PyPI `mcp` 2.3.0, MCPServer.run("stdio")) with the demo's tools,
started by `mcp-triage probe --stdio -- e2e/py/.venv/bin/python e2e/py/stdio_server.py` in the tests.

    python e2e/py/stdio_server.py [--unannotated]
"""
import argparse

from mcp.server.mcpserver import MCPServer

from demo_tools import register

parser = argparse.ArgumentParser()
parser.add_argument("--unannotated", action="store_true")
args = parser.parse_args()

mcp = MCPServer("mcp-triage-py-stdio")
register(mcp, args.unannotated)
mcp.run("stdio")
