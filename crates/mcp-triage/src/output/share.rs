//! Share links that carry no secret: a versioned, allowlisted payload, compact JSON → raw deflate →
//! base64url in the URL fragment (`#r=v4.…`), which browsers never send to a server.
//!
//! Share links are a public format. A payload version, once released, is frozen: any new identifier
//! makes a new version, and every older version keeps opening by being *migrated* into the current
//! structure (never by a frozen copy of an old decoder). Version 1 (2026-12-02) had no
//! `secret_echoed` flag; version 2 adds it; version 3 replaces the excerpt of a successful result by
//! its `shape` (the server's data is not ours to publish); version 4 adds `pairs` (how many pairs the
//! score judged); version 5 spells the spec verdict `not_applicable` (the labelled name, was
//! `notapplicable`), gives a probe that was skipped or not answered the action `none` (was
//! `proceed`) and says what stopped an unanswered one (`stopped`); version 6 adds the stop reason
//! `not_recorded` (a replayed request the recording holds no answer to); version 7 carries stdio runs:
//! the endpoint `stdio:NAME` (a program's name, never its arguments), the cause `server_exited` and
//! the flag `non_json_stdout` (a stdio server's stderr never goes into a link); version 8 adds the
//! `decided_by` value `intent` (a verdict the probe's intent decided, labelled `structure` before) and
//! the flag `refusal_mislabelled`; version 9 adds the stop reason and the cause `connection_lost`
//! (the connection broke before the answer ended); version 10 adds `ended` (how the run ended, a
//! [`RunEnd`] identifier) and the stop reason `interrupted` (a signal stopped the command line's run
//! while it waited for the answer).
//! `tests/share-links/` holds links of every version.
//!
//! Server text that looks like a secret (see [`crate::output::withhold`]) is withheld unless the user opts in
//! for this link; [`build`] says how many values it withheld.
//! Decoding refuses long fragments before doing any work, accepts only strict base64url, inflates
//! with a hard output limit, parses with `deny_unknown_fields`, and checks every length cap and every
//! identifier; any failure is one error, never a partial result.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::judge::advice::AgentAction;
use crate::judge::spec::Conformance;
use crate::output::export::Scrub;
use crate::run::endpoint::Endpoint;
use crate::run::engine::{RunReport, Step};
use crate::secrets::redact::{self, Secrets};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag, RunEnd, StopReason};

/// The payload version this build writes.
pub const VERSION: u8 = 10;
/// The fragment prefix of the version this build writes.
pub const PREFIX: &str = "r=v10.";

/// The first version that carries `ended`.
const ENDED_SINCE: u8 = 10;

/// The first version that may carry `cause`.
fn cause_since(cause: Cause) -> u8 {
    match cause {
        Cause::ServerExited => 7,
        Cause::ConnectionLost => 9,
        _ => 1,
    }
}

/// The first version whose `decided_by` may be `intent`.
const INTENT_SINCE: u8 = 8;

/// The first version whose endpoint may be a stdio program (`stdio:NAME`) instead of a URL.
const STDIO_SINCE: u8 = 7;

/// The first version whose `stopped` may name `reason`.
fn stop_since(reason: StopReason) -> u8 {
    match reason {
        StopReason::NotRecorded => 6,
        StopReason::ConnectionLost => 9,
        StopReason::Interrupted => 10,
        _ => 5,
    }
}

/// The payload version in which a flag identifier first appeared: a link may only carry the flags
/// its own version knew.
fn flag_since(flag: Flag) -> u8 {
    // Exhaustive: a new flag must say which version brought it.
    match flag {
        Flag::MessageWithheld
        | Flag::SoftFailureSuspected
        | Flag::CodeInText
        | Flag::UnrelatedMessagesFirst
        | Flag::HeadersMayBeHidden => 1,
        Flag::SecretEchoed => 2,
        Flag::NonJsonStdout => 7,
        Flag::RefusalMislabelled => 8,
    }
}
/// Generated links stay within this many characters (the whole URL).
pub const MAX_LINK: usize = 8_000;
/// The decoder refuses fragments longer than this before decoding.
pub const MAX_FRAGMENT: usize = 16_384;
/// Inflated payloads larger than this are refused (a deflate bomb stops here).
pub const MAX_INFLATED: usize = 64 * 1024;

/// Length caps (characters) of the schema (the same in every version).
mod cap {
    pub(super) const SHORT: usize = 32;
    pub(super) const NAME: usize = 128;
    pub(super) const LINE: usize = 256;
    pub(super) const TEXT: usize = 512;
    pub(super) const EXCERPT: usize = 1024;
    pub(super) const ENDPOINT: usize = 512;
    pub(super) const ITEMS: usize = 8;
}

