"""The adapters with the real clients against live peers (real SDK servers): the `mcp` package's
ClientSession through TriagedSession, probes A-D, each verdict equal to the CLI's for the same call
(`mcp-triage classify --outcome`); and the OpenAI Agents SDK calling the failure function as it does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

import mcp_triage_verdict as m
from conftest import Peer, cli
from mcp_triage_verdict.agents import triage_failure_error_function
from mcp_triage_verdict.client import TriagedCall, TriagedSession

PROBES = [("A", "no_such_tool_3f9", {}), ("B", "echo", {}), ("C", "lead_get", {"id": "x"}), ("D", "icp_list", {})]
EXPECTED = {"A": m.Cause.UNKNOWN_TOOL, "B": m.Cause.INVALID_ARGUMENTS, "C": m.Cause.TOOL_EXECUTION, "D": m.Cause.NONE}


async def _probe(peer: Peer) -> dict[str, TriagedCall]:
    headers = {"Authorization": f"Bearer {peer.token}"} if peer.token else {}
    async with httpx2.AsyncClient(headers=headers) as http, streamable_http_client(peer.url, http_client=http) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        session = TriagedSession(s)
        await session.list_tools()
        out = {}
        for probe, name, args in PROBES:
            out[probe] = await session.call_tool(name, args)
        return out


@pytest.mark.parametrize("index", range(5), ids=lambda i: ["ts-1.29.0", "py-mcp-2.3.0", "py-mcp-2.3.0-lowlevel", "fastmcp-4.2.3", "rmcp"][i])
def test_triaged_session_probes_a_to_d_and_each_verdict_is_the_clis_for_the_same_call(peers: list[Peer], index: int, tmp_path: Path) -> None:
    peer = peers[index]
    calls = anyio.run(_probe, peer)
    # The low-level Server validates nothing: echo without its text succeeds.
    expected = {**EXPECTED, "B": m.Cause.NONE} if "low-level" in peer.name else EXPECTED
    assert {p: c.verdict.cause for p, c in calls.items()} == expected, peer.name
    files = []
    for probe, c in calls.items():
        # What the verdict was made from is JSON-ready and holds no token.
        text = json.dumps(c.call)
        assert peer.token is None or peer.token not in text
        assert (c.result is None) == (c.error is not None)
        f = tmp_path / f"{probe}.json"
        f.write_text(text)
        files.append(str(f))
    out = cli("classify", "--outcome", "--json", *files)
    assert out.returncode == 0, out.stderr
    for (probe, c), line in zip(calls.items(), out.stdout.splitlines(), strict=True):
        from_cli = json.loads(line)
        del from_cli["file"]
        assert c.verdict.to_dict() == from_cli, (peer.name, probe)
    # Retry safety read the listed tools' annotations: the failing tool is read-only in every peer
    # that annotates, so only D (success) needs no retry; A's is futile everywhere.
    assert calls["A"].verdict.retry is m.RetrySafety.FUTILE
    assert calls["D"].verdict.retry is m.RetrySafety.NOT_NEEDED


def _agents_call(peer: Peer, tool_name: str, arguments: dict[str, Any], failure: Any) -> Any:
    from agents.mcp import MCPServerStreamableHttp, MCPUtil
    from agents.tool_context import ToolContext
    from mcp.types import Tool

    async def go() -> Any:
        server = MCPServerStreamableHttp(params={"url": peer.url}, name=peer.name, failure_error_function=failure)
        async with server:
            # A tool the model was offered from an older tools/list (it is gone now): the SDK builds
            # the function tool from the definition and invokes it as a run does.
            tool = Tool(name=tool_name, description="", inputSchema={"type": "object", "properties": {}})
            function_tool = MCPUtil.to_function_tool(tool, server, convert_schemas_to_strict=False)
            args = json.dumps(arguments)
            ctx = ToolContext(context=None, tool_name=tool_name, tool_call_id="call_1", tool_arguments=args)
            return await function_tool.on_invoke_tool(ctx, args)

    return anyio.run(go)


@pytest.mark.parametrize("index", [2, 4], ids=["py-mcp-2.3.0-lowlevel", "rmcp"])
def test_openai_agents_failure_error_function_gives_the_model_the_verdicts_line(peers: list[Peer], index: int) -> None:
    from mcp.shared.exceptions import MCPError

    peer = peers[index]
    # These servers answer A and C with JSON-RPC error frames: the mcp client raises MCPError, and
    # the Agents SDK hands it to the failure function.
    for probe, name, args in [PROBES[0], PROBES[2]]:
        seen: list[Exception] = []

        def recording(ctx: Any, error: Exception) -> str:
            seen.append(error)
            return triage_failure_error_function(ctx, error)

        told = _agents_call(peer, name, args, recording)
        default = _agents_call(peer, name, args, _default())
        assert default == "An error occurred while running the tool. Please try again.", default
        assert len(seen) == 1 and isinstance(seen[0], MCPError), seen
        raised = seen[0]
        assert isinstance(raised, MCPError)
        # The model's line is the verdict's for what the SDK raised, described here by hand.
        expected = m.classify_outcome({"tool": name, "arguments": args,
                                       "raised": {"name": "MCPError", "code": raised.code, "message": raised.message}})
        assert told == m.message_for_model(expected) != default
        assert f'"{name}"' in told, (probe, told)
        if peer.name == "rmcp":
            assert expected.cause == EXPECTED[probe], (probe, told)


def _default() -> Any:
    from agents.tool import default_tool_error_function

    return default_tool_error_function


def test_the_failure_function_never_raises_and_reads_through_the_sdks_wrapper() -> None:
    from agents.exceptions import AgentsException
    from mcp.shared.exceptions import MCPError

    class Ctx:
        tool_name = "lead_get"
        tool_arguments = '{"id": "x"}'

    try:
        try:
            raise MCPError(-32602, "Unknown tool: lead_get")
        except MCPError as inner:
            raise AgentsException("Error invoking MCP tool lead_get on server 'x': Unknown tool: lead_get") from inner
    except AgentsException as wrapped:
        line = triage_failure_error_function(Ctx(), wrapped)
    expected = m.message_for_model(m.classify_outcome({"tool": "lead_get", "arguments": {"id": "x"},
                                                       "raised": {"name": "MCPError", "code": -32602, "message": "Unknown tool: lead_get"}}))
    assert line == expected
    # No context, arguments that are not JSON, an exception with odd attributes: still a line.

    class Odd(Exception):
        code = True
        data = object()

    assert triage_failure_error_function(object(), Odd("boom"))
    bad = Ctx()
    bad.tool_arguments = "{nope"
    assert triage_failure_error_function(bad, RuntimeError("x"))
