"""The demo's tools for the Python MCP servers the tests start (Streamable HTTP in server.py, stdio in
stdio_server.py): a lookup that always fails, a list that succeeds, an echo."""
import json

from mcp_types import ToolAnnotations


def register(mcp, unannotated: bool) -> None:
    """Adds lead_get, icp_list and echo to `mcp`, declared read-only unless `unannotated`."""
    read_only = None if unannotated else ToolAnnotations(readOnlyHint=True, openWorldHint=False)

    @mcp.tool(annotations=read_only)
    def lead_get(id: str) -> str:
        """Get a lead by id (always fails)."""
        raise Exception("lead not found in this organization")

    @mcp.tool(annotations=read_only)
    def icp_list() -> str:
        """List ideal customer profiles."""
        return json.dumps({"ok": True})

    @mcp.tool(annotations=read_only)
    def echo(text: str) -> str:
        """Echo back the text."""
        return text
