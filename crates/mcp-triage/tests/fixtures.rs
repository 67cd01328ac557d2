//! The expectations table over every public capture: channel exactly, cause within the allowed set.

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

#[test]
fn synthetic_sdk_fixtures_match_their_tables() {
    let root = common::synthetic_fixtures_dir();
    let mut sdks = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = entry.path();
        if !dir.is_dir() {
            continue;
        }
        sdks += 1;
        check_citations(&dir);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        failures.extend(
            check_table(&dir, &dir.join("EXPECT.tsv"))
                .into_iter()
                .map(|f| format!("{name}/{f}")),
        );
        let files = common::json_files(&dir);
        for probe in ["A_", "B_", "C_", "D_"] {
            assert!(
                files.iter().any(|f| f.starts_with(probe)),
                "{}: no {probe} fixture",
                dir.display()
            );
        }
    }
    assert!(sdks >= 10, "expected the named SDKs, found {sdks}");
    assert_no_failures(&failures);
}
