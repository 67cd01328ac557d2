//! Consent: the plan of each probe, the edits a person or a plan file may make to it, and the
//! proposals a person is asked to agree to before a tool that is not declared read-only is called.

use serde::Serialize;
use serde_json::Value;

use crate::run::catalogue::{Choice, SkipReason, ToolInfo, ToolRisk};
use crate::vocabulary::cause::ProbeName;

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
    /// say the same).
    pub fn skip_line(&self) -> Option<String> {
        self.skipped.map(|why| {
            format!(
                "Probe {} skipped: {}{}",
                self.probe.as_str(),
                why.describe(),
                why.next_step()
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
