"""mypy --strict over a typed example that uses every public name, against the installed wheel's
py.typed and stubs; the control, a file of wrong uses, must be refused line by line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import mcp_triage_verdict

HERE = Path(__file__).parent


def mypy(*files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null", *files],
        capture_output=True, text=True, cwd=HERE,
    )


def test_mypy_strict_accepts_a_typed_example_using_every_public_name() -> None:
    source = (HERE / "typed_example.py").read_text()
    for name in mcp_triage_verdict.__all__:
        assert re.search(rf"\b{name}\b", source), f"typed_example.py does not use {name}"
    out = mypy("typed_example.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found in 1 source file" in out.stdout


def test_mypy_strict_refuses_each_wrong_use() -> None:
    out = mypy("typed_wrong.py")
    assert out.returncode == 1, out.stdout
    lines = {int(m.group(1)) for m in re.finditer(r"typed_wrong\.py:(\d+): error", out.stdout)}
    assert lines == {7, 8, 9, 10}, out.stdout


def test_the_packages_own_code_passes_mypy_strict_as_installed() -> None:
    out = mypy("-p", "mcp_triage_verdict")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues found in 8 source files" in out.stdout, out.stdout