/// A shared run, version 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Share {
    /// Always 1.
    pub v: u8,
    /// The MCP Triage version that made the link.
    pub tool: String,
    /// When the run was made (ISO 8601, from the shell's clock).
    pub date: String,
    /// The endpoint: its origin, or the full URL when the user opted in.
    pub endpoint: String,
    /// The protocol version the run spoke.
    pub version: Option<String>,
    /// `serverInfo` name and version.
    pub server: Option<(String, String)>,
    /// Distinguishability: how many of the judged pairs differ by structure alone.
    pub score: Option<u8>,
    /// v4: how many of the pairs (A,B), (A,C), (B,C) were judged (both probes answered). Earlier
    /// versions scored only when all three were, so they migrate to 3 with a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u8>,
    /// The finding.
    pub finding: String,
    /// Probes A–D and the transport checks, in order.
    pub rows: Vec<ShareRow>,
    /// Notes about the run.
    pub notes: Vec<String>,
    /// v10: how the run ended (a [`RunEnd`] identifier: `complete`, `interrupted`…). Earlier
    /// versions said it only in the finding, so they migrate to none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
}

/// One probe or check in a shared run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareRow {
    /// `A`..`D`, `no_token`, `get`, `connect`.
    pub step: String,
    /// The tool called.
    pub tool: Option<String>,
    /// HTTP status.
    pub status: Option<u16>,
    /// Channel identifier.
    pub channel: String,
    /// Cause identifier.
    pub cause: String,
    /// JSON-RPC code.
    pub code: Option<i64>,
    /// `structure` or `text`.
    pub decided_by: String,
    /// Evidence facts, with the matched phrase for text evidence.
    pub evidence: Vec<(String, Option<String>)>,
    /// The advice key for the agent.
    pub action: String,
    /// Flag identifiers.
    pub flags: Vec<String>,
    /// Spec verdict: conformance, version, link, reason.
    pub spec: Option<(String, String, String, String)>,
    /// A short redacted excerpt of the envelope.
    pub excerpt: Option<String>,
    /// Why the probe was skipped.
    pub skipped: Option<String>,
    /// v3: for a successful result, its shape instead of its content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ResultShape>,
    /// v5: what kept this probe from being answered (a [`StopReason`] identifier); then `action`
    /// is [`NO_ACTION`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// The `action` of a row that carries no advice (a probe skipped or not answered), from v5 on.
pub const NO_ACTION: &str = "none";

/// What a successful result looked like, without what it said: all a verdict needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultShape {
    /// Content blocks: their `type` and, for text, its length in characters.
    pub blocks: Vec<(String, Option<u32>)>,
    /// How many content blocks there were (the list above is capped).
    pub block_count: u32,
    /// The top-level keys of `structuredContent`, if any.
    pub structured_keys: Vec<String>,
    /// `result.isError`.
    pub is_error: bool,
}

impl ResultShape {
    /// The shape of a JSON-RPC result (`None` when it is not an object).
    pub fn of(result: &serde_json::Value) -> Option<ResultShape> {
        let obj = result.as_object()?;
        let content = obj.get("content").and_then(|c| c.as_array());
        let blocks = content
            .map(|c| {
                c.iter()
                    .take(cap::ITEMS)
                    .map(|b| {
                        let kind = b.get("type").and_then(|t| t.as_str()).unwrap_or("?");
                        let len = b
                            .get("text")
                            .and_then(|t| t.as_str())
                            .map(|t| u32::try_from(t.chars().count()).unwrap_or(u32::MAX));
                        (clip(kind, cap::SHORT), len)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(ResultShape {
            blocks,
            block_count: content.map_or(0, |c| u32::try_from(c.len()).unwrap_or(u32::MAX)),
            structured_keys: obj
                .get("structuredContent")
                .and_then(|s| s.as_object())
                .map(|m| {
                    m.keys()
                        .take(cap::ITEMS)
                        .map(|k| clip(k, cap::SHORT))
                        .collect()
                })
                .unwrap_or_default(),
            is_error: obj
                .get("isError")
                .and_then(|e| e.as_bool())
                .unwrap_or(false),
        })
    }
}

/// Why a link cannot be opened or made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// Longer than [`MAX_FRAGMENT`].
    TooLong,
    /// Not `r=v1.` … `r=v10.` followed by data.
    WrongPrefix,
    /// A version this build does not know.
    UnknownVersion,
    /// Not strict base64url.
    BadEncoding,
    /// Not valid deflate, or larger than [`MAX_INFLATED`] once inflated.
    BadCompression,
    /// Not the schema of its version, or a field out of its caps.
    BadPayload(String),
    /// Even trimmed, the link would exceed [`MAX_LINK`].
    TooLargeToShare,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::TooLargeToShare => {
                write!(
                    f,
                    "These results are too large to share as a link; download the JSON instead."
                )
            }
            _ => write!(
                f,
                "This link is invalid or damaged, so nothing from it is shown."
            ),
        }
    }
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

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
    /// Keep server values that look like secrets (see [`crate::output::withhold`]).
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

fn step_name(step: Step) -> Option<&'static str> {
    match step {
        Step::Probe(p) => Some(p.as_str()),
        Step::NoToken => Some("no_token"),
        Step::Get => Some("get"),
        Step::Initialize | Step::Discover => Some("connect"),
        _ => None,
    }
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
            let name = step_name(r.step)?;
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
                    .flags
                    .iter()
                    .filter(|f| !f.once_per_run())
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
                skipped: Some(clip(reason.describe(), cap::LINE)),
                shape: None,
                stopped: None,
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
    };
    Built {
        payload,
        withheld: cleaner.withheld.get(),
    }
}

