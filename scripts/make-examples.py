#!/usr/bin/env python3
"""Builds web/examples/*.json: example runs made of recorded exchanges, loaded by the app on demand.

Real captures come from fixtures/exchanges (TS SDK 1.29.0, Python mcp 2.3.0); a few SDKs the
captures lack come from the cited synthetic fixtures (marked as reconstructed from source). Each
exchange gets the `intent` and `negotiated_version` the app's own captures carry.

Usage: scripts/make-examples.py [FIXTURES_DIR]
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../fixtures/exchanges")
synthetic = os.path.join(here, "../crates/mcp-triage/tests/fixtures/synthetic")
out_dir = os.path.join(here, "../web/examples")
os.makedirs(out_dir, exist_ok=True)

CASES = [("init", None), ("initialized", None), ("tools_list", None), ("A_unknown_tool", "A"),
         ("B_missing_required_arg", "B"), ("C_tool_throws", "C"), ("D_success", "D"), ("H_get", "get")]


def load(path, intent, version):
    d = json.load(open(path))
    for label in ("case", "description", "server", "protocol_version"):
        d.pop(label, None)
    d.pop("synthetic", None)
    if intent:
        d["intent"] = intent
    d["negotiated_version"] = version
    return d


def real(name, label, stack, auth_stack):
    exchanges = []
    for case, intent in CASES:
        path = os.path.join(root, stack, f"{case}.pv2025-06-18.json")
        if os.path.exists(path):
            exchanges.append(load(path, intent, "2025-06-18"))
    if auth_stack:
        exchanges.append(load(os.path.join(root, auth_stack, "AUTH1_no_token.pv2025-06-18.json"), "no_token", "2025-06-18"))
    url = exchanges[0]["request"]["url"]
    write(name, label, f"captured from a real {label} server (public fixtures)", url, exchanges)


def synth(name, label, folder):
    exchanges = []
    for case, intent in CASES:
        path = os.path.join(synthetic, folder, f"{case}.json")
        if os.path.exists(path):
            exchanges.append(load(path, intent, "2025-06-18"))
    url = exchanges[0]["request"]["url"]
    write(name, label, f"reconstructed from the {label} source code, not captured (see tests/fixtures/synthetic/{folder}/NOTES.md)", url, exchanges)


def write(name, label, source, url, exchanges):
    doc = {"label": label, "source": source, "endpoint": url, "exchanges": exchanges}
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{name}: {len(exchanges)} exchanges")


real("ts-1.29.0", "TypeScript SDK 1.29.0 McpServer", "ts-1.29.0-stateless", "ts-1.29.0-auth")
real("py-mcp-2.3.0-mcpserver", "Python mcp 2.3.0 MCPServer", "py-mcp-2.3.0-mcpserver-stateless", "py-mcp-2.3.0-mcpserver-auth")
real("py-mcp-2.3.0-lowlevel", "Python mcp 2.3.0 low-level Server", "py-mcp-2.3.0-lowlevel-stateless", None)
synth("ts-1.20.0", "TypeScript SDK 1.20.0", "ts-1.20.0")
synth("rmcp-3.1.4", "rmcp 3.1.4 (Rust)", "rmcp-3.1.4")
synth("java-sdk-2.0.1", "Java SDK 2.0.1", "java-sdk-2.0.1")
