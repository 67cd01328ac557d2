//! The summary's grid: a row per answered probe and check (channel, cause, decided by, spec verdict,
//! agent action), each naming the card it opens; and each card's one line (what a closed card
//! says). The page's table and the terminal's compact table are drawn from these rows.

use serde::Serialize;

use super::model::{Answer, Badge, CardView, ReportView};
use crate::vocabulary::step::Step;

/// One row of the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GridRow {
    /// The card this row opens (`card-A`, `card-no-token`…).
    pub card: String,
    /// A probe by its letter, a check in two words (`A`, `no token`, `GET`).
    pub name: String,
    /// The channel, cause and what decided, when the answer came.
    pub channel: Option<Badge>,
    /// The cause.
    pub cause: Option<Badge>,
    /// Structure, text or intent.
    pub decided_by: Option<Badge>,
    /// The spec verdict at the negotiated version.
    pub spec: Option<Badge>,
    /// What an agent should do, or why there is no advice (`not answered`).
    pub agent: String,
}

/// A card's short name: a probe's letter, a check in two words (by the step whose card has this
/// title), else the title.
fn short_name(title: &str) -> String {
    Step::CARDS
        .iter()
        .find(|s| s.title() == title)
        .map_or_else(|| title.to_string(), |s| s.short().to_string())
}

impl CardView {
    /// What the card says when closed, after its title: the cause and what an agent should do, or
    /// why there is no answer.
    pub fn line(&self) -> String {
        match &self.answer {
            Answer::Skipped { reason, .. } => format!("skipped: {reason}"),
            Answer::NotAnswered(why) => why.clone(),
            Answer::Advice(a) => match &self.cause {
                Some(c) => format!("{} — {}", c.label, a.action.label),
                None => a.action.label.clone(),
            },
            Answer::Nothing => self
                .cause
                .as_ref()
                .map(|c| c.label.clone())
                .unwrap_or_default(),
        }
    }
}

impl ReportView {
    /// The grid's rows: every card but the skipped ones, in card order.
    pub fn grid(&self) -> Vec<GridRow> {
        self.cards()
            .filter(|c| !matches!(c.answer, Answer::Skipped { .. }))
            .map(|c| GridRow {
                card: c.id.clone(),
                name: short_name(&c.title),
                channel: c.channel.clone(),
                cause: c.cause.clone(),
                decided_by: c.decided_by.clone(),
                spec: c.spec.as_ref().map(|s| s.conformance.clone()),
                agent: match &c.answer {
                    Answer::Advice(a) => a.action.label.clone(),
                    _ => "not answered".into(),
                },
            })
            .collect()
    }
}
