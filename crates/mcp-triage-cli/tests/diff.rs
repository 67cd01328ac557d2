//! Before and after, against real servers: the TypeScript SDK 1.29.0 demo (unknown tool, bad
//! arguments and a thrown error all as `isError` prose) and the same tools on that SDK's low-level
//! `Server` answering bad arguments with a JSON-RPC -32602 error (`demo/server.mjs
//! --invalid-params-error`). `--write-baseline`, `--baseline` (text, Markdown, JUnit, exit 7) and
//! `diff` over baseline files, a JSON report and a share link, both ways.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{demo, probe, run, temp, text};

const TOKEN: [(&str, &str); 1] = [("T", "demo-token")];

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn b_as_a_json_rpc_error_is_better_than_prose_and_the_reverse_fails_the_baseline() {
    let _seed = demo(18975, &[]);
    let _fixed = demo(18976, &["--invalid-params-error"]);
    let seed_url = "http://127.0.0.1:18975/mcp";
    let fixed_url = "http://127.0.0.1:18976/mcp";
    // At 2025-06-18 a JSON-RPC -32602 for bad arguments conforms (see the 2025-11-25 case below).
    let common = ["--token-env", "T", "--era", "2025-06-18"];

    // The seed's run, written as a baseline (verdicts and evidence only).
    let seed_base = temp("seed-baseline.json");
    let out = probe(
        &[
            &[seed_url][..],
            &common,
            &["--write-baseline", path(&seed_base)],
        ]
        .concat(),
        &TOKEN,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let written = std::fs::read_to_string(&seed_base).unwrap();
    assert!(written.contains("\"format\": \"mcp-triage-baseline/1\""));
    assert!(!written.contains("demo-token"));
    // The successful result's content is not in it, only its shape.
    assert!(!written.contains("\\\"ok\\\":true") && written.contains("\"shape\""));

    // The fixed server against it: better, exit 0, the summary first.
    let fixed_base = temp("fixed-baseline.json");
    let junit = temp("fixed.xml");
    let summary = temp("fixed.md");
    let out = probe(
        &[
            &[fixed_url][..],
            &common,
            &[
                "--baseline",
                path(&seed_base),
                "--write-baseline",
                path(&fixed_base),
            ],
            &["--junit", path(&junit), "--markdown-file", path(&summary)],
        ]
        .concat(),
        &TOKEN,
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("B now arrives as JSON-RPC error -32602: told apart by structure"),
        "{stdout}"
    );
    assert!(stdout.contains("Score 0 of 3 → 2 of 3."), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("classname=\"mcp-triage.baseline\""));
    assert!(!xml.contains("worse than the baseline"), "{xml}");
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### Compared with the baseline"), "{md}");

    // The reverse: worse, exit 7, JUnit failing B and the score, naming what changed.
    let junit = temp("seed.xml");
    let out = probe(
        &[
            &[seed_url][..],
            &common,
            &["--baseline", path(&fixed_base), "--junit", path(&junit)],
        ]
        .concat(),
        &TOKEN,
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(7), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("B now arrives as isError: true: no longer told apart by structure"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("worse than the baseline: told_apart 2 of 2 → 0 of 2"),
        "{xml}"
    );
    assert!(
        xml.contains("worse than the baseline: score 2 of 3 → 0 of 3"),
        "{xml}"
    );

    // diff over the two baselines, both ways; over a JSON report and a share link too.
    let out = run(&["diff", path(&seed_base), path(&fixed_base)], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let out = run(
        &["diff", path(&fixed_base), path(&seed_base), "--json"],
        &[],
    );
    assert_eq!(out.status.code(), Some(7));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["format"], "mcp-triage-diff/1");
    assert_eq!(json["score_change"], "worse");
    let report = probe(
        &[&[seed_url][..], &common, &["--json", "--share"]].concat(),
        &TOKEN,
    );
    let report_file = temp("seed-report.json");
    std::fs::write(&report_file, &report.stdout).unwrap();
    let link = serde_json::from_slice::<serde_json::Value>(&report.stdout).unwrap()["share"]
        .as_str()
        .unwrap()
        .to_string();
    let out = run(
        &["diff", path(&report_file), path(&fixed_base), "--markdown"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert!(text(&out).0.contains("| B · Schema-invalid arguments |"));
    let out = run(&["diff", path(&fixed_base), &link], &[]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out).1);
    // The same run read from a report and from its link: nothing changed.
    let out = run(&["diff", path(&report_file), &link], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out).0.contains("No probe got better or worse."),
        "{}",
        text(&out).0
    );

    // What is not a run is refused in words, before any comparison.
    let bad = temp("not-a-run.json");
    std::fs::write(&bad, "{\"format\": \"something/1\"}").unwrap();
    let out = run(&["diff", path(&bad), path(&seed_base)], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("expected mcp-triage-baseline/1"),
        "{}",
        text(&out).1
    );
    let out = run(&["diff", path(&seed_base)], &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn at_2025_11_25_the_same_change_is_mixed_the_spec_asks_for_tool_errors() {
    let _seed = demo(18982, &[]);
    let _fixed = demo(18983, &["--invalid-params-error"]);
    let base = temp("seed-2025-11-25.json");
    let out = probe(
        &[
            "http://127.0.0.1:18982/mcp",
            "--token-env",
            "T",
            "--write-baseline",
            path(&base),
        ],
        &TOKEN,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let out = probe(
        &[
            "http://127.0.0.1:18983/mcp",
            "--token-env",
            "T",
            "--baseline",
            path(&base),
        ],
        &TOKEN,
    );
    let (stdout, _) = text(&out);
    // Told apart by structure, and a spec deviation (SEP-1303: input validation errors are tool
    // execution errors from 2025-11-25): mixed, and what got worse fails the baseline.
    assert_eq!(out.status.code(), Some(7), "{stdout}");
    assert!(
        stdout.contains("B · Schema-invalid arguments: MIXED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("spec        conforms → deviates  [WORSE]"),
        "{stdout}"
    );
}
