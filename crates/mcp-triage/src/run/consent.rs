//! Consent: the plan of each probe, the edits a person or a plan file may make to it, and the
//! proposals a person is asked to agree to before a tool that is not declared read-only is called.
//!
//! [`ConsentPolicy`] is the one rule for what runs without a person and which plan edits are
//! allowed: the page's plan review, `--plan` and `--write-plan` all go through it.

use crate::vocabulary::exchange::Vantage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::run::catalogue::{Choice, SkipReason, ToolInfo, ToolRisk};
use crate::vocabulary::probe::ProbeName;

/// A probe as planned: the tool, the payload, or why it is skipped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedProbe {
    /// Which probe.
    pub probe: ProbeName,
    /// The chosen call.
    pub choice: Option<Choice>,
    /// The JSON-RPC id reserved for it.
    pub id: i64,
    /// Why it will not run.
    pub skipped: Option<SkipReason>,
    /// The exact request body that will be sent.
    pub payload: Option<String>,
    /// The chosen tool's risk by its own annotations.
    pub risk: Option<ToolRisk>,
}

/// A user's change to one probe in Review first.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeEdit {
    /// Leave as planned.
    Keep,
    /// Do not send it.
    Skip,
    /// Call this tool with these arguments; `opt_in` must be true for a tool not declared read-only.
    Replace {
        tool: String,
        arguments: Value,
        opt_in: bool,
    },
}

impl PlannedProbe {
    /// "Probe D skipped: why; what to do", when it was skipped (the Markdown and the command line
    /// say the same), in the terms of where the run was made (`by`).
    pub fn skip_line(&self, by: Vantage) -> Option<String> {
        self.skipped.map(|why| {
            format!(
                "Probe {} skipped: {}{}",
                self.probe.as_str(),
                why.describe(by),
                why.next_step(by)
                    .map(|n| format!("; {n}"))
                    .unwrap_or_default()
            )
        })
    }
}

/// A call proposed for the user's OK, with the id and the exact body it will be sent with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The proposed call.
    pub choice: Choice,
    /// The JSON-RPC id reserved for it.
    pub id: i64,
    /// The exact request body, as it will be sent.
    pub payload: String,
    /// The tool as the catalogue describes it (its annotations as declared).
    pub tool: Option<ToolInfo>,
}

/// One probe in the consent step: what is proposed, or why nothing fits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsentRow {
    /// Which probe.
    pub probe: ProbeName,
    /// The proposal, when a tool fits.
    pub proposal: Option<Proposal>,
    /// Why no declared read-only tool was chosen (and, without a proposal, why nothing runs).
    pub reason: Option<SkipReason>,
}

pub(crate) fn planned(probe: ProbeName) -> PlannedProbe {
    PlannedProbe {
        probe,
        choice: None,
        id: 0,
        skipped: None,
        payload: None,
        risk: None,
    }
}

/// Why a probe calls what it calls when Review first (or a plan file) chose the call: the mark a
/// replay reads to make the same edit.
pub(crate) const CHOSEN_BY_YOU: &str = "chosen by you";

/// What the plan says about one probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanEntry {
    /// Which probe.
    pub probe: ProbeName,
    /// Do not send it.
    #[serde(default)]
    pub skip: bool,
    /// The tool to call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The `arguments` object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// The author of the plan accepted side effects of this call (the page shows it, unticked).
    #[serde(default)]
    pub opt_in: bool,
}

labelled_enum! {
    /// Who may agree, in this run, to calling a tool that is not declared read-only.
    ConsentPolicy {
        /// A person is there (the page): the consent step waits for their answer, and only their
        /// own tick opts a call in (a loaded plan file's opt-ins are shown, never ticked for them).
        Person = "person",
        /// Nobody is (the command line without a plan, CI): only tools declared read-only are
        /// called; a proposal is declined.
        Unattended = "unattended",
        /// A committed plan file (the command line's `--plan`): its author's consent, so its
        /// opt-ins stand.
        CommittedPlan = "committed_plan",
    }
}

/// What the consent step gets when nobody is there to answer it.
pub const DECLINED_WITHOUT_A_PERSON: &str = "tools not declared read-only are not called without a plan: --write-plan plan.json writes one to read, agree to (\"opt_in\": true) and run with --plan plan.json";

impl ConsentPolicy {
    /// The policy of a run no person watches (the command line): a committed plan speaks for its
    /// author; without one, nobody is there to agree.
    pub fn without_a_person(committed_plan: bool) -> ConsentPolicy {
        if committed_plan {
            ConsentPolicy::CommittedPlan
        } else {
            ConsentPolicy::Unattended
        }
    }

    /// The answer to the consent step without asking: `None` when a person answers it, else
    /// `Some(false)` (proposals are declined; see [`DECLINED_WITHOUT_A_PERSON`]).
    pub fn answer_without_asking(self) -> Option<bool> {
        match self {
            ConsentPolicy::Person => None,
            ConsentPolicy::Unattended | ConsentPolicy::CommittedPlan => Some(false),
        }
    }

