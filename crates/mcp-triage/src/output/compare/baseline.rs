//! Runs as a comparison reads them: from a share link, a baseline file (`mcp-triage-baseline/1`:
//! the share payload as JSON, with its version) or a JSON report (its recorded exchanges replayed,
//! so any report compares, whenever it was written); and baseline files written.

use crate::vocabulary::problem::RunProblemId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::output::share::{Share, VERSION, open_payload};
use crate::run::endpoint::parse_endpoint;
use crate::secrets::redact::Secrets;
use crate::vocabulary::problem::{Problem, ProblemId};

/// The format of a baseline file: a run's share payload as JSON, safe to commit.
pub const BASELINE_FORMAT: &str = "mcp-triage-baseline/1";

/// The longest file a run is read from (a report with its records is the largest).
pub const MAX_RUN_FILE: usize = 16 << 20;

/// A baseline file as written: the format, the payload's version, the payload.
#[derive(Serialize)]
struct Written<'a> {
    format: &'static str,
    share_version: u8,
    run: &'a Share,
}

/// A baseline file as read (through the same JSON reader as a link's payload, so a page that
/// opens links reads baselines with no second copy of it).
#[derive(Deserialize)]
struct Read {
    share_version: u8,
    run: Share,
}

/// The `format` of a JSON document, whatever else it holds.
#[derive(Deserialize)]
struct Format {
    #[serde(default)]
    format: Option<String>,
}

/// A run as a baseline file's text: its share payload, with the format and the payload's version.
pub fn baseline_json(run: &Share) -> String {
    let written = Written {
        format: BASELINE_FORMAT,
        share_version: VERSION,
        run,
    };
    let mut text = serde_json::to_string_pretty(&written).unwrap_or_default();
    text.push('\n');
    text
}

fn unreadable(message: impl Into<String>) -> Problem {
    Problem::new(ProblemId::Run(RunProblemId::Unreadable), message)
}

/// What a JSON document says it is (its `format`), or why it is not JSON.
fn format_of(text: &str) -> Result<Option<String>, Problem> {
    serde_json::from_slice::<Format>(text.as_bytes())
        .map(|f| f.format)
        .map_err(|e| {
            unreadable(format!(
                "not JSON ({e}): expected a share link, a baseline file or a JSON report"
            ))
        })
}

/// A run from a share link or fragment (`…#r=v13.…`) or a baseline file: what a page that opens
/// links reads (a JSON report needs the replay, which only the tool's page and the command line
/// hold: [`read_run`]).
pub fn read_shared_run(text: &str) -> Result<Share, Problem> {
    let trimmed = text.trim();
    if trimmed.len() > MAX_RUN_FILE {
        return Err(unreadable("larger than 16 MiB: not a run MCP Triage wrote"));
    }
    if !trimmed.starts_with('{') {
        // A link: the fragment after `#`, or the fragment itself.
        let fragment = trimmed.rsplit_once('#').map_or(trimmed, |(_, f)| f);
        return crate::output::share::decode(fragment);
    }
    let format = format_of(trimmed)?;
    match format.as_deref() {
        Some(BASELINE_FORMAT) => {}
        f if crate::output::export::is_report_format(f) => {
            return Err(unreadable(
                "a JSON report: open it in the tool (or use mcp-triage diff), which replays its exchanges; here, give its share link or a baseline file",
            ));
        }
        other => {
            return Err(unreadable(format!(
                "format {:?}: expected {BASELINE_FORMAT} or a JSON report ({})",
                other.unwrap_or("none"),
                crate::output::export::REPORT_FORMAT
            )));
        }
    }
    let read: Read = serde_json::from_slice(trimmed.as_bytes()).map_err(|e| {
        unreadable(format!(
            "a baseline file that does not read as one ({e}): it needs its \"share_version\" and its \"run\""
        ))
    })?;
    open_payload(read.share_version, read.run)
}

/// A run from what a user handed in: a share link or fragment, a baseline file, or a JSON report
/// (its exchanges replayed). Any failure is one [`Problem`] saying what was expected.
pub fn read_run(text: &str) -> Result<Share, Problem> {
    let trimmed = text.trim();
    if trimmed.starts_with('{')
        && trimmed.len() <= MAX_RUN_FILE
        && crate::output::export::is_report_format(format_of(trimmed)?.as_deref())
    {
        let value: Value = serde_json::from_str(trimmed).map_err(|e| unreadable(e.to_string()))?;
        return run_of_report(trimmed, &value);
    }
    read_shared_run(trimmed)
}

/// A JSON report's run: its exchanges replayed as `mcp-triage replay` does, then made into the
/// share payload a link of that run holds (its endpoint as the report shows it, no date).
fn run_of_report(text: &str, value: &Value) -> Result<Share, Problem> {
    use crate::output::replay::{read_captures, replay_recording};
    use crate::output::share::{BuildOptions, build};
    let recording = read_captures(text)?;
    let replayed = replay_recording(&recording, None, Secrets::default()).map_err(Problem::from)?;
    let shown = value
        .get("endpoint")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let endpoint =
        parse_endpoint(crate::output::replay::openable_endpoint(shown)).map_err(|e| {
            Problem::new(
                ProblemId::Run(RunProblemId::Unreadable),
                format!("a JSON report whose endpoint {shown:?} does not read as one: {e}"),
            )
        })?;
    let options = BuildOptions {
        include_path: true,
        include_secret_shaped: false,
    };
    let built = build(
        &replayed.report,
        &endpoint,
        options,
        &Secrets::default(),
        "",
        "report",
    );
    Ok(built.payload)
}
