//! The JUnit XML report for CI: one case per probe and check, one for the connection, one for the
//! score, and the cases a comparison adds; server text redacted, escaped for XML and the endpoint's
//! path hidden as in every other export.

use crate::judge::spec::Conformance;
use crate::output::export::Scrub;
use crate::output::view::{Answer, CardView, ReportView};
use crate::run::auth::BrowserAccess;
use crate::run::endpoint::Endpoint;
use crate::run::engine::RunReport;
use crate::secrets::redact::{self, Secrets};

/// Text for XML character data or an attribute: characters XML 1.0 cannot carry dropped, markup
/// characters escaped, length capped.
pub(crate) fn xml_text(text: &str, cap: usize) -> String {
    let mut out = String::new();
    for c in text.chars().take(cap) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    if text.chars().count() > cap {
        out.push('…');
    }
    out
}

/// How one JUnit test case ended.
enum CaseEnd {
    Passed,
    /// A spec deviation, or a score below the bar.
    Failure(String),
    /// The probe could not run, or was not answered.
    Skipped(String),
    /// The server could not be reached, or refused the run at connect.
    Error(String),
}

/// A JUnit XML report for CI: one test case per probe (A–D) and transport check, one for the
/// connection and one for the score. A spec deviation fails its case, a probe that could not run or
/// was not answered is skipped, a run that could not connect is an error, and the score fails when
/// it is below `fail_under` (the command line's `--fail-under`). Server text is redacted, escaped for
/// XML, and the endpoint's path hidden unless `include_path`.
pub fn junit(
    report: &RunReport,
    endpoint: &Endpoint,
    include_path: bool,
    secrets: &Secrets,
    fail_under: Option<u8>,
    extra: &[ExtraCase],
) -> String {
    let shown = if include_path {
        endpoint.url.clone()
    } else {
        endpoint.origin()
    };
    let scrub = Scrub::new(endpoint);
    let clean = |t: &str| {
        let t = redact::redact(t, secrets).0;
        if include_path { t } else { scrub.apply(&t) }
    };
    let mut cases: Vec<(String, &str, CaseEnd, String)> = Vec::new();
    let groups = report.card_groups();
    // The connection.
    // An error only when the run stopped at connect or never got past it (as the exit status
    // says), about the last connect answer (in auto, a refused discover comes before the
    // initialize that decided).
    let stopped_at_connect = report.ended == Some(crate::vocabulary::cause::RunEnd::ConnectFailed)
        || report.never_connected();
    let connect_end = match groups.connect_failed.last().filter(|_| stopped_at_connect) {
        Some(r) => CaseEnd::Error(format!(
            "the run could not start: {} ({})",
            r.assessment.verdict.cause,
            crate::judge::unreached::Unreached::of(&r.exchange)
                .map(|u| u.fact().to_string())
                .or_else(|| r.exchange.stop_reason().map(|s| s.describe().to_string()))
                .unwrap_or_else(|| r.assessment.advice.server.to_string())
        )),
        None if stopped_at_connect => {
            CaseEnd::Error(format!("the run could not start: {}", report.headline))
        }
        None => CaseEnd::Passed,
    };
    cases.push((
        "Connect".into(),
        "mcp-triage.connect",
        connect_end,
        report.headline.clone(),
    ));
    // A run a signal stopped is an error of the run, whatever its probes say.
    if let Some(by) = report.interrupted_by {
        cases.push((
            "Run".into(),
            "mcp-triage.run",
            CaseEnd::Error(format!(
                "the run was interrupted by {} before it finished: what it recorded is reported",
                by.signal_name()
            )),
            report.headline.clone(),
        ));
    }
    // Probes A–D, each with its card, or why it did not run; then the checks.
    let view = ReportView::of_report(report, &[]);
    let mut probes: Vec<&CardView> = view.probes.iter().chain(&view.unrun).collect();
    // `card-A` … `card-D`: in probe order.
    probes.sort_by(|a, b| a.id.cmp(&b.id));
    for card in probes {
        let (end, out) = card_case(card);
        cases.push((card.title.clone(), "mcp-triage.probes", end, out));
    }
    for card in &view.checks {
        let (end, out) = card_case(card);
        cases.push((card.title.clone(), "mcp-triage.checks", end, out));
    }
    // The OAuth doctor: one case per finding, and one per CORS verdict.
    for card in view.auth.iter().flat_map(|a| &a.cards) {
        if let Some(b) = &card.browser {
            let end = match BrowserAccess::parse(&b.access.id) {
                Some(BrowserAccess::NoAllowOrigin | BrowserAccess::PreflightRefused) => {
                    CaseEnd::Failure(b.line())
                }
                Some(BrowserAccess::NotJudged) => CaseEnd::Skipped(b.line()),
                _ => CaseEnd::Passed,
            };
            cases.push((
                format!("{} · browser", card.title),
                "mcp-triage.auth",
                end,
                b.line(),
            ));
        }
        for f in &card.findings {
            let end = match Conformance::parse(&f.conformance.id) {
                Some(Conformance::Deviates) => CaseEnd::Failure(f.line()),
                Some(Conformance::NotApplicable) => CaseEnd::Skipped(f.line()),
                _ => CaseEnd::Passed,
            };
            cases.push((
                format!("{} · {}", card.title, f.check.label),
                "mcp-triage.auth",
                end,
                f.line(),
            ));
        }
    }
    // The score.
    let summary = &view.summary;
    let below = fail_under.filter(|_| report.below_fail_under(fail_under));
    let score_end = match below {
        Some(n) => CaseEnd::Failure(format!(
            "{} {}, below the bar of {n}: {}",
            summary.score_label, summary.score, report.summary.finding
        )),
        None => CaseEnd::Passed,
    };
    cases.push((
        summary.score_label.into(),
        "mcp-triage.score",
        score_end,
        format!("{}: {}", summary.score, report.summary.finding),
    ));

    // What the caller adds (the comparison with a baseline: one case per probe).
    for case in extra {
        cases.push((
            case.name.clone(),
            case.class,
            case.failure
                .clone()
                .map_or(CaseEnd::Passed, CaseEnd::Failure),
            case.out.clone(),
        ));
    }

    let count = |f: fn(&CaseEnd) -> bool| cases.iter().filter(|c| f(&c.2)).count();
    let failures = count(|e| matches!(e, CaseEnd::Failure(_)));
    let errors = count(|e| matches!(e, CaseEnd::Error(_)));
    let skipped = count(|e| matches!(e, CaseEnd::Skipped(_)));
    let suite = xml_text(&clean(&format!("MCP Triage: {shown}")), 300);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"MCP Triage\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">\n",
        cases.len()
    ));
    xml.push_str(&format!(
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">\n",
        cases.len()
    ));
    for (name, class, end, out) in &cases {
        xml.push_str(&format!(
            "    <testcase classname=\"{class}\" name=\"{}\">\n",
            xml_text(name, 200)
        ));
        let element = |tag: &str, message: &str| {
            let m = xml_text(&clean(message), 1000);
            format!("      <{tag} message=\"{m}\">{m}</{tag}>\n")
        };
        match end {
            CaseEnd::Passed => {}
            CaseEnd::Failure(m) => xml.push_str(&element("failure", m)),
            CaseEnd::Skipped(m) => xml.push_str(&format!(
                "      <skipped message=\"{}\"/>\n",
                xml_text(&clean(m), 1000)
            )),
            CaseEnd::Error(m) => xml.push_str(&element("error", m)),
        }
        if !out.is_empty() {
            xml.push_str(&format!(
                "      <system-out>{}</system-out>\n",
                xml_text(&clean(out), 4000)
            ));
        }
        xml.push_str("    </testcase>\n");
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    redact::redact(&xml, secrets).0
}

