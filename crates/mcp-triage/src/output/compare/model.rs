//! What a comparison of two runs is: the judgements (`Change`), the fields compared (`Field`), the
//! ordering every change is judged by (`ORDERING`), and the comparison a surface renders.

use serde::Serialize;

/// The format of a comparison as JSON (`mcp-triage diff --json`).
pub const DIFF_FORMAT: &str = "mcp-triage-diff/1";

labelled_enum! {
    /// How a change is judged.
    Change {
        /// The newer run is better here.
        Better = "better",
        /// The newer run is worse here.
        Worse = "worse",
        /// Different, neither better nor worse (or not comparable).
        Neutral = "neutral",
        /// Better in one respect and worse in another (a probe's overall judgement only).
        Mixed = "mixed",
    }
}

labelled_enum! {
    /// What of a probe's verdict is compared.
    Field {
        /// Whether the probe ran to an answer.
        Ran = "ran",
        /// How the answer arrived.
        Channel = "channel",
        /// What most likely happened.
        Cause = "cause",
        /// Whether structure, the probe's intent or text decided the cause.
        DecidedBy = "decided_by",
        /// The kinds of evidence (structure, text).
        Evidence = "evidence",
        /// How many of the other failure probes structure alone tells it from.
        ToldApart = "told_apart",
        /// The spec verdict.
        Spec = "spec",
        /// What an agent should do.
        Action = "action",
    }
}

/// The ordering every change is judged by, one line a field (docs/baselines.md prints it).
pub const ORDERING: &[(Field, &str)] = &[
    (
        Field::Ran,
        "a probe that could not run on either side is neither better nor worse, and nothing else of it is compared",
    ),
    (
        Field::Channel,
        "neutral in itself: what it changes is judged under told_apart and spec",
    ),
    (
        Field::Cause,
        "probes A-D: reaching the cause the probe provokes (unknown_tool, invalid_arguments, tool_execution, none) is better, leaving it worse; checks: neutral",
    ),
    (
        Field::DecidedBy,
        "probes A-C: structure is better than text, text better than the probe's intent alone (nothing in the answer told)",
    ),
    (Field::Evidence, "neutral: shown beside decided_by"),
    (
        Field::ToldApart,
        "probes A-C: differing by structure (channel, JSON-RPC code, HTTP status) from more of the other failure probes is better, over the pairs judged on both sides",
    ),
    (
        Field::Spec,
        "conforms is better than deviates; not_applicable or no verdict on either side is neutral",
    ),
    (
        Field::Action,
        "neutral: it follows the cause (the advice table), which is judged",
    ),
];

/// One field of one probe, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// The field.
    pub field: Field,
    /// Its value before (`-` when absent).
    pub before: String,
    /// Its value after.
    pub after: String,
    /// The judgement.
    pub change: Change,
}

/// One probe or check, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowComparison {
    /// The step id (`A`..`D`, `no_token`, `get`, `connect`…).
    pub step: String,
    /// Its title.
    pub title: String,
    /// The verdict before, in one line (`-` when the run had no such row).
    pub before: String,
    /// The verdict after.
    pub after: String,
    /// What changed (unchanged fields are left out).
    pub changes: Vec<FieldChange>,
    /// The probe's judgement over its changes.
    pub overall: Change,
}

/// Two runs compared: the differences of context first, then the summary, the score and each row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// [`DIFF_FORMAT`].
    pub format: &'static str,
    /// What differs between the runs themselves (endpoint, protocol version, plan, server).
    pub context: Vec<String>,
    /// One sentence: what changed most, and the score.
    pub summary: String,
    /// The score before (`n of m`, or `n/a`).
    pub score_before: String,
    /// The score after.
    pub score_after: String,
    /// The score's judgement.
    pub score_change: Change,
    /// Every probe and check either run has, in the newer run's order.
    pub rows: Vec<RowComparison>,
    /// How many fields got better (the score counted as one).
    pub better: usize,
    /// How many got worse.
    pub worse: usize,
}

impl Comparison {
    /// Whether anything got worse (the command line's exit status 7).
    pub fn regressed(&self) -> bool {
        self.worse > 0
    }

    /// What got worse, one line each (a JUnit failure's message, a summary's list).
    pub fn regressions(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.score_change == Change::Worse {
            out.push(format!(
                "score: {} → {}",
                self.score_before, self.score_after
            ));
        }
        for row in &self.rows {
            for c in row.changes.iter().filter(|c| c.change == Change::Worse) {
                out.push(format!(
                    "{}: {} {} → {}",
                    row.step, c.field, c.before, c.after
                ));
            }
        }
        out
    }
}
