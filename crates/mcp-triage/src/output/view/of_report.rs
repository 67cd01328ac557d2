//! Views of a live (or replayed) run: a card per record, a summary per report.

use crate::judge::spec::Conformance;
use serde_json::Value;

use super::envelope::{ENVELOPE_KEEPS, envelope};
use super::model::{
    AdviceView, Answer, AuthView, Badge, CardView, ChallengeView, EvidenceView, Quote, ReportView,
    ServerAdviceView, SpecView, SummaryView, Tone, VerdictLine, WireView, card_id, channel_tone,
    conformance_tone,
};
use super::wire::{elapsed, http_wire};
use crate::run::catalogue::SkipReason;
use crate::run::consent::PlannedProbe;
use crate::run::engine::{Record, RunReport, is_vantage_note};
use crate::vocabulary::exchange::Vantage;
use crate::vocabulary::step::Step;

/// What a summary warns of when probe C provoked no failure.
/// What the score is called, on every surface.
pub(super) const SCORE_LABEL: &str = "Distinguishability by structure alone";

/// What a summary warns of when probe C provoked no failure.
const C_NOT_PROVOKED: &str = "Probe C succeeded, so no failure was provoked: pick a call that makes the backend fail (Review first on the page, --plan on the command line).";

/// A quote longer than this (or of more than one line) is shown once a card.
const LONG_QUOTE: usize = 80;

/// A long quote shown once: a later evidence line quoting the same words shows only its phrase and
/// points to the quote above (a 12-line validation error is not repeated for each phrase in it).
fn quote_once(mut evidence: Vec<EvidenceView>) -> Vec<EvidenceView> {
    let mut seen: Vec<String> = Vec::new();
    for e in &mut evidence {
        let Some(q) = &e.quote else { continue };
        let long = q.text.chars().count() > LONG_QUOTE || q.text.contains('\n');
        if !long {
            continue;
        }
        if !seen.contains(&q.text) {
            seen.push(q.text.clone());
            continue;
        }
        e.quote = q.highlight.map(|[from, to]| {
            let phrase: String = q
                .text
                .chars()
                .skip(from)
                .take(to.saturating_sub(from))
                .collect();
            let len = phrase.chars().count();
            Quote {
                text: phrase,
                highlight: Some([0, len]),
            }
        });
        e.quoted_above = true;
    }
    evidence
}

