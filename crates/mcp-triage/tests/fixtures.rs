//! The expectations tables over every capture and reconstructed fixture: channel exactly, cause within
//! the allowed set, and the reason exactly (what decided, and which phrase rule when words did).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use mcp_triage::{Cause, Channel, Exchange, Options, classify};
use serde_json::Value;

fn check_table(dir: &std::path::Path, table: &std::path::Path) -> Vec<String> {
    assert!(
        dir.is_dir(),
        "fixtures not found at {} (set MCP_TRIAGE_FIXTURES)",
        dir.display()
    );
    let rows = common::read_table(table);
    let files = common::json_files(dir);
    let listed: Vec<&str> = rows.iter().map(|r| r.file.as_str()).collect();
    for f in &files {
        assert!(
            listed.contains(&f.as_str()),
            "{f} has no row in {}",
            table.display()
        );
    }
    assert_eq!(
        rows.len(),
        files.len(),
        "rows without a fixture in {}",
        table.display()
    );

    let mut per_stack: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in &rows {
        assert!(
            !row.causes.iter().any(|c| c == "unknown"),
            "{}: 'unknown' is never expected",
            row.file
        );
        assert!(
            row.causes.len() == 1 || !row.reason.is_empty(),
            "{}: several causes need a reason",
            row.file
        );
        assert!(
            mcp_triage::DecidedBy::parse(&row.decided_by).is_some()
                && (row.rule == "-") == (row.decided_by != "text"),
            "{}: decided_by {:?} with rule {:?}: words decide with a rule, nothing else has one",
            row.file,
            row.decided_by,
            row.rule
        );
        for c in &row.causes {
            assert!(
                Cause::parse(c).is_some(),
                "{}: no such cause {c:?}",
                row.file
            );
        }
        let bytes =
            std::fs::read(dir.join(&row.file)).unwrap_or_else(|e| panic!("{}: {e}", row.file));
        let ex = Exchange::from_json(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.file));
        let v = classify(&ex, &Options::default());
        let stack = match row.file.split_once('/') {
            Some((stack, _)) => stack.to_string(),
            None => dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let entry = per_stack.entry(stack).or_default();
        entry.0 += 1;
        let channel_ok = v.channel.as_str() == row.channel;
        let cause_ok = row.causes.iter().any(|c| c == v.cause.as_str());
        let rule = v.deciding_rule().unwrap_or("-");
        let reason_ok = v.decided_by.as_str() == row.decided_by && rule == row.rule;
        if !reason_ok {
            failures.push(format!(
                "{}: decided by {} ({rule}), want {} ({})",
                row.file, v.decided_by, row.decided_by, row.rule
            ));
        }
        if channel_ok {
            entry.1 += 1;
        }
        if cause_ok {
            entry.2 += 1;
        }
        if !channel_ok || !cause_ok {
            failures.push(format!(
                "{}: got {}/{} want {}/{}",
                row.file,
                v.channel,
                v.cause,
                row.channel,
                row.causes.join("|")
            ));
        }
    }
    println!("stack\tfixtures\tchannel\tcause");
    for (stack, (n, ch, ca)) in &per_stack {
        println!(
            "{stack}\t{n}\t{:.1}%\t{:.1}%",
            100.0 * *ch as f64 / *n as f64,
            100.0 * *ca as f64 / *n as f64
        );
    }
    failures
}

fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn public_captures_match_the_expectations_table() {
    let table = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expectations.tsv");
    assert_no_failures(&check_table(&common::public_fixtures_dir(), &table));
}

