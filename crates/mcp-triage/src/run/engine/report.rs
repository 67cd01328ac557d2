//! A run's report: what the records add up to (summary, spec verdicts, headline) as one value.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::config::{Era, Mode};
use super::record::Record;
use super::state::Engine;
use crate::judge::spec::{self, SpecVerdict};
use crate::judge::summary::{self, RunSummary};
use crate::run::catalogue::ToolRisk;
use crate::run::consent::PlannedProbe;
use crate::vocabulary::cause::{Flag, Interrupt, RunEnd};
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::probe::Probe;
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::Step;

impl Engine {
    /// The report of the run so far.
    pub fn report(&self) -> RunReport {
        let version = self
            .negotiated
            .clone()
            .unwrap_or_else(|| self.requested_version.clone());
        let (summary, origin, c_not_provoked) = conclusions(&self.records, &version);
        let probe_waves = self
            .records
            .iter()
            .filter(|r| matches!(r.step, Step::Probe(_)))
            .map(|r| r.wave)
            .max();
        let mut notes = self.notes.clone();
        notes.extend(once_per_run_notes(&self.records));
        if self.replies_refused > 0 {
            notes.push(format!(
                "the server sent {} more requests to the client than a run answers ({}); they were not answered",
                self.replies_refused, self.cfg.limits.max_replies_per_run
            ));
        }
        if self.bodies_cut > 0 {
            notes.push(format!(
                "this run kept {} MiB of response bodies; {} later bodies keep only their head (the run's budget, not the server's fault; each verdict was made from the whole body)",
                self.cfg.limits.max_kept_bytes_per_run / (1024 * 1024),
                self.bodies_cut
            ));
        }
        if self.records.iter().any(|r| {
            r.assessment.verdict.cause == crate::vocabulary::cause::Cause::LegacySseTransport
        }) {
            notes.push(
                "this endpoint speaks the old HTTP+SSE transport (2024-11-05): its GET stream opens with an \
                 `endpoint` event; probe it with a client of that transport, or use the server's Streamable HTTP endpoint"
                    .into(),
            );
        }
        let session_refused = self.records.iter().any(|r| {
            matches!(
                r.assessment.verdict.cause,
                crate::vocabulary::cause::Cause::SessionRequired
                    | crate::vocabulary::cause::Cause::SessionNotFound
            )
        });
        if self.session_header_hidden && session_refused {
            notes.push(
                "initialize worked but the session id is not readable, so the next call fails: the server must \
                 list Mcp-Session-Id in Access-Control-Expose-Headers"
                    .into(),
            );
        }
        RunReport {
            endpoint: self.cfg.endpoint.url.clone(),
            era: self.cfg.era.clone(),
            mode: self.cfg.mode,
            negotiated_version: self.negotiated.clone(),
            server_info: self.server_info.clone(),
            session: self.session.is_some(),
            probes: self.planned.clone(),
            records: self.records.clone(),
            headline: headline_of(&self.records, self.ended, &summary),
            summary,
            origin,
            c_not_provoked,
            waves: probe_waves,
            ended: self.ended,
            interrupted_by: self.interrupted_by,
            notes,
            auth: None,
            sign_in_refused: false,
            tools: self
                .tools
                .iter()
                .map(|t| (t.name.clone(), t.risk()))
                .collect(),
        }
    }
}

/// Everything a run found, ready for display, download and sharing (after redaction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The endpoint as typed.
    pub endpoint: String,
    /// The era asked for.
    pub era: Era,
    /// Quick or review.
    pub mode: Mode,
    /// The version the run spoke.
    pub negotiated_version: Option<String>,
    /// `serverInfo` from initialize or discover.
    pub server_info: Option<Value>,
    /// The server gave a session id.
    pub session: bool,
    /// The four probes as planned.
    pub probes: [PlannedProbe; 4],
    /// Every exchange in order of arrival. Shared with the engine: a report made after every
    /// exchange copies pointers, never bodies (a run may keep up to 32 MiB of them).
    pub records: Vec<Arc<Record>>,
    /// The first sentence: what happened, cause first (see `summary::headline`).
    pub headline: String,
    /// Distinguishability and the finding.
    pub summary: RunSummary,
    /// Whether the page's origin was accepted.
    pub origin: Option<SpecVerdict>,
    /// Probe C succeeded: nothing was provoked.
    pub c_not_provoked: bool,
    /// The number of sequential rounds up to the last probe response.
    pub waves: Option<u32>,
    /// Why the run ended.
    pub ended: Option<RunEnd>,
    /// The signal that interrupted the run (`ended` is then `interrupted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_by: Option<Interrupt>,
    /// Things worth saying about the run.
    pub notes: Vec<String>,
    /// The catalogue: names and risks.
    pub tools: Vec<(String, ToolRisk)>,
    /// What the OAuth doctor found, when it ran after the run's 401 (`--auth-check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth: Option<crate::run::auth::AuthReport>,
    /// `--oauth` could not sign in, so the run with a token never happened: an exit status of its
    /// own ([`RunReport::exit_status`]), said in the notes ([`RunReport::note_sign_in_refused`]).
    #[serde(skip)]
    pub sign_in_refused: bool,
}

/// What the records of a run add up to: the summary of A, B and C, the Origin verdict from the
/// connect exchange, and whether C failed to provoke anything.
/// The headline for these records: the connect exchange when no probe could run, else the finding.
/// The note of a flag that holds for every answer of a run alike.
fn once_per_run_note(f: Flag) -> String {
    format!("every answer: {}", crate::judge::advice::for_flag(f))
}

