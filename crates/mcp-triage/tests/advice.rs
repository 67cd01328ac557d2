//! Server-author advice is fitted to the answer observed: each fitted row is checked on a capture
//! that deserves the general line and on one that already does what helps (from the public captures
//! and the synthetic ones, whose sources are cited in their NOTES.md).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use mcp_triage::Options;
use mcp_triage::advice;
use mcp_triage::assess;
use mcp_triage::cause::Cause;
use mcp_triage::exchange::Exchange;

fn server_line(file: &str, intent: &str, missing: &[&str]) -> String {
    assessed(file, intent, missing).advice.server.to_string()
}

fn assessed(file: &str, intent: &str, missing: &[&str]) -> mcp_triage::Assessment {
    // `public/…` names a public capture (the repository's fixtures/exchanges); the rest are this
    // crate's own fixtures.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = match file.strip_prefix("public/") {
        Some(capture) => manifest.join("../../fixtures/exchanges").join(capture),
        None => manifest.join("tests/fixtures").join(file),
    };
    let ex = Exchange::from_json(&std::fs::read(&path).unwrap()).unwrap();
    let opts = Options {
        intent: Some(intent.into()),
        missing_fields: missing.iter().map(|m| m.to_string()).collect(),
        ..Options::default()
    };
    assess(&ex, &opts)
}

#[test]
fn unknown_tool_advice_fits_the_channel_and_the_code() {
    // TS SDK 1.29.0 (the seed): an isError result. It deserves the general line.
    let seed = server_line(
        "public/ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json",
        "A",
        &[],
    );
    assert!(
        seed.starts_with("Answer an unknown tool with a JSON-RPC error (-32602)"),
        "{seed}"
    );
    // rmcp 3.1.4: a -32602 frame already.
    let rmcp = server_line("synthetic/rmcp-3.1.4/A_unknown_tool.json", "A", &[]);
    assert!(rmcp.starts_with("Nothing to change"), "{rmcp}");
    // Python mcp 2.3.0 low-level Server: a JSON-RPC error with code 0.
    let lowlevel = server_line(
        "public/py-mcp-2.3.0-lowlevel-stateless/A_unknown_tool.pv2025-06-18.json",
        "A",
        &[],
    );
    assert!(lowlevel.contains("give it the code -32602"), "{lowlevel}");
}

#[test]
fn a_401_that_names_its_resource_metadata_is_not_told_to_add_it() {
    let without = server_line("synthetic/ts-1.20.0/AUTH1_no_token.json", "no_token", &[]);
    assert!(
        without.starts_with("Send 401 with WWW-Authenticate: Bearer resource_metadata="),
        "{without}"
    );
    let with = server_line(
        "public/ts-1.29.0-auth/AUTH1_no_token.pv2025-06-18.json",
        "no_token",
        &[],
    );
    assert!(
        with.starts_with("Nothing to change: the 401 already names its resource_metadata"),
        "{with}"
    );
}

#[test]
fn a_refusal_that_names_the_missing_field_is_not_told_to_name_it() {
    // TS SDK 1.29.0: an isError result whose text names `id`.
    let named = server_line(
        "public/ts-1.29.0-stateless/B_missing_required_arg.pv2025-06-18.json",
        "B",
        &["id"],
    );
    assert!(named.starts_with("Nothing to change"), "{named}");
    // The same answer, had B left out a field it does not mention: the general line.
    let other = server_line(
        "public/ts-1.29.0-stateless/B_missing_required_arg.pv2025-06-18.json",
        "B",
        &["lead_ref"],
    );
    assert!(
        other.starts_with("Return schema validation failures as an isError result"),
        "{other}"
    );
    // TS SDK 1.20.0: names `id`, but in a JSON-RPC error the model never sees.
    let frame = server_line(
        "synthetic/ts-1.20.0/B_missing_required_arg.json",
        "B",
        &["id"],
    );
    assert!(
        frame.starts_with(
            "The refusal already names the missing field; send it as an isError result"
        ),
        "{frame}"
    );
}