#[test]
fn failures_are_never_success_and_text_evidence_points_into_the_message() {
    let dir = common::public_fixtures_dir();
    let mut failures = 0;
    for file in common::json_files(&dir) {
        let bytes = std::fs::read(dir.join(&file)).unwrap_or_default();
        let Ok(ex) = Exchange::from_json(&bytes) else {
            continue;
        };
        let v = classify(&ex, &Options::default());
        // A failure, by structure alone: no response, a non-2xx status, or the response to our id is
        // a JSON-RPC error frame or a result with isError: true. None of them is ever a success.
        let status = ex.response.as_ref().map(|r| r.status);
        let error_frame = v.message.as_ref().is_some_and(|m| m.get("error").is_some());
        let is_error = v
            .message
            .as_ref()
            .and_then(|m| m.pointer("/result/isError"))
            == Some(&Value::Bool(true));
        let failure = !status.is_some_and(|s| (200..300).contains(&s)) || error_frame || is_error;
        if failure {
            failures += 1;
            assert_ne!(
                v.channel,
                Channel::Success,
                "{file}: a failure (status {status:?}, error frame {error_frame}, isError {is_error}) classified as success"
            );
        }
        for e in v
            .evidence
            .iter()
            .filter(|e| e.kind == mcp_triage::DecidedBy::Text)
        {
            let (Some(ptr), Some([a, b]), Some(matched)) = (&e.pointer, e.range, &e.matched) else {
                panic!("{file}: text evidence without pointer/range/match: {e:?}");
            };
            let target = if ptr == "/body" {
                None
            } else {
                v.message
                    .as_ref()
                    .and_then(|m| m.pointer(ptr))
                    .and_then(|s| s.as_str())
            };
            if let Some(s) = target {
                let slice: String = s.chars().skip(a).take(b - a).collect();
                assert_eq!(&slice, matched, "{file}: range does not select the match");
            } else {
                assert_eq!(ptr, "/body", "{file}: pointer {ptr} resolves to nothing");
            }
        }
        let decided_text = v
            .evidence
            .iter()
            .any(|e| e.kind == mcp_triage::DecidedBy::Text);
        if v.decided_by == mcp_triage::DecidedBy::Text {
            assert!(
                decided_text,
                "{file}: decided by text without text evidence"
            );
        }
    }
    assert!(
        failures >= 100,
        "only {failures} failures among the captures"
    );
}

/// Every synthetic fixture cites where its strings come from.
fn check_citations(dir: &std::path::Path) {
    for file in common::json_files(dir) {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(&file)).unwrap()).unwrap();
        let synthetic = &doc["synthetic"];
        assert!(
            synthetic["note"].is_string(),
            "{file}: synthetic.note missing"
        );
        let sources = synthetic["sources"].as_array();
        assert!(sources.is_some_and(|s| !s.is_empty()), "{file}: no sources");
        for s in sources.unwrap() {
            for key in ["string", "repo", "version", "path"] {
                assert!(s[key].is_string(), "{file}: a source without {key}: {s}");
            }
            assert!(
                s.get("line").is_some(),
                "{file}: a source without line: {s}"
            );
        }
    }
}

/// Each set below `root` (one folder per SDK or server): cited sources, its own EXPECT.tsv, and with
/// `probes` the four probe fixtures. Returns how many sets there were.
fn check_sets(root: &std::path::Path, probes: bool) -> usize {
    let mut sets = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(root).unwrap().flatten() {
        let dir = entry.path();
        if !dir.is_dir() {
            continue;
        }
        sets += 1;
        check_citations(&dir);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        failures.extend(
            check_table(&dir, &dir.join("EXPECT.tsv"))
                .into_iter()
                .map(|f| format!("{name}/{f}")),
        );
        let files = common::json_files(&dir);
        for probe in ["A_", "B_", "C_", "D_"].iter().filter(|_| probes) {
            assert!(
                files.iter().any(|f| f.starts_with(probe)),
                "{}: no {probe} fixture",
                dir.display()
            );
        }
    }
    assert_no_failures(&failures);
    sets
}

#[test]
fn synthetic_sdk_fixtures_match_their_tables() {
    let sdks = check_sets(&common::synthetic_fixtures_dir(), true);
    assert!(sdks >= 10, "expected the named SDKs, found {sdks}");
}

