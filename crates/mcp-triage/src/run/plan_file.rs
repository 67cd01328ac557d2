//! `plan.json`: a Review-first plan kept as a file — tool names, arguments and opt-ins, never the
//! endpoint or a secret — written by the page and the CLI (`--write-plan`), read back by both (`--plan`).
//! A plan file is untrusted input: the decoder is strict (a known format, no unknown fields, each
//! probe at most once) and capped (file size, tool name length, argument depth) before anything
//! else reads it. Loading a plan is never consent by itself: the shell shows it for the user to run.

use crate::vocabulary::problem::PlanProblemId;
use crate::vocabulary::problem::{Problem, ProblemId};
use crate::vocabulary::seeded_bug::{self, SeededBug};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::secrets::redact::{self, Secrets};
use crate::vocabulary::limits::MAX_TOOL_NAME_CHARS;
use crate::vocabulary::probe::ProbeName;

/// The format identifier every plan file carries.
pub const PLAN_FORMAT: &str = "mcp-triage-plan/1";
/// The largest plan file read (checked before parsing).
pub const MAX_PLAN_BYTES: usize = 64 * 1024;
/// The deepest nesting of arguments a plan may hold.
pub(crate) const MAX_ARGUMENT_DEPTH: usize = 16;

/// A plan file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// One entry per probe the plan says something about.
    pub probes: Vec<PlanEntry>,
}

pub use crate::run::consent::PlanEntry;

/// What a loaded plan puts in the Review first form for one probe. A file never opts in for the
/// person reading it: `opt_in` starts unticked whatever the file says (`file_opts_in` says what it
/// asked, for the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormRow {
    /// Which probe.
    pub probe: ProbeName,
    /// The tool to call (empty when the plan names none).
    pub tool: String,
    /// The arguments, pretty-printed (`{}` when the plan gives none).
    pub arguments: String,
    /// Do not send it.
    pub skip: bool,
    /// The file asked to accept side effects of this call.
    pub file_opts_in: bool,
}

impl PlanFile {
    /// The form rows this plan fills in, and the message to show: nothing has been sent, and which
    /// probes the file opts in to side effects for (the user ticks those themselves).
    pub fn form_rows(&self) -> (Vec<FormRow>, String) {
        let rows: Vec<FormRow> = self
            .probes
            .iter()
            .map(|e| FormRow {
                probe: e.probe,
                tool: e.tool.clone().unwrap_or_default(),
                arguments: e
                    .arguments
                    .as_ref()
                    .and_then(|a| serde_json::to_string_pretty(a).ok())
                    .unwrap_or_else(|| "{}".into()),
                skip: e.skip,
                file_opts_in: e.opt_in,
            })
            .collect();
        let opted: Vec<&str> = rows
            .iter()
            .filter(|r| r.file_opts_in)
            .map(|r| r.probe.as_str())
            .collect();
        let message = if opted.is_empty() {
            "Plan loaded: nothing has been sent. Check it, then run it.".to_string()
        } else {
            format!(
                "Plan loaded: nothing has been sent. The file opts in to side effects for probe {}: tick the opt-in yourself to agree.",
                opted.join(", ")
            )
        };
        (rows, message)
    }
}

problem_enum! {
/// Why a plan file cannot be used.
PlanProblem => Plan(PlanProblemId) {
    /// Over [`MAX_PLAN_BYTES`].
    TooLarge,
    /// Not JSON of this shape (the parser's message, with its line and column).
    NotAPlan(String),
    /// Another format or version.
    UnknownFormat(String),
    /// The same probe twice.
    DuplicateProbe(ProbeName),
    /// A tool name that is empty, too long, or holds control characters.
    BadToolName(ProbeName),
    /// Arguments that are not a JSON object, or nest too deep.
    BadArguments(ProbeName),
}
}

