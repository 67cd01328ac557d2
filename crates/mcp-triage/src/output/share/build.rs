//! Making the payload from a report: allowlisted fields only, every server-derived string cleaned
//! (redacted, the endpoint's path hidden, secret-shaped server values withheld unless opted in), a
//! successful result as its shape; and the second redaction pass over a whole payload.

use crate::output::export::Scrub;
use crate::run::auth::origins_only;
use crate::run::endpoint::Endpoint;
use crate::run::engine::{RunReport, Step};
use crate::secrets::redact::{self, Secrets};
use crate::vocabulary::cause::{Cause, Channel};

use super::cap::{self, clip};
use super::payload::{NO_ACTION, ResultShape, Share, ShareRow};
use super::versions::VERSION;

/// How a payload's strings are cleaned: our secrets redacted, the endpoint's path hidden unless
/// opted in, and secret-shaped server data withheld unless opted in (counted).
struct Cleaner<'a> {
    secrets: &'a Secrets,
    scrub: Option<Scrub>,
    withhold: bool,
    withheld: std::cell::Cell<usize>,
}

impl Cleaner<'_> {
    fn clean(&self, text: &str, max: usize) -> String {
        let redacted = redact::redact(text, self.secrets).0;
        let hidden = match &self.scrub {
            Some(s) => s.apply(&redacted),
            None => redacted,
        };
        let kept = if self.withhold {
            let (out, n) = crate::output::withhold::withhold(&hidden);
            self.withheld.set(self.withheld.get() + n);
            out
        } else {
            hidden
        };
        clip(&kept, max)
    }
}

/// What the user chose for one link.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Show the endpoint's path and query (keys often live there).
    pub include_path: bool,
    /// Keep server values that look like secrets (see `crate::output::withhold`).
    pub include_secret_shaped: bool,
}

/// A payload and what was withheld from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The payload.
    pub payload: Share,
    /// How many secret-shaped server values were withheld (0 when the user opted in).
    pub withheld: usize,
}

/// Builds the payload from a report: allowlisted fields only, every server-derived string redacted
/// once more, the endpoint as its origin unless `include_path`, secret-shaped server values withheld
/// unless `include_secret_shaped`, and a successful result as its shape, never its content.
pub fn build(
    report: &RunReport,
    endpoint: &Endpoint,
    options: BuildOptions,
    secrets: &Secrets,
    date: &str,
    tool_version: &str,
) -> Built {
    let include_path = options.include_path;
    let probes_ran = report
        .records
        .iter()
        .any(|r| matches!(r.step, Step::Probe(_)));
    // Unless the user opted in, the endpoint's path and query are hidden everywhere, not only in
    // the endpoint field: servers echo them (metadata URLs, 404 pages).
    let cleaner = Cleaner {
        secrets,
        scrub: (!include_path).then(|| Scrub::new(endpoint)),
        withhold: !options.include_secret_shaped,
        withheld: std::cell::Cell::new(0),
    };
    let clean = |text: &str, max: usize| cleaner.clean(text, max);
    let mut rows: Vec<ShareRow> = report
        .records
        .iter()
        .filter_map(|r| {
            let name = r.step.id()?;
            if name == "connect" && probes_ran {
                return None;
            }
            let a = &r.assessment;
            let v = &a.verdict;
            // An answer that did not come carries no advice: say what stopped it instead.
            let stopped = r.exchange.stop_reason();
            // A successful result is the server's data: share its shape, not what it said.
            let success = v.channel == Channel::Success;
            let shape = success
                .then(|| v.message.as_ref().and_then(|m| m.get("result")))
                .flatten()
                .and_then(ResultShape::of);
            let excerpt = (!success)
                .then(|| {
                    v.message.as_ref().map(|m| m.to_string()).or_else(|| {
                        r.exchange
                            .response
                            .as_ref()
                            .and_then(|resp| resp.body.clone())
                    })
                })
                .flatten()
                .filter(|t| !t.is_empty())
                .map(|t| clean(&t, cap::EXCERPT));
            Some(ShareRow {
                step: name.to_string(),
                tool: v.tool_name.as_deref().map(|t| clean(t, cap::NAME)),
                status: v.http_status,
                channel: v.channel.as_str().to_string(),
                cause: v.cause.as_str().to_string(),
                code: v.jsonrpc_code,
                decided_by: v.decided_by.as_str().to_string(),
                evidence: v
                    .evidence
                    .iter()
                    .take(cap::ITEMS)
                    .map(|e| {
                        (
                            clean(&e.fact, cap::LINE),
                            e.matched.as_deref().map(|m| clean(m, cap::NAME)),
                        )
                    })
                    .collect(),
                action: match stopped {
                    Some(_) => NO_ACTION.to_string(),
                    None => a.advice.action.as_str().to_string(),
                },
                flags: v
                    .own_flags()
                    .take(cap::ITEMS)
                    .map(|f| f.as_str().to_string())
                    .collect(),
                spec: a.spec.as_ref().map(|s| {
                    (
                        s.conformance.as_str().to_string(),
                        clip(&s.version, cap::SHORT),
                        clip(&s.link, cap::LINE),
                        clip(&s.reason, cap::TEXT),
                    )
                }),
                excerpt,
                skipped: None,
                shape,
                stopped: stopped.map(|s| s.as_str().to_string()),
                // An answer that did not come carries no advice.
                server: stopped.is_none().then(|| server_ids(&a.server)),
            })
        })
        .collect();
    for p in &report.probes {
        if let Some(reason) = p.skipped {
            rows.push(ShareRow {
                step: p.probe.as_str().to_string(),
                tool: None,
                status: None,
                channel: Channel::Network.as_str().to_string(),
                cause: Cause::None.as_str().to_string(),
                code: None,
                decided_by: "structure".into(),
                evidence: Vec::new(),
                action: NO_ACTION.into(),
                flags: Vec::new(),
                spec: None,
                excerpt: None,
                skipped: Some(clip(
                    &match reason.next_step(report.vantage()) {
                        Some(next) => format!("{}; {next}", reason.describe(report.vantage())),
                        None => reason.describe(report.vantage()).to_string(),
                    },
                    cap::LINE,
                )),
                shape: None,
                stopped: None,
                server: None,
            });
        }
    }
    rows.truncate(cap::ITEMS * 2);
    let shown = if include_path {
        endpoint.url.clone()
    } else {
        endpoint.origin()
    };
    let payload = Share {
        v: VERSION,
        tool: clip(tool_version, cap::SHORT),
        date: clip(date, cap::SHORT),
        endpoint: clean(&shown, cap::ENDPOINT),
        version: report
            .negotiated_version
            .as_deref()
            .map(|v| clip(v, cap::SHORT)),
        server: report.server_info.as_ref().map(|i| {
            let field = |k: &str| i.get(k).and_then(|v| v.as_str()).unwrap_or("");
            (
                clean(field("name"), cap::NAME),
                clean(field("version"), cap::SHORT),
            )
        }),
        score: report.summary.score,
        pairs: Some(report.summary.judged),
        finding: clean(&report.headline, cap::TEXT),
        rows,
        notes: report
            .notes
            .iter()
            .take(cap::ITEMS)
            .map(|n| clean(n, cap::LINE))
            .collect(),
        ended: report.ended.map(|e| e.as_str().to_string()),
        auth: report.auth.as_ref().map(|a| {
            let cards = a
                .cards
                .iter()
                .take(crate::run::auth::MAX_FETCHES + 4)
                .map(|c| {
                    let findings = c
                        .findings
                        .iter()
                        .take(cap::ITEMS)
                        .map(|f| {
                            (
                                f.check.as_str().to_string(),
                                f.conformance.as_str().to_string(),
                                clean(&origins_only(&f.detail), cap::TEXT),
                            )
                        })
                        .collect();
                    (
                        c.step.as_str().to_string(),
                        clean(&origins_only(&c.outcome), cap::LINE),
                        findings,
                    )
                })
                .collect();
            (clip(&a.revision, cap::SHORT), cards)
        }),
        browser: report.auth.as_ref().map(|a| {
            let verdicts = a
                .cards
                .iter()
                .take(crate::run::auth::MAX_FETCHES + 4)
                .filter_map(|c| {
                    c.browser.as_ref().map(|b| {
                        (
                            c.step.as_str().to_string(),
                            b.access.as_str().to_string(),
                            clean(&origins_only(&b.detail), cap::TEXT),
                        )
                    })
                })
                .collect();
            (clean(&origins_only(&a.browser), cap::TEXT), verdicts)
        }),
        compare: None,
    };
    Built {
        payload,
        withheld: cleaner.withheld.get(),
    }
}

