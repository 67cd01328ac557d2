//! Runs as a comparison reads them: from a share link, a baseline file (`mcp-triage-baseline/1`:
//! the share payload as JSON, with its version) or a JSON report (its recorded exchanges replayed,
//! so any report compares, whenever it was written); and baseline files written.

use serde_json::Value;

use crate::output::share::{Share, VERSION, open_payload};
use crate::run::endpoint::parse_endpoint;
use crate::secrets::redact::Secrets;
use crate::vocabulary::problem::{Problem, ProblemId};

/// The format of a baseline file: a run's share payload as JSON, safe to commit.
pub const BASELINE_FORMAT: &str = "mcp-triage-baseline/1";

/// The longest file a run is read from (a report with its records is the largest).
pub const MAX_RUN_FILE: usize = 16 << 20;

/// A run as a baseline: its share payload, with the format and the payload's version (a JSON
/// report's `baseline` field).
pub fn baseline_value(run: &Share) -> Value {
    serde_json::json!({
        "format": BASELINE_FORMAT,
        "share_version": VERSION,
        "run": run,
    })
}

/// [`baseline_value`] as the text of a baseline file.
pub fn baseline_json(run: &Share) -> String {
    let mut text = serde_json::to_string_pretty(&baseline_value(run)).unwrap_or_default();
    text.push('\n');
    text
}

/// A run from what a user handed in: a share link or fragment (`…#r=v12.…`), a baseline file, or a
/// JSON report. Any failure is one [`Problem`] saying what was expected.
pub fn read_run(text: &str) -> Result<Share, Problem> {
    let trimmed = text.trim();
    if trimmed.len() > MAX_RUN_FILE {
        return Err(Problem::new(
            ProblemId::RunUnreadable,
            "larger than 16 MiB: not a run MCP Triage wrote",
        ));
    }
    if !trimmed.starts_with('{') {
        // A link: the fragment after `#`, or the fragment itself.
        let fragment = trimmed.rsplit_once('#').map_or(trimmed, |(_, f)| f);
        return crate::output::share::decode(fragment);
    }
    let value: Value = serde_json::from_str(trimmed).map_err(|e| {
        Problem::new(
            ProblemId::RunUnreadable,
            format!("not JSON ({e}): expected a share link, a baseline file or a JSON report"),
        )
    })?;
    let baseline = match value.get("format").and_then(Value::as_str) {
        Some(BASELINE_FORMAT) => &value,
        // A JSON report holds its exchanges: replayed, they make the run again exactly.
        Some(crate::output::export::REPORT_FORMAT) => return run_of_report(trimmed, &value),
        other => {
            return Err(Problem::new(
                ProblemId::RunUnreadable,
                format!(
                    "format {:?}: expected {BASELINE_FORMAT} or a JSON report (mcp-triage-report/1)",
                    other.unwrap_or("none")
                ),
            ));
        }
    };
    let declared = baseline
        .get("share_version")
        .and_then(Value::as_u64)
        .and_then(|v| u8::try_from(v).ok())
        .ok_or_else(|| {
            Problem::new(
                ProblemId::RunUnreadable,
                "a baseline without its \"share_version\"",
            )
        })?;
    let run = baseline.get("run").cloned().unwrap_or(Value::Null);
    open_payload(declared, run)
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
                ProblemId::RunUnreadable,
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
