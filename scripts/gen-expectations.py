#!/usr/bin/env python3
"""Writes crates/mcp-triage/tests/expectations.tsv: the truth for every public fixture.

The cause comes from what each case *is* (the case table in fixtures/README.md) and from what
each server is known to do with it (stateless servers ignore session ids, the TS SDK 1.x refuses the
2026-07-28 era, ...). The reason (`decided_by` and the deciding phrase rule's id) comes from what each
SDK is known to put on the wire for the case: the words are quoted below, with the rule id that names
them. It never runs the classifier and never reads the rules file. The channel follows the mechanical rule of the
classifier issue, computed here from status and body with a separate, naive implementation.

Usage: scripts/gen-expectations.py [FIXTURES_DIR] > crates/mcp-triage/tests/expectations.tsv
       scripts/gen-expectations.py crates/mcp-triage/tests/fixtures/captured \
           > crates/mcp-triage/tests/fixtures/captured/EXPECT.tsv

The second form covers our own captures of the live peers (scripts/capture-peers.mjs): the demo's tools
on the TS SDK 1.32.2 and on the Python low-level Server (which validates no arguments), fastmcp 4.2.3
(plain and with mask_error_details) and rmcp 3.11.0; their wording is quoted where it decides.
"""
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../fixtures/exchanges")


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


def family(stack):
    """What the stack's name says of its server: (ts, low, stateful, fast, rmcp, demo_ts, demo_low).
    The demo stacks are our own captures: the demo's tools on that SDK."""
    return (stack.startswith("ts-"), "lowlevel" in stack, "stateful" in stack,
            stack.startswith("fastmcp-"), stack.startswith("rmcp-"), stack.startswith("ts-1.32.2-demo"),
            "lowlevel-demo" in stack)


def expect(stack, case, d):
    """(causes, reason) for one fixture."""
    resp = d["response"]
    status = resp["status"] if resp else None
    ts, low, stateful, fast, rmcp, _demo_ts, demo_low = family(stack)
    x = case.startswith("X")
    if x and ts:
        return "protocol_version_unsupported", "TS SDK 1.x refuses the 2026-07-28 era with 400"
    ok = "none", ""
    # Our own cases: a header spelled in capitals means the same (RFC 9110); the TS SDK compares Accept
    # case-sensitively (406), Python mcp and fastmcp compare the Content-Type so (415).
    if case == "G4_accept_mixed_case":
        return ("not_acceptable", "the TS SDK misreads a capitalised Accept") if ts else ok
    if case == "G5_content_type_mixed_case":
        return ("unsupported_media_type", "Python mcp misreads a capitalised Content-Type") if (low or fast) else ok
    if demo_low and case in ("B2_wrong_arg_type", "XB2_wrong_arg_type"):
        return "none", "the demo's low-level handler validates nothing: echo returns the 42 it was given"
    if rmcp and case == "F_malformed_json":
        return "parse_error", "rmcp answers 415 'fail to deserialize request body': our body was not JSON"
    if rmcp and case == "F2_not_jsonrpc":
        return "invalid_request", "rmcp answers 415 'unrecognized JSON-RPC message': our body was not JSON-RPC"
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
        return ok if status in (200, 202, 204) else ("method_not_allowed", "")
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


