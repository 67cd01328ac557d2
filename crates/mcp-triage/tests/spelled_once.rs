//! Protocol versions are spelled once: no string literal of a version in the core's code outside
//! the table of `ProtocolVersion` (vocabulary/protocol.rs). Test code keeps its literals (they are
//! the data a test reads); comments are words.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// The one file that spells the versions.
const TABLE: &str = "src/vocabulary/protocol.rs";

/// Every `"YYYY-MM-DD"` string literal of `source`'s code (before its test module, outside line
/// comments), with its line number.
fn version_literals(source: &str) -> Vec<(usize, String)> {
    let code = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let bytes = line.as_bytes();
        for (i, _) in line.match_indices('"') {
            let Some(lit) = bytes.get(i..i + 12) else {
                continue;
            };
            let shape = lit[1..11].iter().enumerate().all(|(k, b)| match k {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            });
            if shape && lit[11] == b'"' {
                found.push((n + 1, String::from_utf8_lossy(&lit[1..11]).into_owned()));
            }
        }
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // Test support, not the crate's code.
            if path.file_name().is_some_and(|n| n != "testing") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

#[test]
fn no_protocol_version_is_spelled_outside_its_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The controls: the scanner finds a comparison written as text, and the table's five.
    assert_eq!(
        version_literals("    if revision < \"2025-11-25\" {\n// \"2025-06-18\" in a comment\n"),
        [(1, "2025-11-25".to_string())]
    );
    let table = std::fs::read_to_string(root.join(TABLE)).unwrap();
    assert_eq!(version_literals(&table).len(), 5);
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() > 50, "{}", files.len());
    let spelled: Vec<String> = files
        .iter()
        .filter(|p| !p.ends_with(TABLE))
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            version_literals(&text)
                .into_iter()
                .map(move |(n, v)| format!("{}:{n}: \"{v}\"", p.display()))
        })
        .collect();
    assert!(
        spelled.is_empty(),
        "versions spelled outside {TABLE} (use ProtocolVersion):\n{}",
        spelled.join("\n")
    );
}
