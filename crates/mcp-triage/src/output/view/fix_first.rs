//! The fix first: of every change the server author could make across a run's cards, the one that
//! matters most, chosen by one documented ordering ([`FIX_ORDERING`]) and worded as one sentence
//! (what to change, for which probe, who makes it), then the other changes as a short list; or
//! "Nothing to change" and why.

use serde::Serialize;

use crate::judge::advice::AgentAction;
use crate::judge::server_advice::ServerAdvice;
use crate::judge::spec::Conformance;
use crate::run::engine::RunReport;
use crate::vocabulary::step::Step;

/// The ordering the fix first is chosen by, first rank first, one line a rank (docs/checks.md prints
/// it). Within a rank: probes A, B, C, D, then the checks in card order. Each card offers its first
/// change only: the others are alternatives to it or follow from it, and stay on the card.
pub const FIX_ORDERING: &[(&str, &str)] = &[
    (
        "deviation",
        "a change on an answer whose spec verdict at the negotiated version deviates",
    ),
    (
        "told_apart",
        "a change on a failure probe (A, B, C) that structure does not tell apart from another failure probe's answer, so agents cannot act on it",
    ),
    (
        "no_retry",
        "a change on an answer whose advice forbids a retry (show it to the user, do not retry)",
    ),
    ("other", "any other change"),
];

/// The most rows the "then" list holds.
const MAX_THEN: usize = 4;

/// What to change first, and what next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixFirst {
    /// One sentence: the change, the probe, who makes it; or "Nothing to change" and why.
    pub sentence: String,
    /// The other changes, most important first, at most four: `probe: change`.
    pub then: Vec<String>,
}

/// One card's part in the choice: what ranks it, and the changes it asks of the server author.
pub(super) struct CardChanges {
    pub(super) title: &'static str,
    pub(super) deviates: bool,
    pub(super) not_told_apart: bool,
    pub(super) no_retry: bool,
    pub(super) changes: Vec<&'static str>,
}

/// One change a card asks for, with what ranks it.
struct Candidate {
    rank: usize,
    title: &'static str,
    text: &'static str,
}

impl FixFirst {
    /// The fix first of a report, from its records' verdicts; `None` when no probe answered (the
    /// headline then says what stopped the run).
    pub fn of_report(report: &RunReport) -> Option<FixFirst> {
        let groups = report.card_groups();
        let answered: Vec<_> = groups
            .probes
            .iter()
            .chain(&groups.checks)
            .filter(|r| r.exchange.stop_reason().is_none())
            .collect();
        if !answered.iter().any(|r| matches!(r.step, Step::Probe(_))) {
            return None;
        }
        let not_told_apart = |step: Step| {
            let Step::Probe(p) = step else { return false };
            report
                .summary
                .pairs
                .iter()
                .any(|pair| !pair.distinct && pair.pair.contains(p.as_str()))
        };
        Some(choose(answered.iter().map(|r| {
            let a = &r.assessment;
            CardChanges {
                title: r.step.title(),
                deviates: a
                    .spec
                    .as_ref()
                    .is_some_and(|s| s.conformance == Conformance::Deviates),
                not_told_apart: not_told_apart(r.step),
                no_retry: a.advice.action == AgentAction::ShowUserDoNotRetry,
                changes: match &a.server {
                    ServerAdvice::Changes(changes) => changes.iter().map(|c| c.text).collect(),
                    ServerAdvice::Nothing { .. } => Vec::new(),
                },
            }
        })))
    }
}

/// The choice itself, over answered cards in card order (probes A-D, then the checks).
pub(super) fn choose(cards: impl Iterator<Item = CardChanges>) -> FixFirst {
    let mut candidates = Vec::new();
    for card in cards {
        let rank = if card.deviates {
            0
        } else if card.not_told_apart {
            1
        } else if card.no_retry {
            2
        } else {
            3
        };
        // A card's first change only: the ones after it are its alternatives ("Or answer with a
        // JSON-RPC error frame") or follow from it, and stay on the card.
        candidates.extend(card.changes.first().map(|text| Candidate {
            rank,
            title: card.title,
            text,
        }));
    }
    // By rank, and within a rank in card order (the order they were found in): no sort needed.
    let mut rest = (0..FIX_ORDERING.len())
        .flat_map(|rank| candidates.iter().filter(move |c| c.rank == rank))
        .collect::<Vec<_>>()
        .into_iter();
    let Some(first) = rest.next() else {
        return FixFirst {
            sentence: "Nothing to change: no answer of this run asks the server author for a change (each one's card says why)."
                .into(),
            then: Vec::new(),
        };
    };
    FixFirst {
        sentence: format!(
            "Fix first ({}, by the server author): {}",
            first.title, first.text
        ),
        then: rest
            .take(MAX_THEN)
            .map(|c| format!("{}: {}", c.title, c.text))
            .collect(),
    }
}
