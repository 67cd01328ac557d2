//! Recordings as read from files or a paste: their exchanges, sources, era and recorded plan.

use crate::vocabulary::problem::PasteProblemId;
use crate::vocabulary::problem::{Problem, ProblemId};
use serde_json::Value;

use super::era::era_named;
use super::outcome::{MAX_CAPTURES, ReplayProblem};
use crate::run::catalogue::SkipReason;
use crate::run::engine::{Era, Mode, ProbeEdit};
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::probe::ProbeName;

/// Recorded exchanges as read from files or a paste, with the era and the plan a report names.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// The exchanges, in the order given.
    pub exchanges: Vec<Exchange>,
    /// A label for each exchange, for messages that name captures (a file name, `exchange 3`).
    pub sources: Vec<String>,
    /// The era the run spoke, when the text is a report that says so (else inferred).
    pub era: Option<Era>,
    /// The plan the run made, when the text is a report (exchanges alone record none).
    pub plan: Option<RecordedPlan>,
}

impl Recording {
    /// Adds what one file held, its exchanges labelled with the file's `name`.
    pub fn add(&mut self, name: &str, read: Recording) {
        let one = read.exchanges.len() == 1;
        self.sources.extend(read.sources.iter().map(|s| {
            if one || s.is_empty() {
                name.to_string()
            } else {
                format!("{name} ({s})")
            }
        }));
        self.exchanges.extend(read.exchanges);
        self.era = self.era.take().or(read.era);
        self.plan = self.plan.take().or(read.plan);
    }
}

/// How a recorded run chose its probes, for a replay to choose them again.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedPlan {
    /// Quick check, or Review first (the page's review, or `--plan`).
    pub mode: Mode,
    /// Review first's edits as the run applied them: each call the person chose, each probe they
    /// skipped, the rest kept as the engine planned them (empty for a Quick check, whose consent
    /// is read from the calls).
    pub edits: Vec<(ProbeName, ProbeEdit)>,
}

/// The plan a JSON report (`mcp-triage-report/1` or /2) recorded (`mode` and `probes`), if it says.
fn plan_of_report(report: &Value) -> Option<RecordedPlan> {
    let mode = report
        .get("mode")
        .and_then(Value::as_str)
        .and_then(Mode::parse)?;
    // `skipped` read as the report wrote it (a deserializer would be bundle the page does not need).
    let by_user = serde_json::to_value(SkipReason::SkippedByUser).ok();
    let edits = match mode {
        Mode::Quick => Vec::new(),
        Mode::Review => report
            .get("probes")?
            .as_array()?
            .iter()
            .filter_map(|p| {
                let probe = ProbeName::parse(p.get("probe")?.as_str()?)?;
                let skipped_by_user = p
                    .get("skipped")
                    .is_some_and(|s| Some(s) == by_user.as_ref());
                // A call the person chose says so; one the engine chose is kept as it was.
                let chosen = p.get("choice").filter(|c| {
                    c.get("why").and_then(Value::as_str) == Some(crate::run::engine::CHOSEN_BY_YOU)
                });
                let edit = match (chosen, skipped_by_user) {
                    (_, true) => ProbeEdit::Skip,
                    (Some(c), false) => ProbeEdit::Replace {
                        tool: c.get("tool")?.as_str()?.to_string(),
                        arguments: c
                            .get("arguments")
                            .cloned()
                            .unwrap_or_else(|| serde_json::json!({})),
                        // The recorded run called it: the person who ran it agreed. Nothing is
                        // sent by a replay.
                        opt_in: true,
                    },
                    (None, false) => ProbeEdit::Keep,
                };
                Some((probe, edit))
            })
            .collect(),
    };
    Some(RecordedPlan { mode, edits })
}

/// Reads recordings from one JSON text: an `mcp-exchange/1` document, an array of them, or a
/// JSON report, /1 or /2 (its records' exchanges in order, and its era).
pub fn read_captures(text: &str) -> Result<Recording, Problem> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Problem::of_json(
            ProblemId::Paste(PasteProblemId::NotJson),
            "not JSON: ",
            &e,
            text,
        )
    })?;
    let is_report =
        crate::output::export::is_report_format(value.get("format").and_then(Value::as_str));
    let (era, plan) = if is_report {
        (value.get("era").and_then(era_named), plan_of_report(&value))
    } else {
        (None, None)
    };
    let items = match value {
        Value::Array(items) => items,
        Value::Object(ref m) if is_report => m
            .get("records")
            .and_then(Value::as_array)
            .map(|rs| {
                rs.iter()
                    .filter_map(|r| r.get("exchange").cloned())
                    .collect()
            })
            .unwrap_or_default(),
        other => vec![other],
    };
    if items.len() > MAX_CAPTURES {
        return Err(ReplayProblem::TooMany(items.len()).into());
    }
    let exchanges = items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            Exchange::from_json(v.to_string().as_bytes()).map_err(|e| {
                let p = Problem::from(e);
                Problem::new(p.id, format!("exchange {}: {}", i + 1, p.message))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sources = if exchanges.len() == 1 {
        vec![String::new()]
    } else {
        (1..=exchanges.len())
            .map(|i| format!("exchange {i}"))
            .collect()
    };
    Ok(Recording {
        exchanges,
        sources,
        era,
        plan,
    })
}