/// A link made for the share panel: the whole link, and the payload exactly as it will be opened
/// (what the panel shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// `page_base#r=v10.…`.
    pub url: String,
    /// The payload as the link decodes, pretty-printed: exactly what is shared.
    pub shown: String,
}

/// What the share panel shows: the link, or why there is none, and how many secret-shaped server
/// values were withheld from the payload either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkOutcome {
    /// The link, or why it cannot be made (too large even trimmed).
    pub link: Result<Link, ShareError>,
    /// Secret-shaped server values withheld from the payload.
    pub withheld: usize,
}

/// The whole pipeline, decided once: build the allowlisted payload, redact it a second time, trim it
/// to fit [`MAX_LINK`] after `page_base` (the page's URL without its fragment), encode it, and
/// decode it again for what the panel shows.
pub fn make_link(
    report: &RunReport,
    endpoint: &Endpoint,
    options: BuildOptions,
    secrets: &Secrets,
    date: &str,
    tool_version: &str,
    page_base: &str,
) -> LinkOutcome {
    let built = build(report, endpoint, options, secrets, date, tool_version);
    let payload = redact_payload(&built.payload, secrets);
    let link = fit(&payload, page_base.len()).map(|fitted| {
        let fragment = encode(&fitted);
        let shown = decode(&fragment)
            .ok()
            .and_then(|p| serde_json::to_string_pretty(&p).ok())
            .unwrap_or_default();
        Link {
            url: format!("{page_base}#{fragment}"),
            shown,
        }
    });
    LinkOutcome {
        link,
        withheld: built.withheld,
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
        ..p.clone()
    }
}

/// The fragment (without `#`) for a payload, untrimmed.
pub fn encode(p: &Share) -> String {
    let json = serde_json::to_vec(p).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{PREFIX}{}", redact::base64url(&packed))
}

/// Trims excerpts (then evidence, then notes) deterministically until the link — `base_len`
/// characters of page URL plus `#` plus the fragment — fits in [`MAX_LINK`].
pub fn fit(p: &Share, base_len: usize) -> Result<Share, ShareError> {
    let budget = MAX_LINK.saturating_sub(base_len + 1);
    let mut current = p.clone();
    if encode(&current).len() <= budget {
        return Ok(current);
    }
    for excerpt_cap in [512usize, 256, 128, 64, 0] {
        for row in current.rows.iter_mut() {
            row.excerpt = row
                .excerpt
                .as_deref()
                .filter(|_| excerpt_cap > 0)
                .map(|e| clip(e, excerpt_cap));
        }
        if encode(&current).len() <= budget {
            return Ok(current);
        }
    }
    for row in current.rows.iter_mut() {
        row.evidence.truncate(2);
    }
    current.notes.clear();
    if encode(&current).len() <= budget {
        return Ok(current);
    }
    Err(ShareError::TooLargeToShare)
}

fn decode_base64url(text: &str) -> Option<Vec<u8>> {
    if !text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        || text.len() % 4 == 1
    {
        return None;
    }
    let bytes = crate::vocabulary::exchange::decode_base64(text)?;
    // Strict: the unused low bits of the last character must be zero (one canonical encoding).
    (redact::base64url(&bytes) == text).then_some(bytes)
}

fn check(ok: bool, what: &str) -> Result<(), ShareError> {
    if ok {
        Ok(())
    } else {
        Err(ShareError::BadPayload(what.to_string()))
    }
}

fn within(s: &str, max: usize) -> bool {
    s.chars().count() <= max
}

