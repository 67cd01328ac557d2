"""The wheel as a user gets it: installed into a fresh virtualenv with no index, then used; every
public capture gives the CLI's verdict, and the npm package's."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_triage_verdict as m
from conftest import CLI, ROOT, capture_files, cli

UNKNOWN_TOOL = ROOT / "fixtures/exchanges/ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json"
CALL: m.AgentCall = {
    "tool": "get_wether",
    "arguments": {"city": "Oslo"},
    "result": {"isError": True, "content": [{"type": "text", "text": "MCP error -32602: Tool get_wether not found"}]},
}


def test_it_is_the_installed_wheel_with_its_compiled_core_and_types() -> None:
    package = Path(m.__file__).parent
    # Installed into this interpreter's own site-packages (the fresh virtualenv), not the sources.
    assert Path(sys.prefix) in package.parents, package
    assert not (ROOT / "packages/python") in package.parents
    names = sorted(p.name for p in package.iterdir() if p.name != "__pycache__")
    assert names == ["__init__.py", "_core.abi3.so", "_core.pyi", "_json.py", "_raised.py", "_types.py",
                     "_vocabulary.py", "agents.py", "client.py", "py.typed"], names
    # The distribution's name is not the other project's, nor is the import name.
    dist = subprocess.run([sys.executable, "-m", "pip", "list", "--format=json"], capture_output=True, text=True, check=True)
    installed = {d["name"] for d in json.loads(dist.stdout)}
    assert "mcp-triage-verdict" in installed or "mcp_triage_verdict" in installed
    assert "mcp-triage" not in installed


def test_an_exchange_gets_the_verdict_of_the_cli() -> None:
    v = m.classify(UNKNOWN_TOOL.read_text(), intent="A", protocol_version="2025-06-18")
    assert (v.format, v.cause, v.action, v.retry) == (m.VERDICT_FORMAT, m.Cause.UNKNOWN_TOOL, m.Action.PICK_ANOTHER_TOOL, m.RetrySafety.FUTILE)
    assert v.spec is not None and v.spec.conformance is m.Conformance.DEVIATES
    # StrEnum: the values are the format's strings.
    assert v.cause == "unknown_tool" and isinstance(v.cause, str)
    out = cli("classify", "--json", "--intent", "A", "--protocol-version", "2025-06-18", str(UNKNOWN_TOOL))
    from_cli = json.loads(out.stdout)
    del from_cli["file"]
    assert v.to_dict() == from_cli


def test_an_agents_call_gets_a_verdict_a_retry_decision_and_a_line_for_the_model() -> None:
    v = m.classify_outcome(CALL)
    assert (v.made_on, v.channel, v.cause) == (m.MadeOn.SERVER, m.Channel.TOOL_ERROR, m.Cause.UNKNOWN_TOOL)
    decision = m.should_retry(v, 1, 3)
    assert decision == m.RetryDecision(retry=False, after_ms=0, why=decision.why) and decision.why
    line = m.message_for_model(v)
    assert '"get_wether"' in line and "an error occurred" not in line.lower()
    # A timeout is safe to retry only for a tool that says it may run twice; with backoff.
    timeout = m.classify_outcome({"tool": "t", "transport": {"kind": "timeout"},
                                  "definition": {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}})
    assert timeout.retry is m.RetrySafety.SAFE
    first, later = m.should_retry(timeout, 1, 3), m.should_retry(timeout, 2, 3)
    assert first.retry and later.retry and later.after_ms > first.after_ms
    assert not m.should_retry(timeout, 3, 3).retry


def test_a_verdict_is_frozen_and_reads_back_from_its_dict() -> None:
    v = m.classify_outcome(CALL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.cause = m.Cause.NONE  # type: ignore[misc]
    assert m.Verdict.from_dict(v.to_dict()) == v
    assert m.Verdict.from_dict(json.loads(v.to_json())) == v
    with pytest.raises(ValueError, match="not an mcp-triage-verdict/2"):
        m.Verdict.from_dict({"format": "x"})
    with pytest.raises(ValueError):
        m.Verdict.from_dict({**v.to_dict(), "cause": "no_such_cause"})


def test_a_call_it_cannot_read_gets_the_unknown_verdict_never_an_exception() -> None:
    # An agent calls classify_outcome on its error path: what it hands over gets a verdict.
    for call, says, tool in [
        ({"tool": "x"}, "exactly one of result, error, transport, client_error and raised", "x"),
        ({"tool": "", "result": {}}, "tool's name is empty", None),
        ({"tool": "x", "arguments": {"n": float("nan")}, "result": {}}, "not JSON", "x"),
        ({"tool": 3, "result": {}}, "invalid type", None),
    ]:
        v = m.classify_outcome(call)  # type: ignore[arg-type]
        assert (v.made_on, v.cause, v.retry) == (m.MadeOn.CLIENT, m.Cause.UNKNOWN, m.RetrySafety.FUTILE), call
        assert says in (v.said or ""), (call, v.said)
        assert v.tool == tool
        assert not m.should_retry(v, 1, 3).retry


def test_bad_input_raises_value_error_in_the_cores_words() -> None:
    # A captured exchange is a developer's input, not an agent's outcome: refused in words.
    with pytest.raises(ValueError):
        m.classify("{not json")
    with pytest.raises(ValueError):
        m.classify(b"\xff\xfe")
    # Only ValueError, whatever the input: no JSON form, a count below zero, not a verdict.
    with pytest.raises(ValueError):
        m.classify({"a": float("inf")})
    v = m.classify_outcome(CALL)
    with pytest.raises(ValueError, match="attempt"):
        m.should_retry(v, -1, 3)
    assert not m.should_retry(v, 2**40, 2**40).retry
    with pytest.raises(ValueError, match="format"):
        m.Verdict.from_dict({**v.to_dict(), "format": "mcp-triage-verdict/0"})
    with pytest.raises(ValueError):
        m.Verdict.from_dict([])  # type: ignore[arg-type]


def test_the_adapters_hand_the_whole_chain_and_never_raise_after_the_call() -> None:
    import anyio

    from mcp_triage_verdict.agents import triage_failure_error_function
    from mcp_triage_verdict.client import TriagedSession

    class Odd(Exception):
        @property
        def code(self) -> int:
            raise RuntimeError("a property that raises")

    class Session:
        async def call_tool(self, name: str, arguments: dict[str, object] | None = None) -> object:
            try:
                raise m_error(-32602, f"Unknown tool: {name}")
            except Exception as inner:
                raise RuntimeError("wrapped by a framework") from inner

        async def list_tools(self, *args: object, **kwargs: object) -> object:
            return type("Listed", (), {"tools": [{"name": "t", "inputSchema": {"type": "object"}}], "kwargs": kwargs})()

    from mcp.shared.exceptions import MCPError as m_error

    async def go() -> None:
        s = TriagedSession(Session())
        listed = await s.list_tools(params={"cursor": "next"})  # pagination goes through
        assert listed.kwargs == {"params": {"cursor": "next"}}
        # Arguments with no JSON form, a name the core refuses: still a verdict, never a raise.
        c = await s.call_tool("t", {"n": float("nan"), 1: object()})
        assert c.verdict.cause is m.Cause.UNKNOWN_TOOL and c.error is not None
        assert c.call["raised"]["causes"][0]["name"] == "MCPError"
        long = await s.call_tool("x" * 3000, {})
        assert long.verdict.tool is not None and len(long.verdict.tool.encode()) <= 1024

    anyio.run(go)

    class Ctx:
        tool_name = "t"
        tool_arguments = "[" * 100000

    assert triage_failure_error_function(Ctx(), Odd("boom"))


def test_parity_the_cli_the_npm_package_and_the_wheel_give_equal_verdicts_for_every_public_capture() -> None:
    captures = capture_files()
    assert len(captures) > 900
    from_cli = [json.loads(line) for line in subprocess.run(
        [str(CLI), "classify", "--json", *captures], capture_output=True, text=True, check=True, cwd=ROOT).stdout.splitlines()]
    npm = subprocess.run(
        ["node", "-e",
         "const m = require(process.argv[1]); const fs = require('node:fs');"
         "for (const f of JSON.parse(fs.readFileSync(0, 'utf8'))) console.log(JSON.stringify(m.classify(fs.readFileSync(f, 'utf8'))));",
         str(ROOT / "packages/npm/index.cjs")],
        input=json.dumps(captures), capture_output=True, text=True, check=True)
    from_npm = [json.loads(line) for line in npm.stdout.splitlines()]
    assert len(from_cli) == len(from_npm) == len(captures)
    differ = []
    for path, c, n in zip(captures, from_cli, from_npm, strict=True):
        assert c.pop("file") == path
        wheel = m.classify(Path(path).read_bytes()).to_dict()
        if not (wheel == c == n):
            differ.append(path)
    assert differ == [], f"{len(differ)} differ, first {differ[:3]}"


def test_the_sdist_holds_the_sources_that_build_it_and_no_capture_or_test() -> None:
    import tarfile

    (sdist,) = (ROOT / "target/python-dist").glob("mcp_triage_verdict-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    for needed in ["pyproject.toml", "Cargo.toml", "Cargo.lock", "crates/mcp-triage/src/lib.rs",
                   "crates/mcp-triage-py/src/lib.rs", "python/mcp_triage_verdict/__init__.py",
                   "python/mcp_triage_verdict/py.typed"]:
        assert needed in names, needed
    assert not [n for n in names if "fixtures" in n or "/tests/" in n or n.startswith("tests/")], names
