//! Views of a shared link, of any version: the decoder migrates every version to one payload, and
//! this adapter turns that payload into the same cards and summary a live run gives.

use super::fix_first::{CardChanges, FixFirst, choose};
use super::model::{
    AdviceView, Answer, AuthView, Badge, CardView, EvidenceView, Quote, ReportView,
    ServerAdviceView, SpecView, SummaryView, Tone, VerdictLine, card_id, channel_tone,
    conformance_tone,
};
use crate::judge::advice::AgentAction;
use crate::judge::server_advice::ServerAdvice;
use crate::judge::spec::Conformance;
use crate::judge::summary::structure_differs;
use crate::output::share::{NO_ACTION, ResultShape, Share, ShareRow};
use crate::run::engine::is_vantage_note;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag, StopReason};
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::Step;

/// What a link keeps of a successful result instead of its content, in words.
fn shape_text(shape: &ResultShape) -> String {
    let blocks: Vec<String> = shape
        .blocks
        .iter()
        .map(|(kind, len)| match len {
            Some(n) => format!("{kind} of {n} characters"),
            None => kind.clone(),
        })
        .collect();
    let mut text = format!(
        "A successful result: the link keeps its shape, not its content — {} content block{}",
        shape.block_count,
        if shape.block_count == 1 { "" } else { "s" }
    );
    if !blocks.is_empty() {
        text.push_str(&format!(" ({})", blocks.join(", ")));
    }
    if !shape.structured_keys.is_empty() {
        text.push_str(&format!(
            "; structuredContent keys: {}",
            shape.structured_keys.join(", ")
        ));
    }
    text
}

impl CardView {
    /// The card of one row of a link.
    fn of_row(row: &ShareRow) -> CardView {
        let blank = CardView::blank(card_id(&row.step), Step::title_of_id(&row.step));
        if let Some(reason) = &row.skipped {
            return CardView {
                answer: Answer::Skipped {
                    reason: reason.clone(),
                    next_step: None,
                    line: format!("Probe {} skipped: {reason}", row.step),
                },
                ..blank
            };
        }
        let answer = match (row.stopped.as_deref(), row.action.as_str()) {
            (Some(id), _) => Answer::NotAnswered(match StopReason::parse(id) {
                Some(why) => why.not_answered(),
                None => format!("Not answered: {id}."),
            }),
            (None, NO_ACTION) => Answer::Nothing,
            (None, action) => {
                // The sentences are this build's words for the ids the link carries: the agent's
                // from the cause (every version), the server author's from v14's ids.
                let row_advice = Cause::parse(&row.cause).map(crate::judge::advice::for_cause);
                let server = row.server.as_ref().and_then(|(nothing, ids)| {
                    crate::judge::server_advice::ServerAdvice::of_ids(*nothing, ids)
                });
                Answer::Advice(AdviceView {
                    action: Badge::read::<AgentAction>(action, |_| Tone::Plain),
                    agent: row_advice.map(|a| a.agent.to_string()),
                    party: match (&server, row_advice) {
                        (Some(s), Some(a)) => s.who_must_act(a.party).map(Badge::of),
                        (None, Some(a)) => Some(Badge::of(a.party)),
                        _ => None,
                    },
                    server: server.as_ref().map(ServerAdviceView::of),
                })
            }
        };
        CardView {
            channel: Some(Badge::read::<Channel>(&row.channel, channel_tone)),
            tool: row.tool.clone(),
            carrier: row.status.map(|s| format!("HTTP {s}")),
            jsonrpc_code: row.code,
            cause: Some(Badge::read::<Cause>(&row.cause, |_| Tone::Plain)),
            decided_by: Some(Badge::read::<DecidedBy>(&row.decided_by, |_| Tone::Plain)),
            flags: row
                .flags
                .iter()
                .map(|f| Badge::read::<Flag>(f, |_| Tone::Flag))
                .collect(),
            evidence: row
                .evidence
                .iter()
                .map(|(fact, matched)| EvidenceView {
                    kind: None,
                    fact: fact.clone(),
                    pointer: None,
                    quote: matched.as_ref().map(|m| Quote {
                        text: m.clone(),
                        highlight: Some([0, m.chars().count()]),
                    }),
                    quoted_above: false,
                })
                .collect(),
            answer,
            spec: row
                .spec
                .as_ref()
                .map(|(conformance, version, link, reason)| SpecView {
                    conformance: Badge::read::<Conformance>(conformance, conformance_tone),
                    version: version.clone(),
                    reason: reason.clone(),
                    rule: None,
                    link: link.clone(),
                }),
            envelope: row.excerpt.clone().filter(|e| !e.is_empty()),
            withheld: row.shape.as_ref().map(shape_text),
            ..blank
        }
    }
}

