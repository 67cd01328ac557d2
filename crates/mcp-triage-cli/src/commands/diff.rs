//! `mcp-triage diff BEFORE AFTER`: two runs compared by the core (`compare`), each read from a file
//! (a baseline, a JSON report) or given as a share link; this module reads the bytes and prints
//! the core's rendering.

use mcp_triage::compare::{self, MAX_RUN_FILE};
use mcp_triage::engine::exit;
use mcp_triage::share::Share;

use crate::args::{HELP_TEMPLATE, after_help, intro};

const EXAMPLES: &[&str] = &[
    "mcp-triage diff baseline.json report.json",
    "mcp-triage diff 'https://…#r=v14.…' report.json --markdown",
];

const ABOUT: &str =
    "Compares two runs of MCP Triage probe by probe: channel, cause, what decided it,
the kinds of evidence, whether structure tells the failures apart, the spec
verdict, the agent's action, and the score. Each change is better, worse or
neutral by one ordering (docs/baselines.md). Runs against different endpoints,
protocol versions or plans are compared too, with that said first.";

/// `mcp-triage diff`'s command line, as clap reads it.
#[derive(clap::Args)]
#[command(
    about = "Compare two runs probe by probe: better, worse or neutral",
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = intro(EXAMPLES, ABOUT),
    after_help = after_help(""),
)]
pub(crate) struct Cli {
    /// The run before: a share link (https://…#r=v14.… or just #r=…), a
    /// baseline file (probe --write-baseline) or a JSON report (probe --json)
    #[arg(value_name = "BEFORE", verbatim_doc_comment)]
    before: String,
    /// The run after, in any of the same forms
    #[arg(value_name = "AFTER")]
    after: String,
    /// The comparison as JSON (mcp-triage-diff/1)
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// The comparison as Markdown (a CI step summary)
    #[arg(long)]
    markdown: bool,
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

/// Runs `mcp-triage diff …`; returns the exit status.
pub(crate) fn main(cli: Cli) -> u8 {
    let (before, after) = (&cli.before, &cli.after);
    let (before, after) = match (read(before), read(after)) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("mcp-triage diff: {e}");
            return exit::USAGE;
        }
    };
    let comparison = compare::compare(&before, &after);
    let body = if cli.json {
        comparison.json()
    } else if cli.markdown {
        comparison.markdown()
    } else {
        comparison.text()
    };
    println!("{}", body.trim_end());
    exit::of_diff(comparison.regressed())
}