/// A test case [`junit`] adds after its own: its name, class, failure (if it failed) and output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraCase {
    /// The case's name.
    pub name: String,
    /// Its class (`mcp-triage.baseline`).
    pub class: &'static str,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    /// What it says.
    pub out: String,
}

/// How a probe's or check's card ends as a test case, and what its output says.
fn card_case(card: &CardView) -> (CaseEnd, String) {
    let mut out = format!(
        "{}{}\n",
        card.outcome_line(),
        card.decided_by
            .as_ref()
            .map(|d| format!(" · decided by {}", d.label))
            .unwrap_or_default()
    );
    for e in card.evidence.iter().take(3) {
        out.push_str(&format!("evidence: {}\n", e.fact));
    }
    if let Some(s) = &card.spec {
        out.push_str(&format!(
            "spec {}: {} — {}\n",
            s.version, s.conformance.label, s.reason
        ));
    }
    if let Answer::Advice(a) = &card.answer {
        out.push_str(&format!(
            "agent: {} — {}\nserver: {}",
            a.action.label,
            a.agent.as_deref().unwrap_or_default(),
            a.server
                .as_ref()
                .map(|s| s.lines().join(" "))
                .unwrap_or_default()
        ));
    }
    match (&card.answer, &card.spec) {
        (Answer::Skipped { line, .. }, _) => (CaseEnd::Skipped(line.clone()), String::new()),
        (Answer::NotAnswered(why), _) => (CaseEnd::Skipped(why.clone()), out),
        (_, Some(s)) if s.deviates() => (
            CaseEnd::Failure(format!(
                "deviates from {}: {} ({})",
                s.version, s.reason, s.link
            )),
            out,
        ),
        _ => (CaseEnd::Passed, out),
    }
}