fn validate(p: &Share, declared: u8) -> Result<(), ShareError> {
    check(p.v == declared, "version")?;
    check(
        within(&p.tool, cap::SHORT) && within(&p.date, cap::SHORT),
        "tool or date",
    )?;
    check(within(&p.endpoint, cap::ENDPOINT), "endpoint")?;
    check(
        !p.endpoint.starts_with("stdio:") || declared >= STDIO_SINCE,
        "endpoint",
    )?;
    check(
        p.version.as_deref().is_none_or(|v| within(v, cap::SHORT)),
        "version",
    )?;
    check(
        p.server
            .as_ref()
            .is_none_or(|(n, v)| within(n, cap::NAME) && within(v, cap::SHORT)),
        "server",
    )?;
    check(p.score.is_none_or(|s| s <= 3), "score")?;
    check(
        p.pairs
            .is_none_or(|m| declared >= 4 && m <= 3 && p.score.is_none_or(|s| s <= m)),
        "pairs",
    )?;
    check(within(&p.finding, cap::TEXT), "finding")?;
    check(
        p.ended
            .as_deref()
            .is_none_or(|e| declared >= ENDED_SINCE && RunEnd::parse(e).is_some()),
        "ended",
    )?;
    check(p.rows.len() <= cap::ITEMS * 2, "rows")?;
    check(
        p.notes.len() <= cap::ITEMS && p.notes.iter().all(|n| within(n, cap::LINE)),
        "notes",
    )?;
    for row in &p.rows {
        check(
            matches!(
                row.step.as_str(),
                "A" | "B" | "C" | "D" | "no_token" | "get" | "connect"
            ),
            "step",
        )?;
        check(Channel::parse(&row.channel).is_some(), "channel")?;
        check(
            Cause::parse(&row.cause).is_some_and(|c| cause_since(c) <= declared),
            "cause",
        )?;
        check(
            match DecidedBy::parse(&row.decided_by) {
                Some(DecidedBy::Intent) => declared >= INTENT_SINCE,
                other => other.is_some(),
            },
            "decided_by",
        )?;
        check(
            row.tool.as_deref().is_none_or(|t| within(t, cap::NAME)),
            "tool",
        )?;
        check(row.evidence.len() <= cap::ITEMS, "evidence")?;
        for (fact, matched) in &row.evidence {
            check(
                within(fact, cap::LINE) && matched.as_deref().is_none_or(|m| within(m, cap::NAME)),
                "evidence",
            )?;
        }
        check(
            AgentAction::parse(&row.action).is_some() || (declared >= 5 && row.action == NO_ACTION),
            "action",
        )?;
        check(
            row.stopped.as_deref().is_none_or(|s| {
                StopReason::parse(s).is_some_and(|r| stop_since(r) <= declared)
                    && row.action == NO_ACTION
            }),
            "stopped",
        )?;
        check(
            row.flags.len() <= cap::ITEMS
                && row
                    .flags
                    .iter()
                    .all(|f| Flag::parse(f).is_some_and(|f| flag_since(f) <= declared)),
            "flags",
        )?;
        if let Some((conf, version, link, reason)) = &row.spec {
            // Up to v4 the third value was spelled `notapplicable`.
            let known = match conf.as_str() {
                "notapplicable" => declared < 5,
                "not_applicable" => declared >= 5,
                other => Conformance::parse(other).is_some(),
            };
            check(known, "spec")?;
            check(
                within(version, cap::SHORT) && within(reason, cap::TEXT),
                "spec",
            )?;
            check(
                within(link, cap::LINE) && link.starts_with("https://modelcontextprotocol.io/"),
                "spec link",
            )?;
        }
        check(
            row.excerpt
                .as_deref()
                .is_none_or(|e| within(e, cap::EXCERPT)),
            "excerpt",
        )?;
        if let Some(shape) = &row.shape {
            // The shape arrived with v3.
            check(declared >= 3, "shape")?;
            check(
                shape.blocks.len() <= cap::ITEMS
                    && shape.blocks.iter().all(|(t, _)| within(t, cap::SHORT))
                    && shape.structured_keys.len() <= cap::ITEMS
                    && shape.structured_keys.iter().all(|k| within(k, cap::SHORT)),
                "shape",
            )?;
        }
        check(
            row.skipped.as_deref().is_none_or(|s| within(s, cap::LINE)),
            "skipped",
        )?;
    }
    Ok(())
}

/// Opens a fragment (with or without the leading `#`). Any failure is one error, never partial data.
pub fn decode(fragment: &str) -> Result<Share, ShareError> {
    if fragment.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong);
    }
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(rest) = fragment.strip_prefix("r=") else {
        return Err(ShareError::WrongPrefix);
    };
    let (declared, data) = match rest.split_once('.') {
        Some(("v1", data)) => (1u8, data),
        Some(("v2", data)) => (2u8, data),
        Some(("v3", data)) => (3u8, data),
        Some(("v4", data)) => (4u8, data),
        Some(("v5", data)) => (5u8, data),
        Some(("v6", data)) => (6u8, data),
        Some(("v7", data)) => (7u8, data),
        Some(("v8", data)) => (8u8, data),
        Some(("v9", data)) => (9u8, data),
        Some(("v10", data)) => (10u8, data),
        _ => return Err(ShareError::UnknownVersion),
    };
    let packed = decode_base64url(data).ok_or(ShareError::BadEncoding)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED)
        .map_err(|_| ShareError::BadCompression)?;
    let payload: Share =
        serde_json::from_slice(&json).map_err(|e| ShareError::BadPayload(e.to_string()))?;
    validate(&payload, declared)?;
    Ok(migrate(payload))
}