impl ReportView {
    /// The views of a shared link (decoded and migrated from whatever version made it).
    pub fn of_share(share: &Share) -> ReportView {
        let mut rows: Vec<&ShareRow> = share.rows.iter().collect();
        rows.sort_by_key(|r| Step::rank_of_id(&r.step));
        let (connect, rest): (Vec<&ShareRow>, Vec<&ShareRow>) =
            rows.into_iter().partition(|r| r.step == "connect");
        let (probes, checks): (Vec<&ShareRow>, Vec<&ShareRow>) = rest
            .into_iter()
            .partition(|r| ProbeName::parse(&r.step).is_some());
        let cards = |rows: Vec<&ShareRow>| -> Vec<CardView> {
            rows.into_iter().map(CardView::of_row).collect()
        };
        let (connect_failed, probes, checks) = (cards(connect), cards(probes), cards(checks));
        let verdicts = probes
            .iter()
            .chain(&checks)
            .filter_map(|c| {
                c.spec.as_ref().map(|s| VerdictLine {
                    about: c.title.clone(),
                    conformance: s.conformance.clone(),
                    reason: None,
                })
            })
            .collect();
        let summary = SummaryView {
            score_label: super::of_report::SCORE_LABEL,
            headline: share.finding.clone(),
            score: crate::judge::summary::score_text(share.score, share.pairs),
            endpoint: share.endpoint.clone(),
            server: share
                .server
                .as_ref()
                .map(|(n, v)| format!("{n} {v}").trim_end().to_string()),
            protocol: share
                .version
                .clone()
                .unwrap_or_else(|| crate::run::engine::NOT_NEGOTIATED.into()),
            rounds: None,
            verdicts,
            warnings: Vec::new(),
            notes: share
                .notes
                .iter()
                .filter(|n| !is_vantage_note(n))
                .cloned()
                .collect(),
            footnotes: share
                .notes
                .iter()
                .filter(|n| is_vantage_note(n))
                .cloned()
                .collect(),
            made: Some((share.date.clone(), share.tool.clone())),
            fix_first: FixFirst::of_share(share),
        };
        ReportView {
            summary,
            connect_failed,
            probes,
            checks,
            connect: Vec::new(),
            unrun: Vec::new(),
            // v11 on: the OAuth doctor's cards, v12 on with the page's CORS verdicts.
            auth: share
                .auth
                .as_ref()
                .map(|a| AuthView::of_share(a, share.browser.as_ref())),
        }
    }
}

impl FixFirst {
    /// The fix first of a link, from its rows as this build words their ids; `None` when no probe
    /// was answered, or the link is older than v14 and carries no server author's advice.
    pub(crate) fn of_share(share: &Share) -> Option<FixFirst> {
        let answered: Vec<&ShareRow> = share
            .rows
            .iter()
            .filter(|r| r.skipped.is_none() && r.stopped.is_none() && r.action != NO_ACTION)
            .collect();
        let is_probe = |r: &&ShareRow| ProbeName::parse(&r.step).is_some();
        if !answered.iter().any(is_probe) || answered.iter().all(|r| r.server.is_none()) {
            return None;
        }
        // Pairs as the score judges them: structure alone (channel, JSON-RPC code, HTTP status).
        let structure = |r: &ShareRow| (Channel::parse(&r.channel), r.code, r.status);
        let probe_row = |name: &str| {
            answered
                .iter()
                .find(|r| r.step == name)
                .map(|r| structure(r))
        };
        let not_told_apart = |step: &str| {
            ["A", "B", "C"].iter().any(|other| {
                *other != step
                    && matches!(
                        (probe_row(step), probe_row(other)),
                        (Some(x), Some(y)) if !structure_differs(x, y)
                    )
            })
        };
        // The probes and checks in card order (a link's rows are in the order answers came).
        let rows = Step::CARDS.iter().filter_map(|step| {
            answered
                .iter()
                .find(|r| step.id() == Some(r.step.as_str()))
                .copied()
        });
        Some(choose(rows.map(|r| {
            CardChanges {
                title: Step::title_of_id(&r.step),
                deviates: r
                    .spec
                    .as_ref()
                    .is_some_and(|s| Conformance::parse(&s.0) == Some(Conformance::Deviates)),
                not_told_apart: ProbeName::parse(&r.step).is_some() && not_told_apart(&r.step),
                no_retry: AgentAction::parse(&r.action) == Some(AgentAction::ShowUserDoNotRetry),
                changes: match r
                    .server
                    .as_ref()
                    .and_then(|(nothing, ids)| ServerAdvice::of_ids(*nothing, ids))
                {
                    Some(ServerAdvice::Changes(changes)) => {
                        changes.iter().map(|c| c.text).collect()
                    }
                    _ => Vec::new(),
                },
            }
        })))
    }
}