#[test]
fn cited_server_fixtures_match_their_tables() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cited");
    let dirs = check_sets(&root, false);
    assert!(dirs >= 10, "expected the cited servers, found {dirs}");
}

#[test]
fn the_table_check_catches_a_wrong_deciding_rule_and_a_wrong_decided_by() {
    // The control: a cited set's own table passes; the same rows with the reason changed do not.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cited/servers-redis-2025.5.12");
    let table = std::fs::read_to_string(dir.join("EXPECT.tsv")).unwrap();
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-expect-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for f in common::json_files(&dir) {
        std::fs::copy(dir.join(&f), tmp.join(&f)).unwrap();
    }
    let write = |text: &str| {
        std::fs::write(tmp.join("EXPECT.tsv"), text).unwrap();
        check_table(&tmp, &tmp.join("EXPECT.tsv"))
    };
    assert!(write(&table).is_empty(), "the control passes");
    let wrong_by = table.replacen("\tstructure\t-\t", "\ttext\tsoft_failure.not_found\t", 1);
    assert_ne!(wrong_by, table);
    assert_eq!(
        write(&wrong_by).len(),
        1,
        "a success decided by words is caught"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// The captures whose refusal blames what the request did right (each SDK's behaviour, from its
/// source): the TS SDK's Express pattern answers an unknown or ended session it was sent with 400
/// "Bad Request: No valid session ID provided" (a 404 by the spec). (Python `mcp` 2.3.0 answering an
/// unknown version header with its `_meta` words is not flagged: a request wrong in one way may be
/// refused for another that is also true of it, and one capture cannot tell the two apart.)
const MISLABELLED: &[&str] = &[
    "ts-1.29.0-stateful/I_bogus_session_id.",
    "ts-1.29.0-stateful/M2_after_delete.",
    "ts-1.32.2-stateful/I_bogus_session_id.",
    "ts-1.32.2-stateful/M2_after_delete.",
];

/// Our captures of the live peers (scripts/capture-peers.mjs) that mislabel: the demo on the TS SDK
/// answers an unknown session with 400 "Bad Request: Server not initialized" and a capitalised Accept
/// with 406; Python mcp (low-level and under fastmcp) a capitalised Content-Type with 415; rmcp 3.11.0 a body that is not JSON (-RPC) with 415
/// "fail to deserialize request body", and a tools/call without a name with -32601 "tools/call".
const MISLABELLED_CAPTURED: &[&str] = &[
    "ts-1.32.2-demo-stateful/I_bogus_session_id.",
    "ts-1.32.2-demo-stateful/M2_after_delete.",
    "ts-1.32.2-demo-stateless/M2_after_delete.",
    "ts-1.32.2-demo-stateful/G4_accept_mixed_case.",
    "ts-1.32.2-demo-stateless/G4_accept_mixed_case.",
    "py-mcp-2.3.0-lowlevel-demo-stateful/G5_content_type_mixed_case.",
    "py-mcp-2.3.0-lowlevel-demo-stateless/G5_content_type_mixed_case.",
    "fastmcp-4.2.3-stateless/G5_content_type_mixed_case.",
    "fastmcp-4.2.3-masked-stateless/G5_content_type_mixed_case.",
    "rmcp-3.11.0-stateful/F_malformed_json.",
    "rmcp-3.11.0-stateless/F_malformed_json.",
    "rmcp-3.11.0-stateful/F2_not_jsonrpc.",
    "rmcp-3.11.0-stateless/F2_not_jsonrpc.",
    "rmcp-3.11.0-stateful/J_missing_name.",
    "rmcp-3.11.0-stateless/J_missing_name.",
    "rmcp-3.11.0-stateless/XJ_missing_name.",
];

/// The reconstructed fixtures (synthetic and cited, from their SDKs' sources) that mislabel: TS SDK
/// 1.20.0's README pattern and Python mcp 1.20.0 under fastmcp answer an unknown session with 400
/// "No valid session ID provided"; fastmcp for TypeScript and the PHP SDK answer an unknown tool with
/// -32601. Not flagged, and so not listed: the C# SDK's 400 "The Mcp-Session-Id header is not
/// supported in stateless mode", which names the session without saying none was sent.
const MISLABELLED_RECONSTRUCTED: &[&str] = &[
    "ts-1.20.0/I_bogus_session_id.",
    "py-mcp-1.20.0-fastmcp/I_bogus_session_id.",
    "fastmcp-ts-4.16.8/A_unknown_tool.",
    "php-sdk-0.7.1/A_unknown_tool.",
];

/// The cited fixtures that mislabel: a version refusal sent with 404 to a request whose session was
/// live (the status says the session is unknown, the words say the version).
const MISLABELLED_CITED: &[&str] = &["validation-shapes/L_404_version_with_session."];

/// The files under `dir` flagged `refusal_mislabelled`, checked against `listed` both ways.
fn check_mislabels(dir: &std::path::Path, listed: &[&str]) -> usize {
    let mut flagged = 0;
    for file in common::json_files(dir) {
        let ex = Exchange::from_json(&std::fs::read(dir.join(&file)).unwrap()).unwrap();
        let v = classify(&ex, &Options::default());
        let want = listed.iter().any(|m| file.starts_with(m));
        let got = v
            .flags
            .contains(&mcp_triage::cause::Flag::RefusalMislabelled);
        assert_eq!(got, want, "{file}: flag {got}, expected {want}");
        if got {
            flagged += 1;
            // What really happened decides, never the server's label for it.
            let label_kept = matches!(v.cause, Cause::NotAcceptable | Cause::UnsupportedMediaType)
                && !file.contains("rmcp");
            assert!(
                label_kept
                    || matches!(
                        v.cause,
                        Cause::SessionNotFound
                            | Cause::UnknownTool
                            | Cause::ProtocolVersionUnsupported
                            | Cause::ParseError
                            | Cause::InvalidRequest
                    ),
                "{file}: {}",
                v.cause
            );
        }
    }
    flagged
}

#[test]
fn our_captures_flag_exactly_the_refusals_that_blame_what_the_request_did_right() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/captured");
    let flagged = check_mislabels(&dir, MISLABELLED_CAPTURED);
    assert!(flagged >= 20, "only {flagged}");
}

#[test]
fn the_reconstructed_fixtures_flag_exactly_the_refusals_that_say_something_the_request_contradicts()
{
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let flagged = check_mislabels(&fixtures.join("synthetic"), MISLABELLED_RECONSTRUCTED)
        + check_mislabels(&fixtures.join("cited"), MISLABELLED_CITED);
    assert_eq!(flagged, 5);
}

#[test]
fn a_refusal_that_blames_what_our_request_did_right_is_flagged_on_the_real_captures_and_nowhere_else()
 {
    assert_eq!(
        check_mislabels(&common::public_fixtures_dir(), MISLABELLED),
        12,
        "the captures of the listed cases"
    );
}

#[test]
fn the_mislabel_flag_needs_the_contradiction_a_request_without_a_session_id_is_not_flagged() {
    // The control: the same 400 "No valid session ID provided" is true when we sent no session id.
    let dir = common::public_fixtures_dir();
    let file = "ts-1.29.0-stateful/I_bogus_session_id.pv2025-06-18.json";
    let mut ex = Exchange::from_json(&std::fs::read(dir.join(file)).unwrap()).unwrap();
    let flagged = |ex: &Exchange| {
        classify(ex, &Options::default())
            .flags
            .contains(&mcp_triage::cause::Flag::RefusalMislabelled)
    };
    assert!(flagged(&ex));
    ex.request
        .headers
        .retain(|(k, _)| !k.eq_ignore_ascii_case("mcp-session-id"));
    assert!(!flagged(&ex));
    assert_eq!(
        classify(&ex, &Options::default()).cause,
        Cause::SessionRequired
    );
}

#[test]
fn our_captures_of_the_live_peers_match_their_table() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/captured");
    let failures = check_table(&dir, &dir.join("EXPECT.tsv"));
    assert_no_failures(&failures);
    assert!(
        common::json_files(&dir).len() >= 700,
        "the capture script's output"
    );
}

