//! One census line (`mcp-triage-census/1`): what one target's run found, as JSON on one line:
//! where it was listed, how far the run got, the server's name and version, tool counts by their
//! annotations (never a tool's name, description or schema), probe A's and the checks' verdicts
//! in the verdict format, the OAuth doctor's findings when the server asked for a token, timings.

use crate::vocabulary::probe::Check;
use serde::{Deserialize, Serialize};

use crate::output::verdict_doc::VerdictDoc;
use crate::run::auth::AuthReport;
use crate::run::catalogue::ToolRisk;
use crate::run::census::targets::{Rejected, Target};
use crate::run::engine::RunReport;
use crate::vocabulary::cause::{Cause, Channel, RunEnd};
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::Step;

/// The format identifier every census line carries.
pub const CENSUS_FORMAT: &str = "mcp-triage-census/1";
/// The longest `serverInfo` name or version kept.
const MAX_SERVER_CHARS: usize = 100;

labelled_enum! {
    /// How far a target's run got.
    Reach {
        /// Connected, and probe A was answered.
        Answered = "answered",
        /// Connected, but probe A got no answer (cut, timed out, never sent).
        Connected = "connected",
        /// The server asked for a token (401 or 403 to the connect request).
        AuthRequired = "auth_required",
        /// Something answered, but not as an MCP server (another status, a page, a malformed body).
        NotMcp = "not_mcp",
        /// No answer: refused, reset, a name that does not resolve, TLS.
        Unreachable = "unreachable",
        /// The target's deadline passed first.
        TimedOut = "timed_out",
        /// The listed URL cannot be run (not a URL, cleartext to a remote host, a template).
        RefusedTarget = "refused_target",
    }
}

/// `serverInfo`'s name and version, cut and without control characters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerId {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The catalogue in counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCounts {
    /// Tools listed.
    pub count: usize,
    /// Declared `readOnlyHint: true`.
    pub read_only: usize,
    /// Declared `destructiveHint: true`.
    pub destructive: usize,
    /// Neither: a client must assume side effects.
    pub undeclared: usize,
}

/// A check's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckLine {
    /// `connect`, `tools_list`, `get` or `delete`.
    pub check: String,
    /// Its verdict.
    pub verdict: VerdictDoc,
}

/// An OAuth doctor finding, in short.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthFinding {
    /// The check's identifier.
    pub check: String,
    /// Its verdict at the revision judged (`meets`, `deviates`, …).
    pub conformance: String,
}

/// What the OAuth doctor found for a server that asked for a token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthLine {
    /// The authorization revision judged.
    pub revision: String,
    /// Fetches made.
    pub fetches: usize,
    /// Its findings.
    pub findings: Vec<AuthFinding>,
}

/// What the shell measured of a target's run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// From the target's start to its line.
    pub elapsed_ms: u64,
    /// Of which waiting for politeness (a host's delay or its request in flight).
    pub waited_ms: u64,
    /// Requests sent.
    pub requests: usize,
}

/// One line of `mcp-triage-census/1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CensusLine {
    /// [`CENSUS_FORMAT`].
    pub format: String,
    /// The target's key: its URL.
    pub target: String,
    /// Where it was listed.
    pub sources: Vec<String>,
    /// How far the run got.
    pub reach: Reach,
    /// Why the target was refused (only `refused_target`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The era asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub era: Option<String>,
    /// The version the run spoke.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// `serverInfo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerId>,
    /// The server gave a session id.
    #[serde(default)]
    pub session: bool,
    /// The catalogue in counts (when `tools/list` answered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ToolCounts>,
    /// Probe A's verdict: an unknown tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_a: Option<VerdictDoc>,
    /// The checks' verdicts, in the order sent.
    #[serde(default)]
    pub checks: Vec<CheckLine>,
    /// The OAuth doctor's findings (`auth_required` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<AuthLine>,
    /// How the run ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<RunEnd>,
    /// What the shell measured.
    pub timings: Timings,
}

fn clean(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(MAX_SERVER_CHARS)
        .collect()
}

/// A verdict as a census line keeps it: `mcp-triage-verdict/1`, the format `mcp-triage-census/1`
/// refers to (a census of servers concerns no agent's call, so /2's `delivery` adds nothing); a
/// success's words are the server's content, not ours to publish, so only a failure quotes what
/// was said.
fn verdict(a: &crate::judge::assess::Assessment) -> VerdictDoc {
    let mut doc = VerdictDoc::of_assessment(a).as_format_1(None);
    if doc.channel == Channel::Success {
        doc.said = None;
    }
    doc
}

