"""The documented Python example, as written, against a live peer that needs a token (the
TypeScript SDK 1.29.0 demo, which has no `get_forecast`), from docs/agents.md and the package
README, with whichever `mcp` the test run has (1.x or 2.x): it must run and say why the call
failed, without retrying; with a wrong token it must not say so (the control)."""

from __future__ import annotations

import re
from typing import Any

import anyio
import pytest

from conftest import ROOT, Peer


@pytest.mark.parametrize("readme", ["docs/agents.md", "packages/python/README.md"])
def test_the_readmes_python_example_runs_and_tells_an_unknown_tool(peers: list[Peer], readme: str) -> None:
    text = (ROOT / readme).read_text()
    match = re.search(r"```python\n(import anyio.*?)```", text, re.S)
    assert match, f"the Python example of {readme}"
    namespace: dict[str, Any] = {}
    exec(compile(match.group(1), readme, "exec"), namespace)
    said = anyio.run(namespace["call_with_triage"], peers[0].url, "demo-token", "get_forecast", {"city": "Oslo"})
    assert said.startswith('unknown_tool: The tool "get_forecast" does not exist on this server.'), said
    try:
        refused = anyio.run(namespace["call_with_triage"], peers[0].url, "not-the-token", "get_forecast", {"city": "Oslo"})
    except BaseException as error:  # the refused initialize leaves the transport's task group
        refused = repr(error)
    assert "does not exist" not in refused, refused
