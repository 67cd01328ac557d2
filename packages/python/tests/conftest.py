"""Shared parts of the Python package's tests: where things are, the live peers (real SDK servers,
started as the browser tests start them), and the closing count line the test command reads."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CLI = ROOT / "target/debug/mcp-triage"
PEER_PY = ROOT / "e2e/py/.venv/bin/python"
ORIGIN = "http://127.0.0.1:18081"


def capture_files() -> list[str]:
    """The public captures, from the one walk every script uses (scripts/captures.mjs)."""
    out = subprocess.run(
        ["node", "--input-type=module", "-e",
         f"import {{ captureFiles }} from {json.dumps(str(ROOT / 'scripts/captures.mjs'))};"
         f"console.log(JSON.stringify(captureFiles({json.dumps(str(ROOT))})));"],
        check=True, capture_output=True, text=True,
    )
    files: list[str] = json.loads(out.stdout)
    return files


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The debug CLI the test command built."""
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, cwd=ROOT)


@dataclass
class Peer:
    name: str
    port: int
    token: str | None
    argv: list[str]
    ready: str

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


PEERS = [
    Peer("TypeScript SDK 1.29.0 demo", 18910, "demo-token", ["node", "demo/server.mjs", "--port", "18910"], "demo MCP server"),
    Peer("Python mcp 2.3.0 MCPServer", 18911, None,
         [str(PEER_PY), "e2e/py/server.py", "--port", "18911", "--cors-origin", ORIGIN], "python MCP peer"),
    Peer("Python mcp 2.3.0 low-level Server", 18912, None,
         [str(PEER_PY), "e2e/py/server.py", "--port", "18912", "--cors-origin", ORIGIN, "--lowlevel"], "python MCP peer"),
    Peer("fastmcp 4.2.3", 18913, None,
         [str(PEER_PY), "e2e/py/fastmcp_server.py", "--port", "18913", "--cors-origin", ORIGIN], "fastmcp peer on"),
    Peer("rmcp", 18914, None,
         [str(ROOT / "target/rmcp-peer/debug/rmcp-peer"), "--port", "18914", "--cors-origin", ORIGIN], "rmcp peer on"),
]


def _start(peer: Peer) -> subprocess.Popen[str]:
    child = subprocess.Popen(peer.argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen: list[str] = []
    up = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            seen.append(line)
            if peer.ready in line:
                up.set()
        up.set()

    threading.Thread(target=read, daemon=True).start()
    # A bound on a wait for a process to start, not a timing assertion.
    up.wait(60)
    if child.poll() is not None or not any(peer.ready in line for line in seen):
        child.kill()
        raise RuntimeError(f"{peer.name} did not start: {''.join(seen)[-400:]}")
    return child


@pytest.fixture(scope="session")
def peers() -> Iterator[list[Peer]]:
    children = [_start(p) for p in PEERS]
    try:
        yield PEERS
    finally:
        for child in children:
            child.kill()
            child.wait()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The count line the test command reads: pytest's own tallies (an error counts as failed)."""
    stats = terminalreporter.stats
    passed = len(stats.get("passed", []))
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line(f"pytest: {passed} passed, {failed} failed")


os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