impl CardView {
    /// The card of one recorded exchange. `secret_header_names` are the extra headers its `curl`
    /// names as environment variables (the token always is).
    pub fn of_record(record: &Record, secret_header_names: &[String]) -> CardView {
        let a = &record.assessment;
        let v = &a.verdict;
        let ex = &record.exchange;
        let raw_body = ex
            .response
            .as_ref()
            .and_then(|r| r.body.clone())
            .unwrap_or_default();
        let evidence = v
            .evidence
            .iter()
            .map(|e| {
                let text = match (&e.pointer, &v.message) {
                    (Some(p), Some(m)) if p != "/body" => {
                        m.pointer(p).and_then(Value::as_str).map(str::to_string)
                    }
                    (Some(_), _) => Some(raw_body.clone()),
                    _ => None,
                };
                EvidenceView {
                    kind: Some(Badge::of(e.kind)),
                    fact: e.fact.clone(),
                    pointer: e.pointer.clone(),
                    quote: text.map(|text| Quote {
                        text,
                        highlight: e.range,
                    }),
                    quoted_above: false,
                }
            })
            .collect();
        let evidence = quote_once(evidence);
        let answer = match ex.stop_reason() {
            // An answer that did not come is not the server's way of answering: no advice.
            Some(why) => Answer::NotAnswered(
                crate::judge::unreached::Unreached::of(ex)
                    .map_or_else(|| why.not_answered(), |u| u.not_answered(ex)),
            ),
            None => Answer::Advice(AdviceView {
                action: Badge::of(a.advice.action),
                agent: Some(a.advice.agent.to_string()),
                // Who must act follows from the server's advice: nothing to change leaves the
                // server author nothing to do.
                party: a.server.who_must_act(a.advice.party).map(Badge::of),
                server: Some(ServerAdviceView::of(&a.server)),
            }),
        };
        let wire = match ex.stdio.as_ref().filter(|_| ex.is_stdio()) {
            Some(io) => WireView::Stdio {
                elapsed: elapsed(ex),
                process: io
                    .exit
                    .map(|e| format!("the process ended ({e})"))
                    .unwrap_or_else(|| "the process was running".into()),
                stdout: io.lines.join("\n"),
                stderr_tail: io.stderr_tail.clone(),
                command: ex.request.url.clone(),
                line_written: ex.request.body.clone().unwrap_or_default(),
            },
            None => http_wire(ex, v.http_status, secret_header_names),
        };
        let (envelope, envelope_note) = match record.assessment.verdict.message.as_ref() {
            Some(m) => {
                let (text, note) = envelope(m, ENVELOPE_KEEPS);
                (Some(text), note)
            }
            None => (None, None),
        };
        CardView {
            id: step_card_id(record.step),
            title: record.step.title().to_string(),
            channel: Some(Badge::toned(v.channel, channel_tone(v.channel))),
            tool: v.tool_name.clone(),
            carrier: Some(v.carrier()),
            jsonrpc_code: v.jsonrpc_code,
            cause: Some(Badge::of(v.cause)),
            decided_by: Some(Badge::of(v.decided_by)),
            // What holds for every answer of the run is said once, in the summary's notes.
            flags: v.own_flags().map(|f| Badge::toned(f, Tone::Flag)).collect(),
            evidence,
            answer,
            spec: a.spec.as_ref().map(|s| SpecView {
                conformance: Badge::toned(s.conformance, conformance_tone(s.conformance)),
                version: s.version.clone(),
                reason: s.reason.clone(),
                rule: Some(s.rule.to_string()),
                link: s.link.clone(),
            }),
            challenge: v.challenge.as_ref().map(|c| ChallengeView {
                scheme: c.scheme.clone(),
                params: c.params.clone(),
            }),
            envelope,
            envelope_note,
            withheld: None,
            transport_error: ex.transport_error_detail.clone(),
            problems: v.problems.clone(),
            wire: Some(wire),
        }
    }