fn check_name(step: Step) -> Option<&'static str> {
    match step {
        Step::Discover | Step::Initialize => Some("connect"),
        Step::ToolsList(1) => Some("tools_list"),
        Step::Check(Check::Get) => Some(Check::Get.as_str()),
        Step::Delete => Some("delete"),
        _ => None,
    }
}

fn reach_of(report: &RunReport, probe_a: Option<&VerdictDoc>) -> Reach {
    if let Some(a) = probe_a
        && !matches!(a.channel, Channel::Network)
    {
        return Reach::Answered;
    }
    let connect = report
        .records
        .iter()
        .rev()
        .find(|r| matches!(r.step, Step::Discover | Step::Initialize));
    let Some(connect) = connect else {
        return if report.ended == Some(RunEnd::DeadlinePassed) {
            Reach::TimedOut
        } else {
            Reach::Unreachable
        };
    };
    let v = &connect.assessment.verdict;
    match (v.channel, v.cause) {
        (_, Cause::Unauthenticated | Cause::InsufficientScope) => Reach::AuthRequired,
        (_, Cause::Timeout) => Reach::TimedOut,
        (Channel::Network, _) if report.ended == Some(RunEnd::DeadlinePassed) => Reach::TimedOut,
        (Channel::Network, _) => Reach::Unreachable,
        (Channel::Success, _) => Reach::Connected,
        _ if v.http_status == Some(403) && v.challenge.is_some() => Reach::AuthRequired,
        _ => Reach::NotMcp,
    }
}

fn tools_of(report: &RunReport) -> Option<ToolCounts> {
    let listed = report.records.iter().any(|r| {
        matches!(r.step, Step::ToolsList(_)) && r.assessment.verdict.channel == Channel::Success
    });
    listed.then(|| {
        let count = |risk| report.tools.iter().filter(|(_, r)| *r == risk).count();
        ToolCounts {
            count: report.tools.len(),
            read_only: count(ToolRisk::ReadOnly),
            destructive: count(ToolRisk::Destructive),
            undeclared: count(ToolRisk::MayHaveSideEffects),
        }
    })
}

fn auth_of(report: &AuthReport) -> AuthLine {
    AuthLine {
        revision: report.revision.clone(),
        fetches: report.fetches,
        findings: report
            .findings()
            .map(|(_, f)| AuthFinding {
                check: f.check.as_str().to_string(),
                conformance: f.conformance.as_str().to_string(),
            })
            .collect(),
    }
}

impl CensusLine {
    /// The line for a target's run.
    pub fn of_run(target: &Target, report: &RunReport, timings: Timings) -> CensusLine {
        let probe_a = report
            .records
            .iter()
            .find(|r| r.step == Step::Probe(ProbeName::A))
            .map(|r| verdict(&r.assessment));
        let checks = report
            .records
            .iter()
            .filter_map(|r| {
                Some(CheckLine {
                    check: check_name(r.step)?.to_string(),
                    verdict: verdict(&r.assessment),
                })
            })
            .collect();
        let server = report.server_info.as_ref().and_then(|info| {
            Some(ServerId {
                name: clean(info.get("name")?.as_str()?),
                version: info.get("version").and_then(|v| v.as_str()).map(clean),
            })
        });
        let reach = reach_of(report, probe_a.as_ref());
        CensusLine {
            format: CENSUS_FORMAT.into(),
            target: target.key.clone(),
            sources: target.sources.clone(),
            reach,
            refused: None,
            era: Some(report.era.choice().to_string()),
            protocol_version: report.negotiated_version.clone(),
            server,
            session: report.session,
            tools: tools_of(report),
            probe_a,
            checks,
            auth: report.auth.as_ref().map(auth_of),
            ended: report.ended,
            timings,
        }
    }

    /// The line for a listed URL the census cannot run.
    pub fn of_rejected(r: &Rejected) -> CensusLine {
        CensusLine {
            format: CENSUS_FORMAT.into(),
            target: r.url.clone(),
            sources: vec![r.source.clone()],
            reach: Reach::RefusedTarget,
            refused: Some(r.why.clone()),
            era: None,
            protocol_version: None,
            server: None,
            session: false,
            tools: None,
            probe_a: None,
            checks: Vec::new(),
            auth: None,
            ended: None,
            timings: Timings {
                elapsed_ms: 0,
                waited_ms: 0,
                requests: 0,
            },
        }
    }

    /// The line as written: JSON on one line (no newline inside: JSON escapes them).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
