//! What a report says for people: card groups, spec verdicts, the server and protocol lines, and a
//! report rebuilt from recorded exchanges.

use crate::vocabulary::probe::Check;
use std::sync::Arc;

use serde_json::Value;

use super::config::{DEFAULT_LEGACY, Era, MODERN, Mode};
use super::record::Record;
use super::report::{
    CardGroups, RunReport, conclusions, connect_outcome, headline_of, once_per_run_notes,
};
use crate::judge::assess::assess;
use crate::judge::classify::Options;
use crate::run::consent::planned;
use crate::run::cors::DoctorCall;
use crate::vocabulary::cause::RunEnd;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::Step;

/// What a report says when no protocol version was negotiated.
pub(crate) const NOT_NEGOTIATED: &str = "not negotiated";

impl RunReport {
    /// The OAuth doctor for this run: it starts from the run's first 401 (the connect request's,
    /// or the check without the token when a token was accepted) and judges the revision the era
    /// says; `page_origin` when it runs in a page (it then also judges CORS). `Err` says in words
    /// why there is nothing to diagnose.
    pub fn auth_doctor(
        &self,
        endpoint: &crate::run::endpoint::Endpoint,
        secrets: crate::secrets::redact::Secrets,
        page_origin: Option<&str>,
    ) -> Result<crate::run::auth::AuthDoctor, &'static str> {
        if endpoint.scheme == "stdio" {
            return Err("a stdio server has no HTTP authorization to discover");
        }
        let unauthorized = self
            .records
            .iter()
            .find(|r| {
                r.exchange
                    .response
                    .as_ref()
                    .is_some_and(|resp| resp.status == 401)
            })
            .ok_or("no answer of this run was a 401, so there is no authorization to discover")?;
        let (revision, why) = self.era.judged_revision();
        Ok(crate::run::auth::AuthDoctor::new(
            &unauthorized.exchange,
            endpoint.clone(),
            (&revision, why),
            secrets,
            page_origin,
        ))
    }

    /// Says in the report's notes that `--auth-check` (or the page's check) had nothing to
    /// diagnose, and why ([`RunReport::auth_doctor`]'s reason).
    pub fn note_no_auth_check(&mut self, why: &str) {
        self.notes
            .push(format!("the sign-in check did not run: {why}"));
    }

    /// Where the run was made from: a browser, or a direct client (the command line, a replay of
    /// its records); what its words of what to do next are about. A run with no record yet is
    /// the page's.
    pub fn vantage(&self) -> crate::vocabulary::exchange::Vantage {
        self.records
            .first()
            .map_or(crate::vocabulary::exchange::Vantage::Browser, |r| {
                r.exchange.vantage
            })
    }

    /// Says in the report's notes that `--oauth` did not sign in, and why (the core's words).
    pub fn note_sign_in_refused(&mut self, why: &str) {
        self.notes.push(format!("sign-in refused: {why}"));
        self.sign_in_refused = true;
    }

    /// Says in the report's notes how this run signed in ([`crate::run::auth::SignIn::summary`]).
    pub fn note_signed_in(&mut self, lines: &[String]) {
        self.notes.extend(lines.iter().cloned());
    }

    /// The records grouped and ordered as the page shows them (and the Markdown lists them).
    pub fn card_groups(&self) -> CardGroups {
        let mut ranked: Vec<(usize, Arc<Record>)> = self
            .records
            .iter()
            .filter_map(|r| r.step.card_rank().map(|k| (k, r.clone())))
            .collect();
        ranked.sort_by_key(|(k, _)| *k);
        let (probes, checks): (Vec<_>, Vec<_>) = ranked
            .into_iter()
            .partition(|(_, r)| matches!(r.step, Step::Probe(_)));
        let probes: Vec<Arc<Record>> = probes.into_iter().map(|(_, r)| r).collect();
        let stopped_at_connect = probes.is_empty();
        let (connect_failed, connect) = self
            .records
            .iter()
            .filter(|r| r.step.card_rank().is_none())
            .cloned()
            .partition(|r| {
                stopped_at_connect && matches!(r.step, Step::Initialize | Step::Discover)
            });
        CardGroups {
            connect_failed,
            probes,
            checks: checks.into_iter().map(|(_, r)| r).collect(),
            connect,
        }
    }

    /// The spec verdicts of the probes and checks, in card order.
    pub fn spec_verdicts(&self) -> Vec<(Step, crate::judge::spec::SpecVerdict)> {
        let groups = self.card_groups();
        groups
            .probes
            .iter()
            .chain(&groups.checks)
            .filter_map(|r| r.assessment.spec.clone().map(|s| (r.step, s)))
            .collect()
    }

    /// `serverInfo` as "name version", when the server said.
    pub fn server_text(&self) -> Option<String> {
        let info = self.server_info.as_ref()?;
        let field = |k: &str| info.get(k).and_then(Value::as_str).unwrap_or("");
        let name = field("name");
        Some(
            format!(
                "{} {}",
                if name.is_empty() { "?" } else { name },
                field("version")
            )
            .trim_end()
            .to_string(),
        )
    }

    /// The protocol version the run spoke, or that none was negotiated.
    pub fn protocol_text(&self) -> &str {
        self.negotiated_version.as_deref().unwrap_or(NOT_NEGOTIATED)
    }

    /// "3 sequential rounds" (how many waves the probes needed), when probes ran.
    pub fn rounds_text(&self) -> Option<String> {
        self.waves.map(|w| {
            format!(
                "{w} round{} of requests, each sent once the one before had answered",
                if w == 1 { "" } else { "s" }
            )
        })
    }

    /// Whether the CORS doctor runs, and for which request: a POST of the run got no readable
    /// answer (blocked by CORS or the network) and the user did not cancel. The doctor asks about
    /// the era of the request that was blocked (2026-07-28's headers when that request carried
    /// them), and knows when the run recovered by falling back to an older era.
    pub fn cors_doctor(&self) -> Option<DoctorCall> {
        let blocked: Vec<&Exchange> = self
            .records
            .iter()
            .map(|r| &r.exchange)
            .filter(|ex| {
                ex.transport_error == Some(crate::vocabulary::exchange::TransportError::Network)
                    && ex.request.method == "POST"
            })
            .collect();
        if blocked.is_empty() || self.ended == Some(RunEnd::Cancelled) {
            return None;
        }
        let modern = blocked.iter().any(|ex| {
            ex.request
                .header(crate::vocabulary::header::METHOD)
                .is_some()
        }) || self.negotiated_version.as_deref() == Some(MODERN)
            || self.era == Era::Modern;
        // Fell back: the blocked requests were all of 2026-07-28, and the run went on in another era.
        let fell_back_to = self.negotiated_version.clone().filter(|v| {
            v != MODERN
                && blocked.iter().all(|ex| {
                    ex.request
                        .header(crate::vocabulary::header::METHOD)
                        .is_some()
                })
        });
        Some(DoctorCall {
            modern,
            fell_back_to,
        })
    }

    /// The server asked for a token at connect (a 401 before any probe): the page may offer its
    /// demo token in one click when this endpoint is the demo server its own demo file names.
    pub fn offers_demo_token(&self, demo_endpoint: &str) -> bool {
        let (connect, connected) = connect_outcome(&self.records);
        let refused = connect.is_some_and(|r| r.assessment.verdict.http_status == Some(401));
        !connected && refused && self.endpoint == demo_endpoint
    }

    /// A report from recorded exchanges (examples, pasted captures): each exchange's step comes from
    /// its `intent` (A–D, `no_token`, `get`) or its JSON-RPC method.
    pub fn from_exchanges(endpoint: &str, exchanges: Vec<Exchange>) -> RunReport {
        let mut records = Vec::new();
        let mut negotiated = None;
        let mut server_info = None;
        let mut pages = 0;
        for ex in exchanges {
            let method = ex
                .request
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str::<Value>(b).ok())
                .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_string));
            let named = ex.intent.as_deref().and_then(Step::of_intent);
            let step = match (named, method.as_deref(), ex.request.method.as_str()) {
                (Some(step), ..) => step,
                (_, _, "GET") => Step::Check(Check::Get),
                (_, _, "DELETE") => Step::Delete,
                (_, Some("initialize"), _) => Step::Initialize,
                (_, Some("server/discover"), _) => Step::Discover,
                (_, Some("notifications/initialized"), _) => Step::Initialized,
                (_, Some("tools/list"), _) => {
                    pages += 1;
                    Step::ToolsList(pages)
                }
                _ => Step::Reply(records.len() as u32),
            };
            if negotiated.is_none() {
                negotiated = ex.negotiated_version.clone();
            }
            let opts = Options {
                intent: ex.intent.clone(),
                negotiated_version: negotiated.clone(),
                limits: Limits::default(),
                missing_fields: Vec::new(),
            };
            let assessment = assess(&ex, &opts);
            if matches!(step, Step::Initialize | Step::Discover)
                && let Some(m) = &assessment.verdict.message
            {
                server_info = m
                    .pointer("/result/serverInfo")
                    .or_else(|| m.pointer("/result/_meta/io.modelcontextprotocol~1serverInfo"))
                    .cloned();
                if negotiated.is_none() {
                    negotiated = m
                        .pointer("/result/protocolVersion")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
            }
            records.push(Arc::new(Record {
                step,
                wave: 0,
                exchange: ex,
                assessment,
            }));
        }
        let version = negotiated
            .clone()
            .unwrap_or_else(|| DEFAULT_LEGACY.to_string());
        let (summary, origin, c_not_provoked) = conclusions(&records, &version);
        let headline = headline_of(&records, Some(RunEnd::Recorded), &summary);
        let notes = once_per_run_notes(&records);
        RunReport {
            endpoint: endpoint.to_string(),
            headline,
            era: Era::Legacy(version),
            mode: Mode::Quick,
            negotiated_version: negotiated,
            server_info,
            session: false,
            probes: std::array::from_fn(|i| planned(ProbeName::ALL[i])),
            records,
            summary,
            origin,
            c_not_provoked,
            waves: None,
            ended: Some(RunEnd::Recorded),
            interrupted_by: None,
            notes,
            auth: None,
            sign_in_refused: false,
            tools: Vec::new(),
        }
    }
}