    /// Whether a row a plan file opts in stays opted in: only a committed plan speaks for its
    /// author; a person loading a file ticks for themselves.
    pub fn keeps_file_opt_in(self) -> bool {
        self == ConsentPolicy::CommittedPlan
    }

    /// The edits a plan's rows ask of the planned probes, decided here for every shell. A skipped
    /// row skips. A person's row (the page's review form) keeps the plan when it shows the call
    /// already planned, and otherwise replaces it, even with an empty tool name (which
    /// [`crate::run::engine::Engine::apply_review`] then refuses, saying why). A plan file's row
    /// (`--plan`) keeps the plan when it names no tool, and otherwise replaces the call: a
    /// committed plan states every call it names. Arguments left out are `{}`. Rows come in any
    /// order; the engine applies them in probe order.
    pub fn edits(
        self,
        planned: &[PlannedProbe],
        rows: &[PlanEntry],
    ) -> Vec<(ProbeName, ProbeEdit)> {
        rows.iter()
            .map(|row| {
                let arguments = row
                    .arguments
                    .clone()
                    .unwrap_or_else(|| serde_json::json!({}));
                let replace = |tool: &str| ProbeEdit::Replace {
                    tool: tool.to_string(),
                    arguments: arguments.clone(),
                    opt_in: row.opt_in,
                };
                let edit = match (self, row.tool.as_deref()) {
                    _ if row.skip => ProbeEdit::Skip,
                    (ConsentPolicy::Person, tool) => {
                        let tool = tool.unwrap_or_default();
                        let as_planned =
                            planned
                                .iter()
                                .find(|p| p.probe == row.probe)
                                .is_some_and(|p| {
                                    p.skipped.is_none()
                                        && p.choice.as_ref().is_some_and(|c| {
                                            c.tool == tool && c.arguments == arguments
                                        })
                                });
                        if as_planned {
                            ProbeEdit::Keep
                        } else {
                            replace(tool)
                        }
                    }
                    (ConsentPolicy::CommittedPlan | ConsentPolicy::Unattended, None) => {
                        ProbeEdit::Keep
                    }
                    (ConsentPolicy::CommittedPlan | ConsentPolicy::Unattended, Some(tool)) => {
                        replace(tool)
                    }
                };
                (row.probe, edit)
            })
            .collect()
    }
}

/// Whether an edit may be made: a tool name of 1 to 128 characters, an arguments object, and the
/// opt-in where the tool needs it (`needs_opt_in` is [`needs_opt_in`]'s answer for the tool); the
/// refusal says how to agree where the edit came from (`from_file`: a committed plan file).
pub(crate) fn allowed(
    probe: ProbeName,
    edit: &ProbeEdit,
    needs_opt_in: impl Fn(&str) -> Option<&'static str>,
    from_file: bool,
) -> Result<(), String> {
    let ProbeEdit::Replace {
        tool,
        arguments,
        opt_in,
    } = edit
    else {
        return Ok(());
    };
    if tool.trim().is_empty() || tool.len() > 128 {
        return Err(format!(
            "probe {}: the tool name must be 1 to 128 characters",
            probe.as_str()
        ));
    }
    if !arguments.is_object() {
        return Err(format!(
            "probe {}: arguments must be a JSON object",
            probe.as_str()
        ));
    }
    if !opt_in && let Some(why) = needs_opt_in(tool) {
        let agree = if from_file {
            "set \"opt_in\": true on this call in the plan file to call it"
        } else {
            "tick the opt-in to call it"
        };
        return Err(format!("probe {}: {tool} {why}; {agree}", probe.as_str()));
    }
    Ok(())
}

/// The one rule for calling a tool the user named: `None` when it may be called without opt-in
/// (declared read-only, or absent from a catalogue read to its end, which makes the call a test
/// of an unknown tool), otherwise why it needs the user's opt-in. A tool the run could not see
/// (the catalogue was cut or failed) is not known to be read-only, so it needs opt-in.
pub(crate) fn needs_opt_in(
    tools: &[ToolInfo],
    catalogue_read_whole: bool,
    tool: &str,
) -> Option<&'static str> {
    match tools.iter().find(|t| t.name == tool) {
        Some(t) if t.is_safe() => None,
        Some(_) => Some("is not declared read-only and may have side effects"),
        None if catalogue_read_whole => None,
        None => Some(
            "is not in the part of the catalogue this run could read, so its safety is unknown",
        ),
    }
}

/// What a plan review says under a tool name the user typed that `tools/list` did not list, before
/// the run (the same rule as [`needs_opt_in`]); `None` for a listed tool or no name.
pub(crate) fn unlisted_tool_note(
    tools: &[ToolInfo],
    catalogue_read_whole: bool,
    tool: &str,
) -> Option<&'static str> {
    if tool.trim().is_empty() || tools.iter().any(|t| t.name == tool) {
        return None;
    }
    Some(if catalogue_read_whole {
        "not in tools/list: this will test an unknown tool"
    } else {
        "not in the part of the catalogue we could read: needs your opt-in"
    })
}