def decided(stack, case, d):
    """(decided_by, rule): what decides the cause, and for words, the id of the phrase rule."""
    resp = d["response"]
    status = resp["status"] if resp else None
    ts, low, stateful, fast, rmcp, demo_ts, demo_low = family(stack)
    structure = "structure", "-"
    if fast:
        if case in ("A_unknown_tool", "K2_cors_post_with_origin", "XA_unknown_tool"):
            return "text", "unknown_tool.unknown_tool"  # isError "Unknown tool: 'lead_delete'"
        if case in ("B_missing_required_arg", "B2_wrong_arg_type", "XB_missing_required_arg", "XB2_wrong_arg_type"):
            return "text", "invalid_arguments.validation_error"  # "1 validation error for call[lead_get]"
        if case in ("O_foreign_origin_init", "O3_null_origin_init") and status == 403:
            return "text", "origin.invalid_origin"
        if case == "O2_foreign_origin_preflight" and status == 400:
            return "text", "origin.disallowed_cors_origin"  # Starlette: 400 "Disallowed CORS origin"
        if case == "XM1_no_meta_envelope":
            return "text", "envelope.meta_required"  # the Python SDK's 2026-07-28 envelope check
        return structure
    if rmcp:
        if case in ("A_unknown_tool", "K2_cors_post_with_origin", "XA_unknown_tool"):
            return "text", "unknown_tool.tool_not_found"  # -32602 "tool not found"
        if case in ("B_missing_required_arg", "XB_missing_required_arg"):
            return "text", "invalid_arguments.missing_field"  # "failed to deserialize parameters: missing field `id`"
        if case in ("B2_wrong_arg_type", "XB2_wrong_arg_type"):
            return "text", "invalid_arguments.failed_to_deserialize"  # "... invalid type: integer `42`, ..."
        if case == "I2_no_session_id" and stateful:
            return "text", "session.mentions_session_id"  # 400 "Bad Request: Session ID is required"
        if case in ("O_foreign_origin_init", "O3_null_origin_init") and status == 403:
            return "text", "origin.origin_header_not_allowed"  # 403 "Forbidden: Origin header is not allowed"
        if case == "XM1_no_meta_envelope":
            return "text", "envelope.meta_missing"  # 400 -32602 "Invalid params: request _meta is missing ..."
        return structure
    if demo_ts and stateful and case in ("I_bogus_session_id", "I2_no_session_id", "M2_after_delete"):
        # An unknown session id gets a fresh transport: 400 "Bad Request: Server not initialized".
        return "text", "session.server_not_initialized"
    if demo_low and case in ("B2_wrong_arg_type", "XB2_wrong_arg_type"):
        return structure  # accepted: a success
    # TS SDK 1.x: 400 -32000 "Bad Request: Unsupported protocol version: 2026-07-28 (supported ...)" to
    # every 2026-07-28 request; XM4 names a version no release knows, so our own header decides.
    if ts and case.startswith("X") and case != "XM4_unsupported_version":
        return "text", "version.unsupported_protocol_version"
    if case in ("A_unknown_tool", "K2_cors_post_with_origin", "XA_unknown_tool"):
        if ts:
            return "text", "unknown_tool.tool_name_not_found"  # "MCP error -32602: Tool lead_delete not found"
        if low and case == "XA_unknown_tool":
            return structure  # -32603 "Internal server error": nothing to read
        return "text", "unknown_tool.unknown_tool"  # "Unknown tool: lead_delete"
    if case in ("B_missing_required_arg", "B2_wrong_arg_type", "XB_missing_required_arg", "XB2_wrong_arg_type"):
        if ts:
            return "text", "invalid_arguments.input_validation_error"  # "MCP error -32602: Input validation error: ..."
        if low:
            if case in ("B2_wrong_arg_type", "XB2_wrong_arg_type"):
                return "text", "invalid_arguments.invalid_request_parameters"  # -32602 "Invalid request parameters"
            return structure  # no validation: the handler's own failure (code 0, or -32603 in 2026-07-28)
        return "text", "invalid_arguments.validation_error"  # "Error executing tool lead_get: 1 validation error for ..."
    if case == "I2_no_session_id" and stateful:
        if ts:
            return "text", "session.no_valid_session_id"  # 400 "Bad Request: No valid session ID provided"
        return "text", "session.missing_session_id"  # 400 "Bad Request: Missing session ID"
    if case in ("I_bogus_session_id", "M2_after_delete") and status == 400 and ts:
        return "text", "session.no_valid_session_id"  # the same 400 for an unknown or ended session
    if case in ("O_foreign_origin_init", "O3_null_origin_init") and status == 403:
        return "text", "origin.invalid_origin"  # 403 "Invalid Origin header"
    if case == "O2_foreign_origin_preflight" and status == 400:
        return "text", "origin.disallowed_cors_origin"  # Starlette: 400 "Disallowed CORS origin"
    if case == "XM1_no_meta_envelope" and not ts:
        return "text", "envelope.meta_required"  # -32602 "params._meta must be an object carrying ..."
    return structure


print("# file\tchannel\tcauses\tdecided_by\trule\treason (generated by scripts/gen-expectations.py; reviewed)")
for path in sorted(glob.glob(os.path.join(root, "*/*.json"))):
    d = json.load(open(path))
    stack = os.path.basename(os.path.dirname(path))
    rel = os.path.relpath(path, root)
    causes, reason = expect(stack, d["case"], d)
    by, rule = decided(stack, d["case"], d)
    print(f"{rel}\t{channel(d)}\t{causes}\t{by}\t{rule}\t{reason}")