/// The shapes of `cited/validation-shapes`: each B fixture is `invalid_arguments` decided by its
/// payload's shape, and with the reader switched off (the control) none of them is (most become
/// `tool_execution`; zod 4's message still says "Invalid input", so words decide it then).
#[test]
fn each_validation_payload_decides_from_its_shape_and_the_reader_off_turns_each_red() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cited/validation-shapes");
    let mut shapes = 0;
    for file in common::json_files(&dir)
        .into_iter()
        .filter(|f| f.starts_with("B_"))
    {
        let ex = Exchange::from_json(&std::fs::read(dir.join(&file)).unwrap()).unwrap();
        let by_shape = |v: &mcp_triage::Verdict| {
            v.cause == Cause::InvalidArguments
                && v.fired_rules()
                    .iter()
                    .any(|r| r.starts_with("validation_shape."))
        };
        assert!(by_shape(&classify(&ex, &Options::default())), "{file}");
        let off =
            mcp_triage::testing::with_validation_reader_off(|| classify(&ex, &Options::default()));
        assert!(!by_shape(&off), "{file}: the control");
        shapes += 1;
    }
    assert_eq!(shapes, 7);
    // Where tools/list told which required argument probe B left out, the evidence names it.
    let ex = Exchange::from_json(&std::fs::read(dir.join("B_pydantic_errors_data.json")).unwrap())
        .unwrap();
    let opts = Options {
        missing_fields: vec!["id".into()],
        ..Options::default()
    };
    let facts: Vec<String> = classify(&ex, &opts)
        .evidence
        .into_iter()
        .map(|e| e.fact)
        .collect();
    assert!(
        facts.iter().any(|f| f.contains("points at `id`")),
        "{facts:?}"
    );
    assert!(
        facts.iter().any(|f| f == "`id`: Field required"),
        "{facts:?}"
    );
}