/// Whether a note (of a run, or of a link of any version) says how the answers were seen rather
/// than anything about this server: a once-per-run flag's note (the page's footnote).
pub(crate) fn is_vantage_note(note: &str) -> bool {
    Flag::ALL
        .iter()
        .filter(|f| f.once_per_run())
        .any(|f| note == once_per_run_note(*f))
}

/// What holds for every answer of the run alike, said once (see [`Flag::once_per_run`]).
pub(super) fn once_per_run_notes(records: &[Arc<Record>]) -> Vec<String> {
    let mut notes: Vec<String> = crate::vocabulary::cause::Flag::ALL
        .iter()
        .filter(|f| f.once_per_run())
        .filter(|f| {
            records
                .iter()
                .any(|r| r.assessment.verdict.flags.contains(f))
        })
        .map(|f| once_per_run_note(*f))
        .collect();
    // A server that writes to stdout breaks every client, whichever answer the lines landed in.
    let polluted: Vec<String> = records
        .iter()
        .filter(|r| r.assessment.verdict.flags.contains(&Flag::NonJsonStdout))
        .map(|r| r.step.label())
        .collect();
    if !polluted.is_empty() {
        notes.push(format!(
            "stdout held lines that are not JSON-RPC (while waiting for {}): {}",
            polluted.join(", "),
            crate::judge::advice::for_flag(Flag::NonJsonStdout)
        ));
    }
    notes
}

/// Why auto's `server/discover` got no usable result, in a few words for the run's notes.
pub(super) fn discover_refusal(exchange: &Exchange, v: &crate::judge::classify::Verdict) -> String {
    use crate::vocabulary::cause::StopReason;
    match exchange.stop_reason() {
        Some(StopReason::Blocked) if exchange.vantage == crate::vocabulary::exchange::Vantage::Browser => "the browser could not read the answer: servers of earlier eras seldom let the 2026-07-28 headers through CORS".into(),
        Some(StopReason::Blocked) => crate::judge::unreached::Unreached::of(exchange)
            .map_or("the request failed before the server answered", |u| u.fact())
            .into(),
        Some(why) => why.describe().into(),
        None => match (v.http_status, v.jsonrpc_code) {
            (Some(status), Some(code)) if !(200..300).contains(&status) => {
                format!("HTTP {status}, JSON-RPC error {code}")
            }
            (Some(status), None) if !(200..300).contains(&status) => format!("HTTP {status}"),
            (_, Some(code)) => format!("JSON-RPC error {code}"),
            _ => format!("no result: {}", v.cause.label()),
        },
    }
}

/// The last connect exchange (`initialize` or `server/discover`), and whether the run got past it
/// (a `tools/list` or a probe happened): what the headline and the demo-token offer both read.
pub(super) fn connect_outcome(records: &[Arc<Record>]) -> (Option<&Record>, bool) {
    let connect = records
        .iter()
        .rev()
        .find(|r| matches!(r.step, Step::Initialize | Step::Discover))
        .map(|r| &**r);
    let connected = records
        .iter()
        .any(|r| matches!(r.step, Step::ToolsList(_) | Step::Probe(_)));
    (connect, connected)
}

pub(super) fn headline_of(
    records: &[Arc<Record>],
    ended: Option<RunEnd>,
    summary: &RunSummary,
) -> String {
    let (connect, connected) = connect_outcome(records);
    summary::headline(
        connect.map(|r| (&r.assessment.verdict, &r.exchange)),
        connected,
        ended,
        summary,
    )
}

pub(super) fn conclusions(
    records: &[Arc<Record>],
    version: &str,
) -> (RunSummary, Option<SpecVerdict>, bool) {
    let probe = |p: ProbeName| {
        records
            .iter()
            .find(|r| r.step == Step::Probe(p))
            .map(|r| &r.assessment.verdict)
    };
    // Only answers read to their end are compared: a probe cut by a deadline, the size cap, Cancel,
    // a redirect or a blocked request says what stopped it instead.
    let outcome = |p: ProbeName| match records.iter().find(|r| r.step == Step::Probe(p)) {
        Some(r) => match r.exchange.stop_reason() {
            Some(why) => Err(summary::Missing::Stopped(why)),
            None => Ok(&r.assessment.verdict),
        },
        None => Err(summary::Missing::NotRun),
    };
    let summary = summary::summarize_answered([
        outcome(ProbeName::A),
        outcome(ProbeName::B),
        outcome(ProbeName::C),
    ]);
    // The connect the run went on with (after a fallback, the one that was answered).
    let origin = records
        .iter()
        .rev()
        .find(|r| matches!(r.step, Step::Initialize | Step::Discover))
        .map(|r| spec::verdict(Probe::Origin, version, &r.assessment.verdict));
    let c_not_provoked = probe(ProbeName::C)
        .is_some_and(|v| v.channel == crate::vocabulary::cause::Channel::Success);
    (summary, origin, c_not_provoked)
}

/// A report's records grouped as its cards are shown, each group in card order.
#[derive(Debug, Clone, Default)]
pub struct CardGroups {
    /// The connect exchange when the run stopped there: it is the finding, shown first.
    pub connect_failed: Vec<Arc<Record>>,
    /// Probes A to D.
    pub probes: Vec<Arc<Record>>,
    /// The transport checks: no token, then GET.
    pub checks: Vec<Arc<Record>>,
    /// Everything else (initialize, tools/list, replies…), in the order it happened.
    pub connect: Vec<Arc<Record>>,
}
