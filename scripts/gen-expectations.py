#!/usr/bin/env python3
"""Writes crates/mcp-triage/tests/expectations.tsv: the truth for every public fixture.

The cause comes from what each case *is* (the case table in ../shared/fixtures/README.md) and from what
each server is known to do with it (stateless servers ignore session ids, the TS SDK 1.x refuses the
2026-07-28 era, ...). It never runs the classifier. The channel follows the mechanical rule of the
classifier issue, computed here from status and body with a separate, naive implementation.

Usage: scripts/gen-expectations.py [FIXTURES_DIR] > crates/mcp-triage/tests/expectations.tsv
"""
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../shared/fixtures/exchanges")


def same_id(a, b):
    return type(a) is type(b) and a == b


def messages(resp):
    body = resp.get("body") or ""
    ct = next((v for k, v in resp["headers"] if k.lower() == "content-type"), "")
    if "event-stream" in ct or body.startswith(("event:", "data:")):
        out = []
        for block in body.replace("\r\n", "\n").split("\n\n"):
            data = "\n".join(l[5:].lstrip(" ") if l.startswith("data:") else "" for l in block.split("\n") if l.startswith("data:"))
            if data:
                try:
                    out.append(json.loads(data))
                except ValueError:
                    pass
        return out
    try:
        v = json.loads(body)
        return [v] if isinstance(v, dict) else []
    except ValueError:
        return []


def channel(d):
    resp = d["response"]
    if resp is None:
        return "network"
    if resp["status"] >= 300:
        return "http"
    req = d["request"]
    method = req["method"]
    ct = next((v for k, v in resp["headers"] if k.lower() == "content-type"), "")
    if method == "GET" and "event-stream" in ct:
        return "stream_open"
    if method in ("GET", "OPTIONS", "DELETE"):
        return "success"
    rq = json.loads(req["body"]) if req.get("body") else {}
    if not isinstance(rq, dict) or "id" not in rq or "method" not in rq:
        return "accepted"
    for m in messages(resp):
        if "id" in m and same_id(m["id"], rq["id"]):
            if "error" in m:
                return "jsonrpc_error"
            if m.get("result", {}).get("isError") is True:
                return "tool_error"
            return "success"
    return "malformed"


def expect(stack, case, d):
    """(causes, reason) for one fixture."""
    resp = d["response"]
    status = resp["status"] if resp else None
    ts = stack.startswith("ts-")
    low = "lowlevel" in stack
    stateful = "stateful" in stack
    rawsdk = "rawsdk" in stack
    x = case.startswith("X")
    if x and ts:
        return "protocol_version_unsupported", "TS SDK 1.x refuses the 2026-07-28 era with 400"
    ok = "none", ""
    if case in ("init", "initialized", "tools_list", "N_init_negotiation", "AUTH4_good_token_init",
                "D_success", "D2_echo_success", "D3_omitted_arguments", "L2_no_protocol_version_header",
                "X0_server_discover", "X1_tools_list", "XD_success", "AUTH6_prm_0"):
        return ok
    if case == "AUTH6_prm_2":
        return ok if status == 200 else ("endpoint_not_found", "no metadata at the root path")
    if case == "AUTH6_prm_1":
        return "endpoint_not_found", "no metadata at the path-suffixed location"
    if case in ("K_cors_preflight", "O2_foreign_origin_preflight"):
        if status == 405:
            return "method_not_allowed", "the raw SDK transport serves no OPTIONS"
        if case == "O2_foreign_origin_preflight" and status == 400:
            return "origin_rejected", "Starlette CORS refuses the foreign origin"
        return ok
    if case in ("O_foreign_origin_init", "O3_null_origin_init"):
        return ("origin_rejected", "DNS-rebinding protection refuses the origin") if status == 403 else ok
    if case in ("A_unknown_tool", "K2_cors_post_with_origin", "XA_unknown_tool"):
        if case == "XA_unknown_tool" and low:
            return "unknown_tool|internal_error", "the low-level server replaces the message with 'Internal server error' in this era: the wire holds no cause"
        return "unknown_tool", ""
    if case in ("B_missing_required_arg", "XB_missing_required_arg"):
        if low and case == "XB_missing_required_arg":
            return "invalid_arguments|tool_execution|internal_error", "no validation: the handler runs and fails, and this era hides its message behind -32603"
        if low:
            return "invalid_arguments|tool_execution", "the low-level server does not validate: the handler runs and its own error comes back"
        return "invalid_arguments", ""
    if case in ("B2_wrong_arg_type", "XB2_wrong_arg_type"):
        return "invalid_arguments", ""
    if case in ("C_tool_throws", "C2_lead_get_mcperr", "C2_lead_get_toolerr", "AUTH5_good_token_tool_throws", "XC_tool_throws"):
        if case == "XC_tool_throws" and low:
            return "tool_execution|internal_error", "a thrown tool error sent as JSON-RPC -32603 with the message withheld"
        return "tool_execution", ""
    if case == "C3_lead_get_mcperr":
        return "tool_execution|invalid_arguments", "the tool raised the SDK's protocol error with -32602: on the wire the same as an argument refusal"
    if case in ("E_unknown_method", "XE_unknown_method"):
        return "method_not_found", ""
    if case == "F_malformed_json":
        return "parse_error", ""
    if case == "F2_not_jsonrpc":
        return "parse_error|invalid_request", "JSON that is not JSON-RPC: servers call it either"
    if case == "G_accept_json_only":
        return ok if status == 200 else ("not_acceptable", "")
    if case == "G2_no_accept":
        return "not_acceptable", ""
    if case == "G3_wrong_content_type":
        return "unsupported_media_type", ""
    if case == "H_get":
        return ok if status == 200 else ("method_not_allowed", "")
    if case == "I_bogus_session_id":
        if not stateful:
            return ok
        if status == 404:
            return "session_not_found", ""
        return "session_not_found|session_required", "a 400 for an unknown session id reads as either"
    if case == "I2_no_session_id":
        return "session_required" if stateful else "none", ""
    if case == "M2_after_delete":
        if status == 404:
            return "session_not_found", ""
        return "session_not_found|session_required", "a 400 for an ended session id reads as either"
    if case == "M_delete_session":
        return ok if status == 200 else ("method_not_allowed", "")
    if case in ("J_missing_name", "XJ_missing_name"):
        return "invalid_request", ""
    if case == "L_bad_protocol_version_header":
        return "protocol_version_unsupported", ""
    if case == "XM1_no_meta_envelope":
        return "invalid_request", ""
    if case in ("XM2_header_mismatch", "XM3_missing_std_headers"):
        return "header_mismatch", ""
    if case == "XM4_unsupported_version":
        return "protocol_version_unsupported", ""
    if case in ("AUTH1_no_token", "AUTH2_wrong_token", "AUTH2b_malformed_authz"):
        return "unauthenticated", ""
    if case == "AUTH3_insufficient_scope":
        return "insufficient_scope", ""
    raise SystemExit(f"no expectation for {stack}/{case}")


print("# file\tchannel\tcauses\treason (generated by scripts/gen-expectations.py; reviewed)")
for path in sorted(glob.glob(os.path.join(root, "*/*.json"))):
    d = json.load(open(path))
    stack = os.path.basename(os.path.dirname(path))
    rel = os.path.relpath(path, root)
    causes, reason = expect(stack, d["case"], d)
    print(f"{rel}\t{channel(d)}\t{causes}\t{reason}")