    /// One card for the probes the run ended before (`probes` holds two or more).
    fn of_not_sent(probes: &[&PlannedProbe], by: Vantage) -> CardView {
        let names: Vec<&str> = probes.iter().map(|p| p.probe.as_str()).collect();
        let list = match names.as_slice() {
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        let reason = "the run ended before these probes were sent".to_string();
        let next_step = SkipReason::RunEnded.next_step(by).map(String::from);
        let line = format!(
            "Probes {list} skipped: {reason}{}",
            next_step
                .as_ref()
                .map(|n| format!("; {n}"))
                .unwrap_or_default()
        );
        CardView {
            answer: Answer::Skipped {
                reason,
                next_step,
                line,
            },
            ..CardView::blank("card-not-sent".into(), &format!("Probes {list} · not sent"))
        }
    }

    /// The card of a probe that did not run: skipped at planning, or never reached.
    fn of_unrun(planned: &PlannedProbe, by: Vantage) -> CardView {
        let p = planned.probe;
        let (reason, next_step) = match planned.skipped {
            Some(why) => (
                why.describe(by).to_string(),
                why.next_step(by).map(String::from),
            ),
            None => ("the run stopped before it".to_string(), None),
        };
        let line = match planned.skip_line(by) {
            Some(l) => l,
            None => format!("Probe {} did not run: {reason}", p.as_str()),
        };
        CardView {
            answer: Answer::Skipped {
                reason,
                next_step,
                line,
            },
            ..CardView::blank(card_id(p.as_str()), p.title())
        }
    }
}

/// A step's card id: the probes and checks by the identifier a link names them with.
fn step_card_id(step: Step) -> String {
    match (step.id(), step) {
        (Some(id), _) => card_id(id),
        (None, other) => format!(
            "card-{}",
            other.label().replace([' ', '/', '(', ')', ':', '_'], "-")
        ),
    }
}

impl SummaryView {
    /// The summary of a report.
    pub fn of_report(report: &RunReport) -> SummaryView {
        let mut verdicts: Vec<VerdictLine> = report
            .spec_verdicts()
            .into_iter()
            .map(|(step, s)| VerdictLine {
                about: step.title().to_string(),
                conformance: Badge::toned(s.conformance, conformance_tone(s.conformance)),
                reason: None,
            })
            .collect();
        // An origin check that could not tell says nothing about this server: left out.
        verdicts.extend(
            report
                .origin
                .as_ref()
                .filter(|o| o.conformance != Conformance::NotApplicable)
                .map(|o| VerdictLine {
                    about: "origin".into(),
                    conformance: Badge::toned(o.conformance, conformance_tone(o.conformance)),
                    reason: Some(o.reason.clone()),
                }),
        );
        SummaryView {
            score_label: SCORE_LABEL,
            headline: report.headline.clone(),
            score: crate::judge::summary::score_text(
                report.summary.score,
                Some(report.summary.judged),
            ),
            endpoint: report.endpoint.clone(),
            server: report.server_text(),
            protocol: report.protocol_text().to_string(),
            rounds: report.rounds_text(),
            verdicts,
            warnings: report
                .c_not_provoked
                .then(|| C_NOT_PROVOKED.to_string())
                .into_iter()
                .collect(),
            notes: report
                .notes
                .iter()
                .filter(|n| !is_vantage_note(n))
                .cloned()
                .collect(),
            footnotes: report
                .notes
                .iter()
                .filter(|n| is_vantage_note(n))
                .cloned()
                .collect(),
            made: None,
            fix_first: super::fix_first::FixFirst::of_report(report),
        }
    }
}

impl ReportView {
    /// The views of a report: the summary, and the cards in the page's order. Probes that did not
    /// run get their card once the run has ended (a live run shows only what came).
    pub fn of_report(report: &RunReport, secret_header_names: &[String]) -> ReportView {
        let groups = report.card_groups();
        let card = |r: &std::sync::Arc<Record>| CardView::of_record(r, secret_header_names);
        let ended = report.ended.is_some();
        let by = report.vantage();
        let mut probes = Vec::new();
        let mut unrun = Vec::new();
        for planned in &report.probes {
            let step = Step::Probe(planned.probe);
            let ran: Vec<CardView> = groups
                .probes
                .iter()
                .filter(|r| r.step == step)
                .map(card)
                .collect();
            match (ran.is_empty(), planned.skipped.is_some()) {
                (false, _) => probes.extend(ran),
                (true, true) if ended => probes.push(CardView::of_unrun(planned, by)),
                (true, false) if ended => unrun.push(CardView::of_unrun(planned, by)),
                _ => {}
            }
        }
        ReportView {
            summary: SummaryView::of_report(report),
            connect_failed: groups.connect_failed.iter().map(card).collect(),
            probes,
            checks: groups.checks.iter().map(card).collect(),
            connect: groups.connect.iter().map(card).collect(),
            unrun,
            auth: report.auth.as_ref().map(AuthView::of_auth),
        }
    }

    /// The views a person reads (the page, the text report, the Markdown): as
    /// [`ReportView::of_report`], with the probes the run ended before said once, in one card. A
    /// JUnit file keeps a case per probe.
    pub fn for_reading(report: &RunReport, secret_header_names: &[String]) -> ReportView {
        let mut view = ReportView::of_report(report, secret_header_names);
        let not_sent: Vec<&PlannedProbe> = report
            .probes
            .iter()
            .filter(|p| p.skipped == Some(SkipReason::RunEnded))
            .filter(|p| {
                view.probes.iter().any(|c| {
                    c.id == card_id(p.probe.as_str()) && matches!(c.answer, Answer::Skipped { .. })
                })
            })
            .collect();
        if let [first, _, ..] = not_sent.as_slice() {
            let at = view
                .probes
                .iter()
                .position(|c| c.id == card_id(first.probe.as_str()))
                .unwrap_or(view.probes.len());
            view.probes
                .retain(|c| !not_sent.iter().any(|p| c.id == card_id(p.probe.as_str())));
            view.probes.insert(
                at.min(view.probes.len()),
                CardView::of_not_sent(&not_sent, report.vantage()),
            );
        }
        view
    }
}