/// One answer and the start of the server line it must get. For every fitted arm of
/// `advice::fitted` there is a row that gets it and a row of the same cause that does not.
const CASES: &[(&str, &str, &str)] = &[
    // Tool execution: a JSON-RPC frame (Java SDK 2.0.1), a withheld isError (Python mcp 2.3.0
    // MCPServer), an isError with its message (TS SDK 1.29.0).
    (
        "synthetic/java-sdk-2.0.1/C_tool_throws.json",
        "C",
        "Report execution failures as isError results",
    ),
    (
        "public/py-mcp-2.3.0-mcpserver-stateful/C_tool_throws.pv2025-06-18.json",
        "C",
        "The failure already comes as an isError result, but its message is withheld",
    ),
    (
        "public/ts-1.29.0-stateful/C_tool_throws.pv2025-06-18.json",
        "C",
        "Nothing to change: the failure comes as an isError result with its message",
    ),
    // Unknown method: -32602 (fastmcp 2.14.5), -32601 (Python mcp 2.3.0, 2025-06-18), -32601 with
    // 404 (the same server in 2026-07-28).
    (
        "synthetic/fastmcp-2.14.5/E_unknown_method.json",
        "",
        "Answer unknown methods with -32601",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/E_unknown_method.pv2025-06-18.json",
        "",
        "Nothing to change up to 2025-11-25",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/XE_unknown_method.pv2026-07-28.json",
        "",
        "Nothing to change: an unknown method comes as -32601 with HTTP 404",
    ),
    // tools/call without a name: -32603 (TS SDK 1.29.0) or -32602 (Python mcp 2.3.0).
    (
        "public/ts-1.29.0-stateful/J_missing_name.pv2025-06-18.json",
        "",
        "Answer malformed requests with a JSON-RPC error (-32600 or -32602)",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/J_missing_name.pv2025-06-18.json",
        "",
        "Nothing to change: the malformed request is refused",
    ),
    // Unparseable JSON: Express's HTML error page (TS SDK 1.29.0) or 400 with -32700 (Python).
    (
        "public/ts-1.29.0-stateful/F_malformed_json.pv2025-06-18.json",
        "",
        "Answer unparseable bodies with HTTP 400 and a JSON-RPC -32700 error",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/F_malformed_json.pv2025-06-18.json",
        "",
        "Nothing to change: an unparseable body gets HTTP 400",
    ),
    // Missing scope: error without scope (Python mcp 2.3.0), scope without error (go-sdk 1.7.0),
    // both (Apollo MCP Server, cited).
    (
        "public/py-mcp-2.3.0-mcpserver-auth/AUTH3_insufficient_scope.pv2025-06-18.json",
        "",
        "The 403 says insufficient_scope but not which scope",
    ),
    (
        "synthetic/go-sdk-1.7.0/AUTH2_insufficient_scope.json",
        "",
        "The 403 names a scope but not the error",
    ),
    (
        "cited/apollo-mcp-server/AUTH2_insufficient_scope.json",
        "",
        "Nothing to change: the 403 says insufficient_scope and names the scope",
    ),
    // A foreign Origin: a preflight refused with 400 by the CORS middleware (Python mcp 2.3.0),
    // a 403 from the Origin check (the same server).
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/O2_foreign_origin_preflight.pv2025-06-18.json",
        "",
        "Allow exactly this origin",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/O3_null_origin_init.pv2025-06-18.json",
        "",
        "The 403 is what the spec asks for an Origin",
    ),
    // A wrong Content-Type: 400 in plain text (Python mcp 2.3.0), 415 with a JSON-RPC body (TS).
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/G3_wrong_content_type.pv2025-06-18.json",
        "",
        "Answer with 415 and a JSON-RPC error body",
    ),
    (
        "public/ts-1.29.0-stateful/G3_wrong_content_type.pv2025-06-18.json",
        "",
        "Nothing to change: a wrong Content-Type gets 415",
    ),
    // No session id: 422 (rmcp 3.1.4), 400 (TS SDK 1.29.0).
    (
        "synthetic/rmcp-3.1.4/J_no_session_id.json",
        "",
        "Answer a missing session id with 400",
    ),
    (
        "public/ts-1.29.0-stateful/I2_no_session_id.pv2025-06-18.json",
        "",
        "Nothing to change: a request without a session id gets 400",
    ),
    // An unknown session: 400 (TS SDK 1.29.0), 404 (Python mcp 2.3.0).
    (
        "public/ts-1.29.0-stateful/I_bogus_session_id.pv2025-06-18.json",
        "",
        "Answer unknown or ended sessions with 404",
    ),
    (
        "public/py-mcp-2.3.0-mcpserver-stateful/I_bogus_session_id.pv2025-06-18.json",
        "",
        "Nothing to change: an unknown session gets 404",
    ),
    // An unsupported version: -32602 about _meta (Python, 2025 header), the versions in prose
    // (TS SDK 1.29.0), the versions as data (Python, 2026-07-28).
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/L_bad_protocol_version_header.pv2025-06-18.json",
        "",
        "List the supported versions in the error",
    ),
    (
        "public/ts-1.29.0-stateful/L_bad_protocol_version_header.pv2025-06-18.json",
        "",
        "The error lists the supported versions in prose only",
    ),
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/XM4_unsupported_version.pv2026-07-28.json",
        "",
        "Nothing to change: the error lists the supported versions as data",
    ),
    // A header that disagrees with the body (Python mcp 2.3.0, 2026-07-28). No capture or cited
    // source answers it any other way, so only this side is checked.
    (
        "public/py-mcp-2.3.0-lowlevel-stateless/XM2_header_mismatch.pv2026-07-28.json",
        "",
        "Nothing to change: a header that disagrees with the body gets 400 with -32020",
    ),
];

