//! Every command's `--help`, and the usage errors, as snapshots in `tests/help/`: a changed option
//! or sentence shows as a diff in review. `UPDATE_EXPECT=1 cargo test -p mcp-triage-cli --test
//! help` rewrites the files; review the diff like code. Each help opens with its usage line and two
//! examples; each usage error is the error, perhaps why, and where the help is: five lines at most,
//! with the core's status for bad usage.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};

use expect_test::expect_file;
use mcp_triage::engine::exit;

/// Every command line with a help of its own.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["probe"],
    &["replay"],
    &["diff"],
    &["census"],
    &["census", "report"],
    &["census", "matrix"],
    &["classify"],
];

fn snapshot(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/help/{name}.txt"))
}

#[test]
fn every_help_opens_with_its_usage_and_two_examples_and_matches_its_snapshot() {
    for command in COMMANDS {
        let mut args = command.to_vec();
        args.push("--help");
        let out = common::run(&args, &[]);
        let (help, stderr) = common::text(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        let lines: Vec<&str> = help.lines().collect();
        let usage = format!("Usage: mcp-triage {}", command.join(" "));
        assert!(lines[0].starts_with(usage.trim_end()), "{args:?}: {help}");
        let examples = lines.iter().position(|l| *l == "Examples:").unwrap();
        assert!(examples <= 3, "{args:?}: the examples follow the usage");
        let shown = lines[examples + 1..]
            .iter()
            .take_while(|l| !l.is_empty())
            .filter(|l| l.contains("mcp-triage "))
            .count();
        let want = if command.is_empty() { 3 } else { 2 };
        assert_eq!(shown, want, "{args:?}: {help}");
        // `-h` is the same help: one form, whichever is asked.
        let mut short = command.to_vec();
        short.push("-h");
        assert_eq!(common::text(&common::run(&short, &[])).0, help, "{short:?}");
        let name = if command.is_empty() {
            "mcp-triage".to_string()
        } else {
            command.join("-")
        };
        expect_file![snapshot(&name)].assert_eq(&help);
    }
}

#[test]
fn the_top_help_has_one_line_per_command() {
    let help = common::text(&common::run(&["--help"], &[])).0;
    for command in ["probe", "replay", "diff", "census", "classify"] {
        let rows = help
            .lines()
            .filter(|l| l.starts_with(&format!("  {command} ")))
            .count();
        assert_eq!(rows, 1, "{command}: {help}");
    }
}

/// Usage errors that once printed the whole help after their one line.
const USAGE_ERRORS: &[&[&str]] = &[
    &[],
    &["probes"],
    &["probe"],
    &["probe", "http://127.0.0.1:9/mcp", "--tokn-env", "T"],
    &["probe", "http://127.0.0.1:9/mcp", "--token", "demo-token"],
    &[
        "probe",
        "http://127.0.0.1:9/mcp",
        "--oauth",
        "--token-stdin",
    ],
    &[
        "probe",
        "http://127.0.0.1:9/mcp",
        "--stdio",
        "--",
        "node",
        "x",
    ],
    &["probe", "--stdio", "--origin", "o", "--", "node", "x"],
    &["probe", "--stdio"],
    &["probe", "http://127.0.0.1:9/mcp", "--client-id", "x"],
    &["probe", "http://127.0.0.1:9/mcp", "--era", "1999"],
    &["probe", "http://127.0.0.1:9/mcp", "--json", "--markdown"],
    &[
        "probe",
        "http://127.0.0.1:9/mcp",
        "--token-env",
        "MCP_TRIAGE_UNSET",
    ],
    &["replay"],
    &["diff", "a.json"],
    &["census", "targets.txt"],
    &["census", "report"],
    &["classify", "--intent", "Z", "x.json"],
    &["classify", "--outcome", "--summary", "x.json"],
    &["classify", "--verdict-format", "1", "x.json"],
];

#[test]
fn a_usage_error_is_the_error_and_a_pointer_to_help_in_five_lines_at_most() {
    let mut all = String::new();
    for args in USAGE_ERRORS {
        let out = common::run(args, &[]);
        let (stdout, stderr) = common::text(&out);
        assert_eq!(out.status.code(), Some(exit::USAGE.into()), "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!((2..=5).contains(&lines.len()), "{args:?}: {stderr}");
        assert!(
            lines.last().unwrap().ends_with(" --help'."),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("Usage:"), "{args:?}: {stderr}");
        // A token given on the command line is refused without being repeated.
        assert!(!stderr.contains("demo-token"), "{args:?}: {stderr}");
        all.push_str(&format!("$ mcp-triage {}\n{stderr}\n", args.join(" ")));
    }
    expect_file![snapshot("usage-errors")].assert_eq(&all);
}
