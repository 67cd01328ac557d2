"""The Python framework matrix (packages/python/frameworks.tsv, written from the frameworks'
sources): TriagedSession over the `mcp` client, and TriageToolCalls in the OpenAI Agents SDK's
agent loop (a scripted model), against the TypeScript SDK 1.32.2 peer (behind a token) and the
Python mcp 2.3.0 peer, for probes A-D and E (the server killed once its tool runs), with whichever
`mcp` this run has (the test command runs these tests with 2.x, then 1.x)."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import threading
from datetime import timedelta
from typing import Any

import anyio
import pytest

from conftest import ORIGIN, PEER_PY, ROOT

from mcp_triage_verdict import Verdict

MCP = importlib.metadata.version("mcp").split(".")[0]
PROBES = [("A", "no_such_tool_3f9", {}), ("B", "echo", {}), ("C", "lead_get", {"id": "x"}),
          ("D", "icp_list", {}), ("E", "wait_forever", {})]
TIMEOUT_S = 5.0
PEERS = {
    "ts-1.32.2": (["node", "demo/server.mjs", "--sdk", "e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk",
                   "--slow-tool", "--port"], "demo MCP server", "demo-token"),
    "py-2.3.0": ([str(PEER_PY), "e2e/py/server.py", "--cors-origin", ORIGIN, "--slow-tool", "--port"],
                 "python MCP peer", None),
}
ROWS = [dict(zip(h, r)) for h, r in (
    (lines[0], row) for lines in [[line.split("\t") for line in (ROOT / "packages/python/frameworks.tsv").read_text().splitlines()
                                   if line and not line.startswith("#")]] for row in lines[1:])]


class Peer:
    """A fresh peer whose process is killed once wait_forever runs; `events` records the order."""

    def __init__(self, name: str, port: int, kill: bool = True) -> None:
        argv, ready, self.token = PEERS[name]
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.events: list[str] = []
        self.child = subprocess.Popen([*argv, str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
        up = threading.Event()

        def read() -> None:
            assert self.child.stdout is not None
            for line in self.child.stdout:
                if ready in line:
                    up.set()
                if "called wait_forever" in line and "tool ran" not in self.events:
                    self.events.append("tool ran")
                    if kill:
                        self.child.kill()
                        self.events.append("server killed")
            up.set()

        threading.Thread(target=read, daemon=True).start()
        up.wait(60)  # a bound on a start, not a timing assertion

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


async def via_session(peer: Peer) -> dict[str, Verdict]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp_triage_verdict.client import TriagedSession, verdict_for_exception

    out: dict[str, Verdict] = {}
    # mcp 1.x takes the read timeout as a timedelta, 2.x in seconds.
    timeout: Any = timedelta(seconds=TIMEOUT_S) if MCP == "1" else TIMEOUT_S
    http = create_mcp_http_client(headers=peer.headers())
    try:
        async with http, streamable_http_client(peer.url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                session = TriagedSession(s)
                await session.list_tools()
                for probe, tool, arguments in PROBES:
                    call = await session.call_tool(tool, arguments, read_timeout_seconds=timeout)
                    out[probe] = call.verdict
                    if probe == "E":
                        peer.events.append("verdict E")
                        break
    except Exception as group:
        # The transport's own task may see the connection end first: the exception then leaves
        # `async with streamable_http_client`, and is read there, as the README says.
        if "E" not in out:
            out["E"] = verdict_for_exception("wait_forever", {}, group)
            peer.events.append("verdict E")
    return out


async def via_agents(peer: Peer) -> dict[str, Verdict]:
    from agents import Agent, ModelBehaviorError, Runner, Usage, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.mcp import MCPServerStreamableHttp
    from agents.models.interface import Model
    from agents.testing import assistant_message, function_call

    from mcp_triage_verdict.agents import TriageToolCalls, triage_failure_error_function
    from mcp_triage_verdict.client import verdict_for_exception

    set_tracing_disabled(True)
    seen: dict[str, Verdict] = {}

    class Scripted(Model):  # type: ignore[misc]
        def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
            self.tool, self.arguments, self.turn = tool, arguments, 0

        async def get_response(self, *args: Any, **kwargs: Any) -> Any:
            self.turn += 1
            import json
            out = [function_call(self.tool, json.dumps(self.arguments), call_id="call_1")] if self.turn == 1 \
                else [assistant_message("done")]
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    class TriagedServer(TriageToolCalls, MCPServerStreamableHttp):  # type: ignore[misc]
        def on_verdict(self, tool_name: str, verdict: Verdict) -> None:
            seen[tool_name] = verdict

    server = TriagedServer({"url": peer.url, "headers": peer.headers()}, client_session_timeout_seconds=TIMEOUT_S,
                           failure_error_function=triage_failure_error_function)
    out: dict[str, Verdict] = {}
    await server.connect()
    try:
        for probe, tool, arguments in PROBES:
            agent = Agent(name="triage", instructions="", mcp_servers=[server], model=Scripted(tool, arguments))
            try:
                await Runner.run(agent, "go")
            except ModelBehaviorError as error:  # a tool the model made up: raised from Runner.run
                seen[tool] = verdict_for_exception(tool, arguments, error)
            except BaseException as error:  # after E the server is gone: the SDK may raise (or,
                if probe != "E":  # on mcp 1.x, cancel) on its own, after the verdict
                    raise
                print(f"Runner.run after {probe}: {error!r}")
            if probe == "E":
                break
    finally:
        try:
            await server.cleanup()
        except BaseException as error:  # the killed server's session cannot close cleanly
            print(f"cleanup: {error!r}")
    # On mcp 1.x the SDK may run the call in a task of its own and cancel it once Runner.run has
    # raised: its verdict comes then, so the verdicts are read after the server's cleanup.
    for probe, tool, _ in PROBES:
        if tool in seen:
            out[probe] = seen[tool]
    if "E" in out:
        peer.events.append("verdict E")
    return out


@pytest.mark.parametrize("path", ["session", "agents"])
@pytest.mark.parametrize("peer_name", list(PEERS))
def test_framework_matrix(path: str, peer_name: str, unused_port: int) -> None:
    peer = Peer(peer_name, unused_port)
    try:
        got = anyio.run(via_session if path == "session" else via_agents, peer)
    finally:
        peer.child.kill()
        peer.child.wait()
    assert peer.events == ["tool ran", "server killed", "verdict E"], peer.events
    wrong = []
    for probe, _, _ in PROBES:
        want = [r for r in ROWS if (r["mcp"], r["path"], r["peer"], r["probe"]) == (MCP, path, peer_name, probe)]
        verdict = got.get(probe)
        cell = [str(verdict.cause), str(verdict.delivery or "answered"), str(verdict.made_on)] if verdict else ["(unseen)", "-", "-"]
        print(f"matrix\tmcp {MCP}\t{path}\t{peer_name}\t{probe}\t{' '.join(cell)}")
        # A cause "a|b" is either (the row's source says why); "(unseen)": no verdict is made.
        if not want or cell[0] not in want[0]["cause"].split("|") or (verdict and cell[1:] != [want[0]["delivery"], want[0]["made_on"]]):
            wrong.append(f"{probe}: got {cell}, expected {want[0] if want else 'no row'}")
    assert not wrong, "\n".join(wrong)


async def cancel_mid_call(peer: Peer) -> list[Verdict]:
    """An Agents SDK server's call cancelled while its tool runs, as the SDK's own session ending
    cancels it (here by the caller's cancel scope): the verdicts `on_verdict` got."""
    from agents.mcp import MCPServerStreamableHttp

    from mcp_triage_verdict.agents import TriageToolCalls

    seen: list[Verdict] = []

    class TriagedServer(TriageToolCalls, MCPServerStreamableHttp):  # type: ignore[misc]
        def on_verdict(self, tool_name: str, verdict: Verdict) -> None:
            peer.events.append("verdict")
            seen.append(verdict)

    server = TriagedServer({"url": peer.url, "headers": peer.headers()}, client_session_timeout_seconds=60)
    await server.connect()

    async def call() -> None:
        try:
            await server.call_tool("wait_forever", {})
        except anyio.get_cancelled_exc_class():
            peer.events.append("cancellation raised on")
            raise

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(call)
            with anyio.fail_after(30):  # a bound on the tool's start, not a timing assertion
                while "tool ran" not in peer.events:
                    await anyio.sleep(0.05)
            peer.events.append("cancelled")
            tasks.cancel_scope.cancel()
    finally:
        await server.cleanup()
    return seen


def test_a_cancelled_agents_call_gets_its_verdict_before_the_cancellation_goes_on(unused_port: int) -> None:
    peer = Peer("py-2.3.0", unused_port, kill=False)
    try:
        seen = anyio.run(cancel_mid_call, peer)
    finally:
        peer.child.kill()
        peer.child.wait()
    assert peer.events == ["tool ran", "cancelled", "verdict", "cancellation raised on"], peer.events
    assert [(str(v.cause), str(v.delivery), str(v.made_on)) for v in seen] == [("aborted", "may_have_run", "client")]


@pytest.fixture
def unused_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


os.environ.setdefault("OPENAI_API_KEY", "sk-not-used")
