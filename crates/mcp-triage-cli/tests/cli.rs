//! The `classify` command: the blind test over every public capture, error lines, stdin.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
}

fn fixtures() -> PathBuf {
    std::env::var("MCP_TRIAGE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/exchanges")
        })
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The verdict fields that must not depend on labels or file names.
fn essence(line: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    let obj = v.as_object_mut().unwrap();
    obj.remove("file");
    v
}

fn classify_json(files: &[PathBuf]) -> Vec<String> {
    let out = bin()
        .arg("classify")
        .arg("--json")
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn blind_copies_without_labels_classify_the_same() {
    let originals = all_files(&fixtures());
    assert!(
        originals.len() >= 900,
        "public fixtures not found at {}",
        fixtures().display()
    );
    let tmp = std::env::temp_dir().join(format!("mcp-triage-blind-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut blinded = Vec::new();
    for (i, path) in originals.iter().enumerate() {
        let mut doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let obj = doc.as_object_mut().unwrap();
        for label in ["case", "description", "server", "protocol_version"] {
            obj.remove(label);
        }
        // Opaque names, and a shuffled order so position cannot leak either.
        let name = tmp.join(format!("x{:04}.json", (i * 7919) % 100_003));
        std::fs::write(&name, serde_json::to_vec(&doc).unwrap()).unwrap();
        blinded.push(name);
    }
    let want = classify_json(&originals);
    let got = classify_json(&blinded);
    assert_eq!(want.len(), got.len());
    let mut differences = 0;
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        if essence(w) != essence(g) {
            differences += 1;
            eprintln!("{}: {w}\n  blind: {g}", originals[i].display());
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(
        differences, 0,
        "labels or names changed {differences} verdicts"
    );
}

#[test]
fn json_lines_carry_the_required_fields_in_order() {
    let dir = fixtures().join("ts-1.29.0-stateless");
    let files = vec![
        dir.join("A_unknown_tool.pv2025-06-18.json"),
        dir.join("D_success.pv2025-06-18.json"),
    ];
    let lines = classify_json(&files);
    assert_eq!(lines.len(), 2);
    let a: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(a["file"], files[0].to_string_lossy().as_ref());
    assert_eq!(a["channel"], "tool_error");
    assert_eq!(a["cause"], "unknown_tool");
    assert!(a["jsonrpc_code"].is_null());
    assert!(a["evidence"].as_array().is_some_and(|e| !e.is_empty()));
    let d: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(d["cause"], "none");
}

#[test]
fn a_bad_file_gets_an_error_line_and_the_others_are_still_classified() {
    let tmp = std::env::temp_dir().join(format!("mcp-triage-bad-{}.json", std::process::id()));
    std::fs::write(&tmp, b"{\"format\": \"something-else\"}").unwrap();
    let good = fixtures().join("ts-1.29.0-stateless/C_tool_throws.pv2025-06-18.json");
    let out = bin()
        .args(["classify", "--json"])
        .arg(&tmp)
        .arg(&good)
        .arg("/nonexistent/file.json")
        .output()
        .unwrap();
    std::fs::remove_file(&tmp).ok();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0]["error"].as_str().unwrap().contains("format"));
    assert_eq!(lines[1]["cause"], "tool_execution");
    assert!(lines[2]["error"].as_str().unwrap().contains("cannot read"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("/nonexistent/file.json"));
}

#[test]
fn stdin_human_table_and_flags() {
    let text = std::fs::read(
        fixtures().join("py-mcp-2.3.0-lowlevel-stateless/B2_wrong_arg_type.pv2025-06-18.json"),
    )
    .unwrap();
    let mut child = bin()
        .args(["classify", "--intent", "B", "--version", "2025-06-18", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let row = stdout.lines().nth(1).unwrap();
    assert!(
        row.starts_with("-\t200\tjsonrpc_error\tinvalid_arguments\t-32602"),
        "{row}"
    );
    let usage = bin()
        .args(["classify", "--intent", "Z", "x"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}