impl std::fmt::Display for PlanProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanProblem::TooLarge => write!(
                f,
                "This file is over {} KiB: a plan is a few hundred bytes.",
                MAX_PLAN_BYTES / 1024
            ),
            PlanProblem::NotAPlan(why) => write!(f, "This is not a plan file: {why}."),
            PlanProblem::UnknownFormat(format) => write!(
                f,
                "This plan is in format {format:?}; this page reads {PLAN_FORMAT:?}."
            ),
            PlanProblem::DuplicateProbe(p) => {
                write!(f, "The plan names probe {} twice.", p.as_str())
            }
            PlanProblem::BadToolName(p) => write!(
                f,
                "Probe {}: the tool name must be 1 to {MAX_TOOL_NAME_CHARS} characters, without control characters.",
                p.as_str()
            ),
            PlanProblem::BadArguments(p) => write!(
                f,
                "Probe {}: arguments must be a JSON object nested at most {MAX_ARGUMENT_DEPTH} deep.",
                p.as_str()
            ),
        }
    }
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Reads a plan file: strict and capped (see the module docs).
pub fn decode(text: &str) -> Result<PlanFile, Problem> {
    if text.len() > MAX_PLAN_BYTES {
        return Err(PlanProblem::TooLarge.into());
    }
    let plan: PlanFile = serde_json::from_str(text).map_err(|e| {
        Problem::of_json(
            ProblemId::Plan(PlanProblemId::NotAPlan),
            "This is not a plan file: ",
            &e,
            text,
        )
    })?;
    checked(plan).map_err(Problem::from)
}

/// A parsed plan, checked.
fn checked(plan: PlanFile) -> Result<PlanFile, PlanProblem> {
    if plan.format != PLAN_FORMAT {
        let mut shown: String = plan.format.chars().take(40).collect();
        shown.retain(|c| !c.is_control());
        return Err(PlanProblem::UnknownFormat(shown));
    }
    let mut seen = Vec::new();
    for entry in &plan.probes {
        if seen.contains(&entry.probe) && !seeded_bug::is_on(SeededBug::PlanDuplicateProbe) {
            return Err(PlanProblem::DuplicateProbe(entry.probe));
        }
        seen.push(entry.probe);
        if let Some(tool) = &entry.tool
            && (tool.trim().is_empty()
                || tool.chars().count() > MAX_TOOL_NAME_CHARS
                || tool.chars().any(char::is_control))
        {
            return Err(PlanProblem::BadToolName(entry.probe));
        }
        if let Some(args) = &entry.arguments
            && (!args.is_object() || depth(args) > MAX_ARGUMENT_DEPTH)
        {
            return Err(PlanProblem::BadArguments(entry.probe));
        }
    }
    Ok(plan)
}

/// A plan row's arguments as a person typed them: a JSON value, or why not, naming the probe.
pub fn arguments_of(probe: ProbeName, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        format!(
            "Probe {}: the arguments are not valid JSON ({e}).",
            probe.as_str()
        )
    })
}

