//! Whole-result snapshots: every public capture's card (`CardView`, all of it, as text), one file
//! per SDK folder in `tests/snapshots/`. A changed rule shows its whole effect as a diff in review.
//! `UPDATE_EXPECT=1 cargo test -p mcp-triage --test snapshots` rewrites the files; review the diff
//! like code. The control switches one phrase rule off and must see the snapshots change.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::testing::{first_phrase_rule_id, intent_of_capture, with_first_phrase_rule_off};
use mcp_triage::view::CardView;
use serde_json::Value;

const ENDPOINT: &str = "http://127.0.0.1:9/mcp";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges")
}

fn snapshot_file(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/{folder}.txt"))
}

/// The public captures by folder, each folder's files sorted.
fn captures() -> BTreeMap<String, Vec<PathBuf>> {
    let mut by_folder: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for dir in std::fs::read_dir(root()).unwrap().flatten() {
        let folder = dir.file_name().to_string_lossy().into_owned();
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "json") {
                by_folder.entry(folder.clone()).or_default().push(f.path());
            }
        }
    }
    for files in by_folder.values_mut() {
        files.sort();
    }
    by_folder
}

/// The card a capture makes when it is the answer to its probe (by its case's letter; a capture of
/// no probe is shown as a replayed answer).
fn card_of(path: &Path) -> CardView {
    let mut ex = Exchange::from_json(&std::fs::read(path).unwrap()).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    ex.intent = intent_of_capture(&name).map(str::to_string);
    let report = RunReport::from_exchanges(ENDPOINT, vec![ex]);
    CardView::of_record(&report.records[0], &[])
}

/// Every field of the card, one line per value, in the card's own order: `path: value`. Empty
/// fields are left out; text of several lines follows its path, indented.
fn card_text(card: &CardView) -> String {
    let mut out = String::new();
    flatten(&serde_json::to_value(card).unwrap(), "", &mut out);
    out
}

fn flatten(v: &Value, path: &str, out: &mut String) {
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match v {
        Value::Null => {}
        Value::Array(items) if items.is_empty() => {}
        Value::Object(map) if map.is_empty() => {}
        Value::Object(map) => {
            // A badge in one line: `id "label" tone`.
            if let (
                Some(Value::String(id)),
                Some(Value::String(label)),
                Some(Value::String(tone)),
                3,
            ) = (map.get("id"), map.get("label"), map.get("tone"), map.len())
            {
                let _ = writeln!(out, "{path}: {id} {label:?} {tone}");
                return;
            }
            for (k, item) in map {
                flatten(item, &join(k), out);
            }
        }
        // A header: `name: value` in one line.
        Value::Array(items)
            if items.len() == 2
                && items.iter().all(Value::is_string)
                && path.contains("headers[") =>
        {
            let (name, value) = (
                items[0].as_str().unwrap_or(""),
                items[1].as_str().unwrap_or(""),
            );
            let _ = writeln!(out, "{path}: {name}: {value}");
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(item, &format!("{path}[{i}]"), out);
            }
        }
        Value::String(s) if s.contains('\n') => {
            let _ = writeln!(out, "{path}: |");
            for line in s.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        Value::String(s) => {
            let _ = writeln!(out, "{path}: {s}");
        }
        other => {
            let _ = writeln!(out, "{path}: {other}");
        }
    }
}

/// A folder's snapshot: each capture's card under its file name.
fn folder_text(folder: &str, files: &[PathBuf]) -> String {
    let mut text =
        format!("# Every card of the public captures in {folder}/ (tests/snapshots.rs).\n");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy();
        let _ = write!(text, "\n== {name}\n{}", card_text(&card_of(path)));
    }
    text
}

#[test]
fn every_public_capture_card_matches_its_snapshot() {
    let folders = captures();
    assert_eq!(
        folders.values().map(Vec::len).sum::<usize>(),
        912,
        "the public captures"
    );
    for (folder, files) in &folders {
        expect_file![snapshot_file(folder)].assert_eq(&folder_text(folder, files));
    }
    // No snapshot is left over from a folder that is gone.
    for f in std::fs::read_dir(snapshot_file("x").parent().unwrap())
        .unwrap()
        .flatten()
    {
        let name = f.file_name().to_string_lossy().into_owned();
        let folder = name.strip_suffix(".txt").unwrap_or(&name);
        assert!(
            folders.contains_key(folder),
            "{name}: no such capture folder"
        );
    }
}

#[test]
fn a_rule_change_shows_in_the_snapshots() {
    let rule = first_phrase_rule_id();
    assert!(!rule.is_empty(), "the phrase rules");
    let folders = captures();
    let mut changed = Vec::new();
    for (folder, files) in &folders {
        let stored = std::fs::read_to_string(snapshot_file(folder)).unwrap();
        assert_eq!(
            stored,
            folder_text(folder, files),
            "{folder}: the control's base"
        );
        let off = with_first_phrase_rule_off(|| folder_text(folder, files));
        if off != stored {
            // What a reviewer's diff shows: the stored lines the rule's absence changed.
            let kept: std::collections::HashSet<&str> = off.lines().collect();
            changed.extend(
                stored
                    .lines()
                    .filter(|l| !kept.contains(l))
                    .map(|l| format!("{folder}: {l}")),
            );
        }
    }
    // The rule decides causes: without it, some card's cause or evidence reads otherwise.
    assert!(
        changed
            .iter()
            .any(|l| l.contains(": cause: ") || l.contains(": evidence[")),
        "rule {rule} off changed no cause or evidence: {changed:?}"
    );
}