#[test]
fn every_fitted_advice_arm_is_given_to_the_answer_it_fits_and_only_to_it() {
    let mut failures = Vec::new();
    for (file, intent, expected) in CASES {
        let line = server_line(file, intent, &[]);
        if !line.starts_with(expected) {
            failures.push(format!("{file}: expected {expected:?}, got {line:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_cited_fixtures_name_their_sources() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cited");
    let mut seen = 0;
    for sdk in std::fs::read_dir(&dir).unwrap().flatten() {
        for f in std::fs::read_dir(sdk.path()).unwrap().flatten() {
            if f.path().extension().is_none_or(|x| x != "json") {
                continue;
            }
            let doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(f.path()).unwrap()).unwrap();
            let sources = doc["synthetic"]["sources"].as_array().unwrap();
            assert!(!sources.is_empty(), "{}", f.path().display());
            for s in sources {
                for key in ["string", "repo", "version", "path"] {
                    assert!(s[key].is_string(), "{}: {key}", f.path().display());
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 1);
}

/// Causes whose general line is always deserved: the answer itself is what the line asks to change
/// (a 5xx, a redirect, no answer in time, an unreadable or oversized body…), so there is no answer of
/// that cause that already does what helps. Each says why.
const GENERAL_ONLY: &[(Cause, &str)] = &[
    (
        Cause::InternalError,
        "a bare -32603 is the thing to change; every capture withholds the message",
    ),
    (
        Cause::Forbidden,
        "a 403 without insufficient_scope; no capture or cited source says why in the body",
    ),
    (
        Cause::RateLimited,
        "no capture; the headers are not part of the verdict yet",
    ),
    (Cause::ServerError, "a 5xx is itself the failure"),
    (Cause::Redirect, "a redirect is itself what to change"),
    (Cause::Timeout, "no answer is itself the failure"),
    (
        Cause::ConnectionLost,
        "an answer cut off is itself the failure",
    ),
    (
        Cause::NetworkOrCors,
        "no readable answer is itself the failure",
    ),
    (Cause::BodyTooLarge, "the size is itself what to change"),
    (
        Cause::MalformedResponse,
        "the malformed answer is itself the failure",
    ),
    (Cause::EndpointNotFound, "nothing serves MCP at the URL"),
    (
        Cause::LegacySseTransport,
        "the old transport is itself what to change",
    ),
    (
        Cause::Unknown,
        "an answer that says nothing is itself the failure",
    ),
    (
        Cause::ServerExited,
        "a process that exits under a client is itself the failure",
    ),
];

/// Causes whose general line already says there is nothing to change.
const NEVER_ASKS: &[Cause] = &[
    Cause::MethodNotAllowed,
    Cause::NotAcceptable,
    Cause::Aborted,
    Cause::None,
];

#[test]
fn every_cause_has_fitted_advice_or_a_reason_why_its_general_line_always_fits() {
    let mut fitted: Vec<Cause> = CASES
        .iter()
        .map(|(file, intent, _)| assessed(file, intent, &[]).verdict.cause)
        .collect();
    // Fitted by the tests above.
    fitted.extend([
        Cause::UnknownTool,
        Cause::InvalidArguments,
        Cause::Unauthenticated,
    ]);
    for cause in Cause::ALL {
        let in_fitted = fitted.contains(cause);
        let in_general = GENERAL_ONLY.iter().any(|(c, _)| c == cause);
        let in_never = NEVER_ASKS.contains(cause);
        assert_eq!(
            [in_fitted, in_general, in_never]
                .iter()
                .filter(|b| **b)
                .count(),
            1,
            "{cause:?}: fitted={in_fitted} general={in_general} never={in_never}"
        );
        if in_never {
            let line = advice::for_cause(*cause).server;
            assert!(
                line.starts_with("Nothing to change") || line.contains("is a valid answer"),
                "{cause:?}: {line}"
            );
        }
    }
}