/// Writes a plan file. Anything of the run's secrets the user typed into a tool name or arguments
/// is redacted: a plan file holds no secret.
pub fn encode(probes: Vec<PlanEntry>, secrets: &Secrets) -> String {
    let plan = PlanFile {
        format: PLAN_FORMAT.into(),
        probes,
    };
    let text = serde_json::to_string_pretty(&plan).unwrap_or_default();
    redact::redact_exact(&text, secrets).0
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use serde_json::json;

    use super::*;

    #[test]
    fn a_loaded_plan_fills_the_form_but_never_opts_in_for_the_reader() {
        let plan = decode(
            r#"{"format":"mcp-triage-plan/1","probes":[{"probe":"C","tool":"lead_delete","arguments":{"id":"x"},"opt_in":true},{"probe":"D","skip":true}]}"#,
        )
        .unwrap();
        let (rows, message) = plan.form_rows();
        assert_eq!(rows.len(), 2);
        assert!(rows[0].file_opts_in && rows[0].tool == "lead_delete");
        assert!(rows[0].arguments.contains("\"id\": \"x\""));
        assert!(rows[1].skip && rows[1].arguments == "{}");
        assert!(
            message.contains("opts in to side effects for probe C"),
            "{message}"
        );
        assert!(message.contains("nothing has been sent"));
    }

    fn entry(probe: ProbeName, tool: &str, arguments: Value) -> PlanEntry {
        PlanEntry {
            probe,
            skip: false,
            tool: Some(tool.into()),
            arguments: Some(arguments),
            opt_in: true,
        }
    }

    #[test]
    fn a_plan_round_trips_and_holds_no_secret() {
        let secret = "sk-plan-secret-0123456789";
        let secrets = Secrets::new([secret]);
        let text = encode(
            vec![
                entry(ProbeName::B, "lead_get", json!({})),
                entry(ProbeName::C, "lead_get", json!({"id": secret})),
            ],
            &secrets,
        );
        assert!(!text.contains(secret), "{text}");
        let plan = decode(&text).unwrap();
        assert_eq!(plan.format, PLAN_FORMAT);
        assert_eq!(plan.probes.len(), 2);
        assert_eq!(plan.probes[0].tool.as_deref(), Some("lead_get"));
        assert!(plan.probes[1].opt_in);
    }

    #[test]
    fn the_decoder_refuses_what_is_not_exactly_a_plan() {
        let ok = |probes: Value| json!({"format": PLAN_FORMAT, "probes": probes}).to_string();
        assert!(decode(&ok(json!([{"probe": "D", "tool": "icp_list"}]))).is_ok());
        use crate::vocabulary::problem::ProblemId as Id;
        let cases = [
            (
                json!({"format": PLAN_FORMAT, "probes": [], "endpoint": "https://x"}).to_string(),
                Id::Plan(PlanProblemId::NotAPlan),
            ),
            (
                json!({"format": "mcp-triage-plan/9", "probes": []}).to_string(),
                Id::Plan(PlanProblemId::UnknownFormat),
            ),
            (
                ok(json!([{"probe": "E"}])),
                Id::Plan(PlanProblemId::NotAPlan),
            ),
            (
                ok(json!([{"probe": "B"}, {"probe": "B"}])),
                Id::Plan(PlanProblemId::DuplicateProbe),
            ),
            (
                ok(json!([{"probe": "B", "tool": ""}])),
                Id::Plan(PlanProblemId::BadToolName),
            ),
            (
                ok(json!([{"probe": "B", "tool": "x".repeat(129)}])),
                Id::Plan(PlanProblemId::BadToolName),
            ),
            (
                ok(json!([{"probe": "B", "tool": "a\u{1}b"}])),
                Id::Plan(PlanProblemId::BadToolName),
            ),
            (
                ok(json!([{"probe": "B", "arguments": [1]}])),
                Id::Plan(PlanProblemId::BadArguments),
            ),
            ("[".repeat(100), Id::Plan(PlanProblemId::NotAPlan)),
            (
                " ".repeat(MAX_PLAN_BYTES + 1),
                Id::Plan(PlanProblemId::TooLarge),
            ),
        ];
        for (text, id) in cases {
            let err = decode(&text).unwrap_err();
            assert_eq!(err.id, id, "{text:.80}: {}", err.message);
            assert!(!err.message.is_empty());
            // A parser's complaint says where; the others are about the whole file.
            assert_eq!(
                err.offset.is_some(),
                id == Id::Plan(PlanProblemId::NotAPlan),
                "{err:?}"
            );
        }
        let mut deep = json!({});
        for _ in 0..20 {
            deep = json!({ "a": deep });
        }
        let err = decode(&ok(json!([{"probe": "B", "arguments": deep}]))).unwrap_err();
        assert_eq!(err.id, Id::Plan(PlanProblemId::BadArguments));
        assert!(err.message.contains("Probe B"), "{}", err.message);
    }
}