/// Runs redaction once more over every string of a payload (the second pass the design asks for).
pub fn redact_payload(p: &Share, secrets: &Secrets) -> Share {
    let r = |s: &str| redact::redact(s, secrets).0;
    Share {
        endpoint: r(&p.endpoint),
        server: p.server.as_ref().map(|(n, v)| (r(n), r(v))),
        finding: r(&p.finding),
        notes: p.notes.iter().map(|n| r(n)).collect(),
        rows: p
            .rows
            .iter()
            .map(|row| ShareRow {
                tool: row.tool.as_deref().map(r),
                evidence: row
                    .evidence
                    .iter()
                    .map(|(f, m)| (r(f), m.as_deref().map(r)))
                    .collect(),
                excerpt: row.excerpt.as_deref().map(r),
                skipped: row.skipped.as_deref().map(r),
                ..row.clone()
            })
            .collect(),
        auth: p.auth.as_ref().map(|(revision, cards)| {
            let cards = cards
                .iter()
                .map(|(step, outcome, findings)| {
                    let findings = findings
                        .iter()
                        .map(|(id, conf, detail)| (id.clone(), conf.clone(), r(detail)))
                        .collect();
                    (step.clone(), r(outcome), findings)
                })
                .collect();
            (revision.clone(), cards)
        }),
        browser: p.browser.as_ref().map(|(conclusion, verdicts)| {
            let verdicts = verdicts
                .iter()
                .map(|(step, access, detail)| (step.clone(), access.clone(), r(detail)))
                .collect();
            (r(conclusion), verdicts)
        }),
        compare: p
            .compare
            .as_ref()
            .map(|before| Box::new(redact_payload(before, secrets))),
        ..p.clone()
    }
}

/// The server author's advice as a link carries it: ids, which the reader's build words.
fn server_ids(advice: &crate::judge::server_advice::ServerAdvice) -> super::payload::ShareServer {
    use crate::judge::server_advice::ServerAdvice;
    match advice {
        ServerAdvice::Nothing { id, .. } => (true, vec![id.to_string()]),
        ServerAdvice::Changes(changes) => (
            false,
            changes
                .iter()
                .take(cap::ITEMS)
                .map(|c| c.id.to_string())
                .collect(),
        ),
    }
}
