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


def lowlevel(name: str, unannotated: bool):
    """The same tools on the low-level `Server`: it validates nothing and turns every exception a
    handler raises into a JSON-RPC error frame (code 0), which is what the tests look at."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    read_only = None if unannotated else types.ToolAnnotations(readOnlyHint=True, openWorldHint=False)
    tools = [
        types.Tool(name="lead_get", description="Get a lead by id (always fails).",
                   input_schema={"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                   annotations=read_only),
        types.Tool(name="icp_list", description="List ideal customer profiles.",
                   input_schema={"type": "object", "properties": {}}, annotations=read_only),
        types.Tool(name="echo", description="Echo back the text.",
                   input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
                   annotations=read_only),
    ]

    async def list_tools(_ctx, _params):
        return types.ListToolsResult(tools=tools)

    async def call_tool(_ctx, params):
        args = params.arguments or {}
        if params.name == "lead_get":
            raise Exception("lead not found in this organization")
        if params.name == "icp_list":
            return types.CallToolResult(content=[types.TextContent(text=json.dumps({"ok": True}))])
        if params.name == "echo":
            return types.CallToolResult(content=[types.TextContent(text=str(args.get("text", "")))])
        raise ValueError(f"Unknown tool: {params.name}")

    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool)
