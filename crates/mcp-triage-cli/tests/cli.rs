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
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges"))
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
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-blind-{}", std::process::id()));
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
fn json_lines_carry_the_verdict_fields_in_input_order() {
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
    // mcp-triage-verdict/2: what is not known is absent, never null.
    assert_eq!(a["format"], "mcp-triage-verdict/2");
    assert_eq!(a.get("jsonrpc_code"), None, "absent, not null");
    assert_eq!(a["action"], "pick_another_tool");
    assert_eq!(a["retry"], "futile");
    assert!(a["evidence"].as_array().is_some_and(|e| !e.is_empty()));
    let d: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(d["file"], files[1].to_string_lossy().as_ref());
    assert_eq!(d["channel"], "success");
    assert_eq!(d["cause"], "none");
}

#[test]
fn a_bad_file_gets_an_error_line_and_the_others_are_still_classified() {
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-bad-{}.json", std::process::id()));
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
        .args([
            "classify",
            "--intent",
            "B",
            "--protocol-version",
            "2025-06-18",
            "-",
        ])
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
    // Identifiers in the table are the labelled names the JSON uses (`not_applicable`, not
    // `notapplicable`): an unparseable body never reached the tool.
    // The option's old spelling still works, with a note on standard error.
    let old = bin()
        .args(["classify", "--intent", "C", "--version", "2025-06-18"])
        .arg(fixtures().join("py-mcp-2.3.0-lowlevel-stateless/F_malformed_json.pv2025-06-18.json"))
        .output()
        .unwrap();
    let note = String::from_utf8(old.stderr).unwrap();
    assert!(note.contains("now spelled --protocol-version"), "{note}");
    let table = String::from_utf8(old.stdout).unwrap();
    let spec = table.lines().nth(1).unwrap().split('\t').nth(7).unwrap();
    assert_eq!(spec, "not_applicable", "{table}");
    // `--version` and `-V` alone print the tool's own version.
    for flag in ["--version", "-V"] {
        let v = bin().arg(flag).output().unwrap();
        assert!(v.status.success());
        assert_eq!(
            String::from_utf8(v.stdout).unwrap(),
            format!("mcp-triage {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
    let usage = bin()
        .args(["classify", "--intent", "Z", "x"])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}

/// Copies a capture, adding the `intent` field a browser capture would carry.
fn with_intent(src: &Path, intent: &str, dir: &Path) -> PathBuf {
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(src).unwrap()).unwrap();
    doc["intent"] = serde_json::Value::String(intent.into());
    let out = dir.join(format!("{intent}.json"));
    std::fs::write(&out, serde_json::to_vec(&doc).unwrap()).unwrap();
    out
}

#[test]
fn advice_spec_verdicts_and_summary_for_the_seed() {
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-seed-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let dir = fixtures().join("ts-1.29.0-stateless");
    let files = [
        with_intent(&dir.join("A_unknown_tool.pv2025-11-25.json"), "A", &tmp),
        with_intent(
            &dir.join("B_missing_required_arg.pv2025-11-25.json"),
            "B",
            &tmp,
        ),
        with_intent(&dir.join("C_tool_throws.pv2025-11-25.json"), "C", &tmp),
        with_intent(&dir.join("D_success.pv2025-11-25.json"), "D", &tmp),
    ];
    let lines = bin()
        .args(["classify", "--json", "--summary"])
        .args(&files)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&tmp).ok();
    let out: Vec<serde_json::Value> = String::from_utf8(lines.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(out.len(), 5);
    let get = |i: usize, ptr: &str| out[i].pointer(ptr).cloned().unwrap_or_default();
    assert_eq!(get(0, "/action"), "pick_another_tool");
    assert_eq!(get(1, "/action"), "give_text_to_model");
    assert_eq!(get(2, "/action"), "show_user_do_not_retry");
    assert_eq!(get(0, "/spec/conformance"), "deviates");
    assert_eq!(get(1, "/spec/conformance"), "conforms");
    assert_eq!(get(2, "/spec/conformance"), "conforms");
    assert_eq!(get(3, "/spec/conformance"), "conforms");
    assert_eq!(get(0, "/protocol_version"), "2025-11-25");
    assert_eq!(get(0, "/format"), "mcp-triage-verdict/2");
    assert_eq!(get(0, "/flags/0"), "code_in_text");
    assert!(
        get(0, "/spec/link")
            .as_str()
            .unwrap()
            .ends_with("/2025-11-25/server/tools#error-handling")
    );
    assert_eq!(get(4, "/summary/score"), 0);
    assert_eq!(
        get(4, "/summary/finding"),
        "An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart."
    );
}

#[test]
fn version_rules_flip_the_b_verdict() {
    // Python low-level Server answers B2 with a JSON-RPC -32602 frame: fine up to 2025-06-18,
    // a deviation from 2025-11-25 (SEP-1303).
    let f = fixtures().join("py-mcp-2.3.0-lowlevel-stateless/B2_wrong_arg_type.pv2025-06-18.json");
    let run = |v: &str| {
        let out = bin()
            .args(["classify", "--json", "--intent", "B", "--version", v])
            .arg(&f)
            .output()
            .unwrap();
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        line["spec"]["conformance"].as_str().unwrap().to_string()
    };
    assert_eq!(run("2025-06-18"), "conforms");
    assert_eq!(run("2025-11-25"), "deviates");
}

#[test]
fn verdict_1_is_kept_behind_verdict_format_1_for_one_version() {
    let f = fixtures().join("ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json");
    let run = |args: &[&str]| -> serde_json::Value {
        let out = bin().arg("classify").args(args).arg(&f).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let old = run(&["--json", "--verdict-format", "1"]);
    assert_eq!(old["format"], "mcp-triage-verdict/1");
    let new = run(&["--json"]);
    assert_eq!(new["format"], "mcp-triage-verdict/2");
    for field in ["channel", "cause", "action", "party", "retry"] {
        assert_eq!(old[field], new[field], "{field}");
    }
    // A bare --legacy-json is gone, and says so as a usage error.
    let out = bin()
        .args(["classify", "--legacy-json"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn outcome_reads_an_agents_call_as_the_packages_do_and_refuses_a_wrong_one_in_words() {
    let dir = tempfile_dir("outcome");
    let good = dir.join("call.json");
    std::fs::write(
        &good,
        r#"{"tool": "get_wether", "arguments": {"city": "Oslo"}, "raised": {"name": "MCPError", "code": -32602, "message": "Unknown tool: get_wether"}}"#,
    )
    .unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"tool": "get_wether"}"#).unwrap();
    let out = bin()
        .args(["classify", "--outcome", "--json"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    // A call described wrongly is exit 1 (the table's "not an agent call"), the good one still judged.
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["format"], "mcp-triage-verdict/2");
    assert_eq!(lines[0]["cause"], "unknown_tool");
    assert_eq!(lines[0]["channel"], "jsonrpc_error");
    assert_eq!(lines[0]["retry"], "futile");
    assert_eq!(lines[0]["file"], good.to_str().unwrap());
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("exactly one of result, error, transport, client_error and raised"),
        "{}",
        lines[1]
    );
    // The exchange-only flags are refused with it, as a usage error.
    let out = bin()
        .args(["classify", "--outcome", "--intent", "A"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("apply to exchanges only"));
}

fn tempfile_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-triage-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
