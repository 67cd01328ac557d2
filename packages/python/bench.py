"""The Python package's speed, for docs/PERFORMANCE.md (a report, never a timed test): the time
from a new interpreter's import to its first verdict (median of 5), and verdicts per second over
the public captures (classify on each exchange's bytes, through the package's JSON boundary into
the frozen Verdict and its StrEnums), with the wheel's size.

    python packages/python/bench.py   (with the wheel installed: packages/python/test.sh --bench)
"""

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import mcp_triage_verdict as m

ROOT = Path(__file__).resolve().parents[2]
FIRST = (
    "import time; t = time.perf_counter(); import mcp_triage_verdict as m; "
    "m.classify_outcome({'tool': 'x', 'result': {'isError': True, 'content': [{'type': 'text', 'text': 'Unknown tool: x'}]}}); "
    "print((time.perf_counter() - t) * 1000)"
)
first = sorted(float(subprocess.run([sys.executable, "-c", FIRST], capture_output=True, text=True, check=True).stdout) for _ in range(5))
bare = statistics.median(
    float(subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import json; print((time.perf_counter() - t) * 1000)"],
                         capture_output=True, text=True, check=True).stdout)
    for _ in range(5)
)
walk = subprocess.run(
    ["node", "--input-type=module", "-e",
     f"import {{ captureFiles }} from {json.dumps(str(ROOT / 'scripts/captures.mjs'))}; console.log(JSON.stringify(captureFiles()));"],
    capture_output=True, text=True, check=True,
)
captures = [Path(p).read_bytes() for p in json.loads(walk.stdout)]
n = 0
start = time.perf_counter()
while time.perf_counter() - start < 2.0:
    for raw in captures:
        m.classify(raw)
    n += len(captures)
secs = time.perf_counter() - start
print(f"python package: import to first verdict {first[2]:.1f} ms (median of 5: {', '.join(f'{x:.1f}' for x in first)}; importing json alone {bare:.1f} ms)")
print(f"python package: classify over {len(captures)} captures, {n} verdicts in {secs:.2f} s: {round(n / secs)} verdicts/s in CPython {sys.version.split()[0]}")
dist = ROOT / "target/python-dist"
for wheel in sorted(dist.glob("*.whl")):
    print(f"python package: {wheel.name} {wheel.stat().st_size} bytes")