/// ARCHITECTURE.md, "Words over inference": a 404 to a request with a live session is inferred to
/// mean the session is unknown, unless the answer says what happened; then the words decide and
/// the status is flagged. The control: the same answer without the words keeps the inference.
#[test]
fn explicit_words_outrank_the_cause_a_status_alone_suggests() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cited/validation-shapes/L_404_version_with_session.json");
    let text = std::fs::read_to_string(path).unwrap();
    let ex = Exchange::from_json(text.as_bytes()).unwrap();
    let v = classify(&ex, &Options::default());
    assert_eq!(v.cause, Cause::ProtocolVersionUnsupported);
    assert_eq!(v.decided_by, mcp_triage::DecidedBy::Text);
    assert!(
        v.flags
            .contains(&mcp_triage::cause::Flag::RefusalMislabelled)
    );
    let silent = text.replace(
        "Bad Request: Unsupported protocol version: 2099-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)",
        "Bad Request",
    );
    assert_ne!(silent, text);
    let v = classify(
        &Exchange::from_json(silent.as_bytes()).unwrap(),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::SessionNotFound);
    assert_eq!(v.decided_by, mcp_triage::DecidedBy::Structure);
    // Structure in error.data speaks as clearly: the versions the server supports.
    let data = text.replace(
        "\\\"code\\\":-32000",
        "\\\"code\\\":-32000,\\\"data\\\":{\\\"supported\\\":[\\\"2025-11-25\\\"]}",
    );
    assert_ne!(data, text);
    let silent_with_data = data.replace(
        "Bad Request: Unsupported protocol version: 2099-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)",
        "Bad Request",
    );
    let v = classify(
        &Exchange::from_json(silent_with_data.as_bytes()).unwrap(),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::ProtocolVersionUnsupported);
    assert_eq!(v.decided_by, mcp_triage::DecidedBy::Structure);
}
