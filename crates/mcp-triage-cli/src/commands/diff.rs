//! `mcp-triage diff BEFORE AFTER`: two runs compared by the core (`compare`), each read from a file
//! (a baseline, a JSON report) or given as a share link; this module reads the bytes and prints
//! the core's rendering.

use mcp_triage::compare::{self, MAX_RUN_FILE};
use mcp_triage::engine::exit;
use mcp_triage::share::Share;

const USAGE: &str = r#"usage: mcp-triage diff BEFORE AFTER [--json | --markdown]

Compares two runs of MCP Triage probe by probe: channel, cause, what decided it,
the kinds of evidence, whether structure tells the failures apart, the spec
verdict, the agent's action, and the score. Each change is better, worse or
neutral by one ordering (docs/baselines.md). Runs against different
endpoints, protocol versions or plans are compared too, with that said first.

BEFORE and AFTER are each a share link (https://…#r=v12.… or just #r=…), a
baseline file (probe --write-baseline) or a JSON report (probe --json).

  --json       the comparison as JSON (mcp-triage-diff/1)
  --markdown   the comparison as Markdown (a CI step summary)

{EXIT}"#;

fn usage() -> String {
    USAGE.replace("{EXIT}", &exit::table_text())
}

/// A run from an argument: a link as given, else the file it names (at most [`MAX_RUN_FILE`]).
fn read(arg: &str) -> Result<Share, String> {
    let text = if arg.contains("#r=") || arg.starts_with("r=") {
        arg.to_string()
    } else {
        let meta = std::fs::metadata(arg).map_err(|e| format!("{arg}: cannot read: {e}"))?;
        if meta.len() > MAX_RUN_FILE as u64 {
            return Err(format!(
                "{arg}: larger than 16 MiB: not a run MCP Triage wrote"
            ));
        }
        std::fs::read_to_string(arg).map_err(|e| format!("{arg}: cannot read: {e}"))?
    };
    compare::read_run(&text).map_err(|p| format!("{arg}: {}", p.message))
}

pub(crate) fn main(args: impl Iterator<Item = String>) -> u8 {
    let mut form = "text";
    let mut runs = Vec::new();
    for arg in args {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{}", usage());
                return exit::OK;
            }
            "--json" | "--markdown" if form != "text" => {
                eprintln!(
                    "mcp-triage diff: --json and --markdown: choose one\n\n{}",
                    usage()
                );
                return exit::USAGE;
            }
            "--json" => form = "json",
            "--markdown" => form = "markdown",
            flag if flag.starts_with("--") => {
                eprintln!("mcp-triage diff: unknown flag {flag:?}\n\n{}", usage());
                return exit::USAGE;
            }
            _ => runs.push(arg),
        }
    }
    let [before, after] = runs.as_slice() else {
        eprintln!(
            "mcp-triage diff: give two runs, BEFORE and AFTER\n\n{}",
            usage()
        );
        return exit::USAGE;
    };
    let (before, after) = match (read(before), read(after)) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("mcp-triage diff: {e}");
            return exit::USAGE;
        }
    };
    let comparison = compare::compare(&before, &after);
    let body = match form {
        "json" => comparison.json(),
        "markdown" => comparison.markdown(),
        _ => comparison.text(),
    };
    println!("{}", body.trim_end());
    exit::of_diff(comparison.regressed())
}
