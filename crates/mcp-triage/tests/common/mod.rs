//! Shared helpers for the fixture-driven tests: where the fixtures are and the expectations table.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

/// The public captures: `$MCP_TRIAGE_FIXTURES`, else the repository's `fixtures/exchanges`.
pub fn public_fixtures_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("MCP_TRIAGE_FIXTURES") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges")
}

/// One stack's public captures whose file names end with `suffix`, in name order (one run's, for
/// a replay).
pub fn captures(stack: &str, suffix: &str) -> Vec<mcp_triage::Exchange> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(public_fixtures_dir().join(stack))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| mcp_triage::Exchange::from_json(&std::fs::read(f).unwrap()).unwrap())
        .collect()
}

/// The synthetic fixtures committed in this repository.
pub fn synthetic_fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/synthetic")
}

/// One row of an expectations table.
#[derive(Debug, Clone)]
pub struct Expectation {
    pub file: String,
    pub channel: String,
    pub causes: Vec<String>,
    /// `structure`, `text` or `intent`.
    pub decided_by: String,
    /// The deciding phrase rule's id, or `-`.
    pub rule: String,
    pub reason: String,
}

/// Reads a `file<TAB>channel<TAB>causes<TAB>decided_by<TAB>rule<TAB>reason` table, skipping `#` lines.
pub fn read_table(path: &Path) -> Vec<Expectation> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() >= 5, "bad row {l:?} in {}", path.display());
            Expectation {
                file: cols[0].to_string(),
                channel: cols[1].to_string(),
                causes: cols[2].split('|').map(str::to_string).collect(),
                decided_by: cols[3].to_string(),
                rule: cols[4].to_string(),
                reason: cols.get(5).copied().unwrap_or("").to_string(),
            }
        })
        .collect()
}

/// Every `*.json` under `dir`, relative paths, sorted.
pub fn json_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(
                    p.strip_prefix(dir)
                        .unwrap_or(&p)
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

/// A small deterministic generator (xorshift64), so generated cases reproduce.
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
