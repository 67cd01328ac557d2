//! Server-author advice is fitted to the answer observed: each fitted row is checked on a capture
//! that deserves the general line and on one that already does what helps (from the public captures
//! and the synthetic ones, whose sources are cited in their NOTES.md).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use mcp_triage::assess::assess;
use mcp_triage::classify::Options;
use mcp_triage::exchange::Exchange;

fn server_line(file: &str, intent: &str, missing: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(file);
    let ex = Exchange::from_json(&std::fs::read(&path).unwrap()).unwrap();
    let opts = Options {
        intent: Some(intent.into()),
        missing_fields: missing.iter().map(|m| m.to_string()).collect(),
        ..Options::default()
    };
    assess(&ex, &opts).advice.server.to_string()
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