/// Brings a payload of any released version into the current structure. v1 → v2 → v3: v1 could not
/// carry `secret_echoed` and v1/v2 rows have no `shape` (their excerpts stay as they were made), so
/// only the version number changes.
///
/// v3 → v4: a score always counted all three pairs, so `pairs` is 3 where there is a score.
///
/// v4 → v5: `notapplicable` is spelled `not_applicable`, and a skipped probe's action `proceed`
/// (advice it never deserved) becomes `none`. A v4 row cut by a deadline or Cancel cannot be told
/// from an answered one, so it keeps its action.
///
/// v5 → v6: only a new stop reason, so only the version number changes.
///
/// v6 → v7: only new identifiers (stdio), so only the version number changes.
///
/// v7 → v8: only a new `decided_by` value and a new flag, so only the version number changes (an older row decided by
/// intent says `structure`, as its link did).
///
/// v8 → v9: only a new stop reason and cause, so only the version number changes (a v8 row whose connection
/// broke mid-answer was recorded as answered, or as cancelled by the page, and says so still).
///
/// v9 → v10: `ended` is new and stays absent (an older link said how its run ended in its finding
/// only), and the stop reason `interrupted` is new; only the version number changes.
fn migrate(mut p: Share) -> Share {
    if p.v < 4 && p.pairs.is_none() {
        p.pairs = p.score.map(|_| 3);
    }
    if p.v < 5 {
        for row in &mut p.rows {
            if let Some(spec) = &mut row.spec
                && spec.0 == "notapplicable"
            {
                spec.0 = Conformance::NotApplicable.as_str().to_string();
            }
            if row.skipped.is_some() {
                row.action = NO_ACTION.to_string();
            }
        }
    }
    if p.v < VERSION {
        p.v = VERSION;
    }
    p
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A payload packed under any prefix, as a crafted (or older) link would be.
    fn pack(p: &Share, prefix: &str) -> String {
        let json = serde_json::to_vec(p).unwrap();
        let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
        format!("{prefix}{}", redact::base64url(&packed))
    }

    fn sample() -> Share {
        Share {
            v: VERSION,
            tool: "0.1.0".into(),
            date: "2026-12-02T15:00:00Z".into(),
            endpoint: "https://mcp.example.com".into(),
            version: Some("2025-11-25".into()),
            server: Some(("demo".into(), "1.29.0".into())),
            score: Some(0),
            pairs: Some(3),
            finding: "An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart.".into(),
            rows: vec![ShareRow {
                step: "A".into(),
                tool: Some("mcp_triage_no_such_tool_1".into()),
                status: Some(200),
                channel: "tool_error".into(),
                cause: "unknown_tool".into(),
                code: None,
                decided_by: "text".into(),
                evidence: vec![("result.isError is true".into(), None)],
                action: "pick_another_tool".into(),
                flags: vec!["code_in_text".into()],
                spec: Some(("deviates".into(), "2025-11-25".into(), "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling".into(), "…".into())),
                excerpt: Some("{\"result\":{}}".into()),
                skipped: None,
                shape: None,
                stopped: None,
            }],
            notes: vec![],
            // Older versions are made from this sample: `ended` arrived with v10.
            ended: None,
        }
    }

    #[test]
    fn round_trip_and_fragment_shape() {
        let p = sample();
        let frag = encode(&p);
        assert!(frag.starts_with(PREFIX));
        assert_eq!(decode(&frag), Ok(p.clone()));
        assert_eq!(decode(&format!("#{frag}")), Ok(p));
    }

    #[test]
    fn truncated_and_tampered_links_are_refused_whole() {
        let frag = encode(&sample());
        for cut in 1..=64.min(frag.len() - 5) {
            assert!(decode(&frag[..frag.len() - cut]).is_err(), "cut {cut}");
        }
        assert_eq!(decode("r=v11.AAAA"), Err(ShareError::UnknownVersion));
        assert_eq!(decode("x=v1.AAAA"), Err(ShareError::WrongPrefix));
        assert_eq!(decode("r=v1.AA=A"), Err(ShareError::BadEncoding));
        assert_eq!(decode(&"r=v1.".repeat(4000)), Err(ShareError::TooLong));
        let mut bad = sample();
        bad.rows[0].cause = "exploded".into();
        assert!(matches!(
            decode(&encode(&bad)),
            Err(ShareError::BadPayload(_))
        ));
        let mut unknown_field = serde_json::to_value(sample()).unwrap();
        unknown_field["extra"] = serde_json::json!(1);
        let packed = miniz_oxide::deflate::compress_to_vec(unknown_field.to_string().as_bytes(), 9);
        assert!(matches!(
            decode(&format!("r=v2.{}", redact::base64url(&packed))),
            Err(ShareError::BadPayload(_))
        ));
    }

    #[test]
    fn a_v1_link_is_migrated_and_may_not_carry_a_flag_v1_did_not_know() {
        let mut v1 = sample();
        v1.v = 1;
        v1.pairs = None;
        let opened = decode(&pack(&v1, "r=v1.")).unwrap();
        assert_eq!(opened.v, VERSION, "migrated into the current version");
        assert_eq!(
            opened.pairs,
            Some(3),
            "an old score counted all three pairs"
        );
        assert_eq!(
            Share {
                v: 1,
                pairs: None,
                ..opened
            },
            v1,
            "and says what it said"
        );
        // `secret_echoed` arrived with v2: a v1 link holding it is not a link any page made.
        v1.rows[0].flags = vec!["secret_echoed".into()];
        assert!(matches!(
            decode(&pack(&v1, "r=v1.")),
            Err(ShareError::BadPayload(_))
        ));
        let mut v2 = v1.clone();
        v2.v = 2;
        assert_eq!(
            decode(&pack(&v2, "r=v2.")).unwrap(),
            Share {
                v: VERSION,
                pairs: Some(3),
                ..v2.clone()
            }
        );
        // The prefix and the payload must name the same version.
        assert!(matches!(
            decode(&pack(&v2, "r=v1.")),
            Err(ShareError::BadPayload(_))
        ));
        // `shape` arrived with v3.
        let mut with_shape = v2.clone();
        with_shape.rows[0].shape =
            ResultShape::of(&serde_json::json!({"content": [{"type": "text", "text": "abc"}]}));
        assert!(matches!(
            decode(&pack(&with_shape, "r=v2.")),
            Err(ShareError::BadPayload(_))
        ));
        with_shape.v = 3;
        assert_eq!(
            decode(&pack(&with_shape, "r=v3.")).unwrap(),
            Share {
                v: VERSION,
                pairs: Some(3),
                ..with_shape.clone()
            }
        );
        // `pairs` arrived with v4: a v3 link holding it is not a link any page made.
        let mut v3_with_pairs = with_shape.clone();
        v3_with_pairs.pairs = Some(1);
        assert!(matches!(
            decode(&pack(&v3_with_pairs, "r=v3.")),
            Err(ShareError::BadPayload(_))
        ));
        let mut v4 = with_shape.clone();
        v4.v = 4;
        v4.pairs = Some(1);
        v4.score = Some(1);
        assert_eq!(
            decode(&pack(&v4, "r=v4.")).unwrap(),
            Share {
                v: VERSION,
                ..v4.clone()
            }
        );
        v4.score = Some(2);
        assert!(
            matches!(decode(&pack(&v4, "r=v4.")), Err(ShareError::BadPayload(_))),
            "a score over more pairs than were judged"
        );
        assert_eq!(decode("r=v11.AAAA"), Err(ShareError::UnknownVersion));
    }

    #[test]
    fn stdio_identifiers_open_in_v7_links_only() {
        let mut stdio = sample();
        stdio.endpoint = "stdio:node".into();
        stdio.rows[0].cause = "server_exited".into();
        stdio.rows[0].flags = vec!["non_json_stdout".into()];
        let opened = decode(&pack(&stdio, PREFIX)).unwrap();
        assert_eq!(opened, stdio, "a v7 link carries them");
        // Each alone, declared v6, is refused: a v6 reader never knew it.
        let mut v6 = stdio.clone();
        v6.v = 6;
        for (what, edit) in [("endpoint", 0usize), ("cause", 1), ("flag", 2)] {
            let mut one = sample();
            one.v = 6;
            match edit {
                0 => one.endpoint = v6.endpoint.clone(),
                1 => one.rows[0].cause = v6.rows[0].cause.clone(),
                _ => one.rows[0].flags = v6.rows[0].flags.clone(),
            }
            assert!(
                matches!(decode(&pack(&one, "r=v6.")), Err(ShareError::BadPayload(_))),
                "{what} in a v6 link"
            );
        }
        v6.endpoint = "https://mcp.example.com".into();
        v6.rows[0].cause = "unknown_tool".into();
        v6.rows[0].flags.clear();
        assert!(decode(&pack(&v6, "r=v6.")).is_ok(), "the control opens");
    }

    #[test]
    fn an_interrupted_run_opens_in_v10_links_only_with_its_ending_and_stop() {
        let mut cut = sample();
        cut.ended = Some(RunEnd::Interrupted.as_str().into());
        cut.rows[0].stopped = Some(StopReason::Interrupted.as_str().into());
        cut.rows[0].action = NO_ACTION.into();
        assert_eq!(
            decode(&pack(&cut, PREFIX)).unwrap(),
            cut,
            "a v10 link carries both"
        );
        // Each alone, declared v9, is refused: a v9 reader never knew it.
        let mut v9 = cut.clone();
        v9.v = 9;
        v9.ended = None;
        assert!(
            decode(&pack(&v9, "r=v9.")).is_err(),
            "the stop reason `interrupted` in a v9 link"
        );
        v9.rows[0].stopped = Some(StopReason::Deadline.as_str().into());
        assert!(decode(&pack(&v9, "r=v9.")).is_ok(), "the control opens");
        v9.ended = Some(RunEnd::Complete.as_str().into());
        assert!(
            decode(&pack(&v9, "r=v9.")).is_err(),
            "`ended` in a v9 link, even a known value"
        );
        let mut unknown = sample();
        unknown.ended = Some("exploded".into());
        assert!(
            decode(&pack(&unknown, PREFIX)).is_err(),
            "an unknown ending"
        );
    }

    #[test]
    fn a_lost_connection_opens_in_v9_links_only_as_a_stop_and_a_cause() {
        let mut lost = sample();
        lost.rows[0].stopped = Some(StopReason::ConnectionLost.as_str().into());
        lost.rows[0].action = NO_ACTION.into();
        assert_eq!(
            decode(&pack(&lost, PREFIX)).unwrap(),
            lost,
            "a v9 link carries it"
        );
        let mut v8 = lost.clone();
        v8.v = 8;
        assert!(
            matches!(decode(&pack(&v8, "r=v8.")), Err(ShareError::BadPayload(_))),
            "a v8 reader never knew `connection_lost`"
        );
        v8.rows[0].stopped = Some(StopReason::Deadline.as_str().into());
        assert!(decode(&pack(&v8, "r=v8.")).is_ok(), "the control opens");
        let mut cause = sample();
        cause.rows[0].cause = Cause::ConnectionLost.as_str().into();
        assert_eq!(decode(&pack(&cause, PREFIX)).unwrap(), cause);
        cause.v = 8;
        assert!(decode(&pack(&cause, "r=v8.")).is_err(), "nor the cause");
    }

    #[test]
    fn decided_by_intent_and_the_mislabel_flag_open_in_v8_links_only() {
        let mut intent = sample();
        intent.rows[0].decided_by = "intent".into();
        let opened = decode(&pack(&intent, PREFIX)).unwrap();
        assert_eq!(opened, intent, "a v8 link carries it");
        let mut v7 = intent.clone();
        v7.v = 7;
        assert!(
            matches!(decode(&pack(&v7, "r=v7.")), Err(ShareError::BadPayload(_))),
            "a v7 reader never knew `intent`"
        );
        v7.rows[0].decided_by = "structure".into();
        assert!(decode(&pack(&v7, "r=v7.")).is_ok(), "the control opens");
        let mut nonsense = intent.clone();
        nonsense.rows[0].decided_by = "vibes".into();
        assert!(decode(&pack(&nonsense, PREFIX)).is_err());
        // The flag v8 brought opens in v8 and is refused in a v7 link.
        let mut mislabel = sample();
        mislabel.rows[0].flags = vec!["refusal_mislabelled".into()];
        assert_eq!(decode(&pack(&mislabel, PREFIX)).unwrap(), mislabel);
        mislabel.v = 7;
        assert!(matches!(
            decode(&pack(&mislabel, "r=v7.")),
            Err(ShareError::BadPayload(_))
        ));
    }

    #[test]
    fn a_v4_link_is_migrated_to_v5_spellings_and_v5_identifiers_need_v5() {
        let mut v4 = sample();
        v4.v = 4;
        v4.rows[0].spec.as_mut().unwrap().0 = "notapplicable".into();
        let mut skipped = v4.rows[0].clone();
        skipped.step = "D".into();
        skipped.action = "proceed".into();
        skipped.skipped = Some("no tool to call".into());
        v4.rows.push(skipped);
        let opened = decode(&pack(&v4, "r=v4.")).unwrap();
        assert_eq!(opened.v, VERSION);
        assert_eq!(opened.rows[0].spec.as_ref().unwrap().0, "not_applicable");
        assert_eq!(
            opened.rows[0].action, "pick_another_tool",
            "an answered row keeps its advice"
        );
        assert_eq!(
            opened.rows[1].action, NO_ACTION,
            "a skipped probe gets no advice"
        );
        // The new spellings are refused in a v4 link, the old one in a v5 link.
        let mut v4_new_word = v4.clone();
        v4_new_word.rows[0].spec.as_mut().unwrap().0 = "not_applicable".into();
        assert!(decode(&pack(&v4_new_word, "r=v4.")).is_err());
        let mut v4_none = v4.clone();
        v4_none.rows[1].action = NO_ACTION.into();
        assert!(decode(&pack(&v4_none, "r=v4.")).is_err());
        let mut v5_old_word = opened.clone();
        v5_old_word.v = 5;
        v5_old_word.rows[0].spec.as_mut().unwrap().0 = "notapplicable".into();
        assert!(decode(&pack(&v5_old_word, "r=v5.")).is_err());
        // `stopped` names a stop reason, comes with the action `none`, and only from v5 on.
        let mut stopped = opened.clone();
        stopped.v = 5;
        stopped.rows[0].stopped = Some("deadline".into());
        assert!(
            decode(&pack(&stopped, "r=v5.")).is_err(),
            "advice beside a stop"
        );
        stopped.rows[0].action = NO_ACTION.into();
        let as_current = |p: &Share| Share {
            v: VERSION,
            ..p.clone()
        };
        assert_eq!(
            decode(&pack(&stopped, "r=v5.")).unwrap(),
            as_current(&stopped)
        );
        stopped.rows[0].stopped = Some("exploded".into());
        assert!(decode(&pack(&stopped, "r=v5.")).is_err());
        // `not_recorded` (a replay's unanswered request) arrived with v6.
        stopped.rows[0].stopped = Some("not_recorded".into());
        assert!(decode(&pack(&stopped, "r=v5.")).is_err());
        let v6 = Share {
            v: 6,
            ..stopped.clone()
        };
        assert_eq!(decode(&pack(&v6, "r=v6.")).unwrap(), as_current(&v6));
        let mut v4_stopped = v4.clone();
        v4_stopped.rows[0].stopped = Some("deadline".into());
        assert!(decode(&pack(&v4_stopped, "r=v4.")).is_err());
        // Actions are identifiers, not free text.
        let mut prose = opened.clone();
        prose.rows[0].action = "run away".into();
        assert!(decode(&pack(&prose, "r=v5.")).is_err());
    }

    #[test]
    fn a_successful_result_is_shared_as_its_shape() {
        let result = serde_json::json!({
            "content": [{"type": "text", "text": "PORT=3001\nSHELL=/bin/bash"}, {"type": "image", "data": "iVBOR", "mimeType": "image/png"}],
            "structuredContent": {"PORT": "3001", "SHELL": "/bin/bash"}
        });
        let shape = ResultShape::of(&result).unwrap();
        assert_eq!(
            shape.blocks,
            vec![("text".to_string(), Some(25)), ("image".to_string(), None)]
        );
        assert_eq!(shape.block_count, 2);
        assert_eq!(
            shape.structured_keys,
            vec!["PORT".to_string(), "SHELL".to_string()]
        );
        assert!(!shape.is_error);
        let json = serde_json::to_string(&shape).unwrap();
        assert!(
            !json.contains("3001") && !json.contains("/bin/bash"),
            "{json}"
        );
    }

    #[test]
    fn a_deflate_bomb_stops_at_the_limit() {
        let zeros = vec![0u8; 8 * 1024 * 1024];
        let packed = miniz_oxide::deflate::compress_to_vec(&zeros, 10);
        let frag = format!("r=v2.{}", redact::base64url(&packed));
        assert!(
            frag.len() < MAX_FRAGMENT,
            "the bomb fits in a link: {}",
            frag.len()
        );
        assert_eq!(decode(&frag), Err(ShareError::BadCompression));
    }

    #[test]
    fn fit_trims_excerpts_deterministically() {
        let mut p = sample();
        // Excerpts that do not compress (a periodic one would fit untrimmed and prove nothing).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut noisy = || -> String {
            (0..1000)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    char::from(b'a' + (seed % 26) as u8)
                })
                .collect()
        };
        for _ in 0..15 {
            let mut row = p.rows[0].clone();
            row.excerpt = Some(noisy());
            p.rows.push(row);
        }
        assert!(
            encode(&p).len() + 41 > MAX_LINK,
            "the payload must need trimming"
        );
        let fitted = fit(&p, 40).unwrap();
        assert!(encode(&fitted).len() + 41 <= MAX_LINK);
        assert_eq!(fitted.rows.len(), p.rows.len(), "rows are kept");
        assert!(
            fitted.rows[1..]
                .iter()
                .all(|r| r.excerpt.as_ref().is_none_or(|e| e.chars().count() < 1000)),
            "every long excerpt was trimmed"
        );
        assert_eq!(fit(&p, 40).unwrap(), fitted);
        assert_eq!(decode(&encode(&fitted)), Ok(fitted));
    }
}
