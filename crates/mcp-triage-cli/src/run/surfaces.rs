//! The surface test: every public capture, as a probe's answer, through every text surface this
//! crate and the core make — the terminal report, the Markdown, JUnit and a share link opened into
//! the share view's cards — and each must show the same facts (channel, cause, decided-by, the
//! agent's action, the spec verdict) by their labels, and the share view the page's advice (the
//! agent's sentence, who must act, what the server author could change). A surface that drops one
//! fails; the control checks that a surface with one fact removed is caught.
//!
//! The sentence audit: the same surfaces, and the page's own view, over a table of failure
//! scenarios (refused, unresolved, TLS, reset, timeout, 401 without and with a token, 403 for a
//! scope, an unannotated server, a probe a person skipped, a run ended early), under four rules: no
//! browser or CORS words where a direct client saw the failure; "skipped by you" only where a
//! person's choice is recorded; no card that says both "nothing to change" and a change; the
//! share view says what the page says. Each rule has a seeded-bug control that turns it red.

use std::path::{Path, PathBuf};

use mcp_triage::endpoint::{Endpoint, parse_endpoint};
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::redact::Secrets;
use mcp_triage::view::{AdviceView, Answer, CardView, ReportView};
use mcp_triage::{export, share};

const ENDPOINT: &str = "http://127.0.0.1:9/mcp";

/// The facts every surface must show for a record, by their labels.
#[derive(Debug)]
struct Facts {
    title: String,
    channel: String,
    cause: String,
    decided_by: String,
    /// None when the answer did not come (then there is no advice).
    action: Option<String>,
    spec: Option<String>,
    /// The page's advice for the card (its view), which the share view must say too.
    advice: Option<AdviceView>,
}

/// The facts as the core decided them: from the assessment itself, not from a view.
fn facts_of(report: &RunReport) -> Facts {
    let r = &report.records[0];
    let a = &r.assessment;
    let v = &a.verdict;
    Facts {
        title: r.step.title().to_string(),
        channel: v.channel.label(),
        cause: v.cause.label(),
        decided_by: v.decided_by.label(),
        action: r
            .exchange
            .stop_reason()
            .is_none()
            .then(|| a.advice.action.label()),
        spec: a.spec.as_ref().map(|s| s.conformance.label()),
        advice: ReportView::of_report(report, &[])
            .cards()
            .find(|c| c.title == r.step.title())
            .and_then(|c| match &c.answer {
                Answer::Advice(a) => Some(a.clone()),
                _ => None,
            }),
    }
}

/// The public captures, each once, sorted.
fn captures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root)
        .expect("the public captures")
        .flatten()
    {
        for f in std::fs::read_dir(dir.path())
            .expect("a capture folder")
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "json") {
                files.push(f.path());
            }
        }
    }
    files.sort();
    files
}

/// The probe a capture stands for: its case's letter when it is one of A–D, else D: every capture
/// is shown as some probe's answer, so that every surface lists it.
fn intent_of(path: &Path) -> &'static str {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    mcp_triage::testing::intent_of_capture(name).unwrap_or("D")
}

/// What is missing from the terminal report's block for the card.
fn missing_in_terminal(text: &str, f: &Facts) -> Vec<String> {
    let block: String = text
        .split("\n\n")
        .find(|b| b.starts_with(&f.title))
        .unwrap_or("")
        .to_string();
    let mut want = vec![
        format!("  {} · {} · ", f.channel, f.cause),
        format!("  decided by {}\n", f.decided_by),
    ];
    want.extend(f.action.as_ref().map(|a| format!("  agent: {a} — ")));
    want.extend(f.spec.as_ref().map(|s| format!(": {s} — ")));
    want.into_iter()
        .filter(|w| !block.contains(w.as_str()))
        .collect()
}

/// What is missing from the Markdown table's row for the card.
fn missing_in_markdown(md: &str, f: &Facts) -> Vec<String> {
    let row = md
        .lines()
        .find(|l| l.starts_with(&format!("| {} |", f.title)))
        .unwrap_or("");
    let cells: Vec<&str> = row.split(" | ").collect();
    let cell = |i: usize| cells.get(i).map(|c| c.trim()).unwrap_or("");
    let mut missing = Vec::new();
    for (i, want) in [(3, &f.channel), (4, &f.cause), (6, &f.decided_by)] {
        if cell(i) != want.as_str() {
            missing.push(format!("column {i}: {want}"));
        }
    }
    if let Some(a) = &f.action
        && cell(7) != a.as_str()
    {
        missing.push(format!("agent: {a}"));
    }
    let spec = f.spec.clone().unwrap_or_else(|| "—".into());
    if cell(8).trim_end_matches(" |").trim() != spec {
        missing.push(format!("spec: {spec}"));
    }
    missing
}

/// What is missing from the JUnit test case's output for the card.
fn missing_in_junit(xml: &str, f: &Facts) -> Vec<String> {
    let case = xml
        .split("<testcase ")
        .find(|c| c.contains(&format!("name=\"{}\"", f.title)))
        .unwrap_or("");
    let mut want = vec![
        format!("{} · {} · ", f.channel, f.cause),
        format!(" · decided by {}\n", f.decided_by),
    ];
    want.extend(f.action.as_ref().map(|a| format!("agent: {a} — ")));
    want.extend(f.spec.as_ref().map(|s| format!(": {s} — ")));
    want.into_iter()
        .filter(|w| !case.contains(w.as_str()))
        .collect()
}

/// What the share view's card (built from the link, as the page builds it) lacks.
fn missing_in_share(card: Option<&CardView>, f: &Facts) -> Vec<String> {
    let Some(card) = card else {
        return vec!["the card".into()];
    };
    let label = |b: &Option<mcp_triage::view::Badge>| b.as_ref().map(|b| b.label.clone());
    let mut missing = Vec::new();
    for (name, got, want) in [
        ("channel", label(&card.channel), Some(f.channel.clone())),
        ("cause", label(&card.cause), Some(f.cause.clone())),
        (
            "decided by",
            label(&card.decided_by),
            Some(f.decided_by.clone()),
        ),
        (
            "spec",
            card.spec.as_ref().map(|s| s.conformance.label.clone()),
            f.spec.clone(),
        ),
    ] {
        if got != want {
            missing.push(format!("{name}: {want:?}, shown {got:?}"));
        }
    }
    let advice = match &card.answer {
        Answer::Advice(a) => Some(a),
        _ => None,
    };
    let action = advice.map(|a| a.action.label.clone());
    if action != f.action {
        missing.push(format!("agent: {:?}, shown {action:?}", f.action));
    }
    // The page's advice, word for word: the agent's sentence, who must act, the server's.
    if let (Some(page), Some(shared)) = (&f.advice, advice)
        && (page.agent != shared.agent
            || page.party != shared.party
            || page.server != shared.server)
    {
        missing.push(format!("advice: {page:?}, shown {shared:?}"));
    }
    missing
}

/// Every surface's output for one single-capture report.
struct Surfaces {
    terminal: String,
    markdown: String,
    junit: String,
    share: ReportView,
}

fn surfaces(report: &RunReport, ep: &Endpoint) -> Surfaces {
    let secrets = Secrets::default();
    let link = share::make_link(
        report,
        ep,
        share::BuildOptions {
            include_path: true,
            include_secret_shaped: true,
        },
        &secrets,
        "2026-12-06T00:00:00Z",
        "test",
        "",
    );
    let fragment = link.link.expect("every capture fits in a link").url;
    let payload = share::decode(&fragment).expect("a link the core made opens");
    Surfaces {
        terminal: export::text(report, ep, true),
        markdown: export::markdown(report, ep, true, &secrets),
        junit: export::junit(report, ep, true, &secrets, None, &[]),
        share: ReportView::of_share(&payload),
    }
}

fn missing(s: &Surfaces, f: &Facts) -> Vec<(&'static str, Vec<String>)> {
    let shared = s.share.probes.iter().find(|c| c.title == f.title);
    [
        ("terminal", missing_in_terminal(&s.terminal, f)),
        ("markdown", missing_in_markdown(&s.markdown, f)),
        ("junit", missing_in_junit(&s.junit, f)),
        ("share view", missing_in_share(shared, f)),
    ]
    .into_iter()
    .filter(|(_, m)| !m.is_empty())
    .collect()
}

#[test]
fn every_public_capture_shows_the_same_facts_on_every_text_surface() {
    let ep = parse_endpoint(ENDPOINT).expect("the test's endpoint");
    let files = captures();
    assert_eq!(files.len(), 912, "the public captures");
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("a capture");
        let mut ex = Exchange::from_json(&bytes).expect("an mcp-exchange/1 capture");
        ex.intent = Some(intent_of(path).into());
        let report = RunReport::from_exchanges(ENDPOINT, vec![ex]);
        let facts = facts_of(&report);
        let m = missing(&surfaces(&report, &ep), &facts);
        if !m.is_empty() {
            failures.push(format!("{}: {m:?}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} captures differ between surfaces:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn a_surface_that_drops_a_fact_is_caught() {
    let ep = parse_endpoint(ENDPOINT).expect("the test's endpoint");
    let path = captures()
        .into_iter()
        .find(|p| p.ends_with("ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json"))
        .expect("the seed's capture of probe A");
    let mut ex = Exchange::from_json(&std::fs::read(&path).expect("a capture")).expect("a capture");
    ex.intent = Some("A".into());
    let report = RunReport::from_exchanges(ENDPOINT, vec![ex]);
    let facts = facts_of(&report);
    let whole = surfaces(&report, &ep);
    assert!(missing(&whole, &facts).is_empty(), "the control's base");
    // Each surface with one fact dropped: the decided-by line, the agent's action, the spec
    // column, the spec line, the share card's cause.
    let mut s = surfaces(&report, &ep);
    s.terminal = s.terminal.replace("  decided by ", "  ");
    s.markdown = s.markdown.replace("| deviates |", "| — |");
    s.junit = s.junit.replace("agent: ", "");
    s.share.probes[0].cause = None;
    let caught: Vec<&str> = missing(&s, &facts).into_iter().map(|(n, _)| n).collect();
    assert_eq!(caught, ["terminal", "markdown", "junit", "share view"]);
    // A share view that drops the server author's advice (the v13 view) is caught alone.
    let mut s = surfaces(&report, &ep);
    if let Answer::Advice(a) = &mut s.share.probes[0].answer {
        a.server = None;
    }
    let caught: Vec<&str> = missing(&s, &facts).into_iter().map(|(n, _)| n).collect();
    assert_eq!(caught, ["share view"]);
}

// ---- the sentence audit -------------------------------------------------------------------------

/// One failure scenario: its report, and whether its inputs record a person's choice to skip.
struct Scenario {
    name: &'static str,
    report: RunReport,
    person_skipped: bool,
}

/// An `initialize` that got `response` (or, with none, the transport error and what the client
/// said), seen from `vantage`, with a token sent or not.
fn connect(
    vantage: &str,
    token: bool,
    response: Option<serde_json::Value>,
    error: Option<(&str, &str)>,
) -> Exchange {
    let mut headers = Vec::new();
    if token {
        headers.push(serde_json::json!(["Authorization", "Bearer [REDACTED]"]));
    }
    serde_json::from_value(serde_json::json!({
        "format": "mcp-exchange/1",
        "vantage": vantage,
        "request": {
            "method": "POST",
            "url": ENDPOINT,
            "headers": headers,
            "body": r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#
        },
        "response": response,
        "transport_error": error.map(|e| e.0),
        "transport_error_detail": error.map(|e| e.1),
    }))
    .expect("a scenario's exchange")
}

/// A refusal at connect: `status` with a `WWW-Authenticate` challenge.
fn refusal(status: u16, challenge: &str) -> serde_json::Value {
    serde_json::json!({
        "status": status,
        "headers": [["www-authenticate", challenge]],
        "body": "{}"
    })
}

/// A public capture as a probe's answer, seen from `vantage`.
fn capture(file: &str, intent: &str, vantage: mcp_triage::exchange::Vantage) -> Exchange {
    let path = captures()
        .into_iter()
        .find(|p| p.ends_with(file))
        .expect("a public capture");
    let mut ex = Exchange::from_json(&std::fs::read(path).expect("a capture")).expect("a capture");
    ex.intent = Some(intent.into());
    ex.vantage = vantage;
    ex
}

fn scenarios() -> Vec<Scenario> {
    use mcp_triage::SkipReason;
    use mcp_triage::cause::RunEnd;
    use mcp_triage::exchange::Vantage;
    let one = |name, ex: Exchange| Scenario {
        name,
        report: RunReport::from_exchanges(ENDPOINT, vec![ex]),
        person_skipped: false,
    };
    let failed = |kind: &str, detail: &str| connect("direct", false, None, Some((kind, detail)));
    let skipped = |name, vantage, why: SkipReason, person_skipped| {
        let ex = capture(
            "ts-1.29.0-stateless/A_unknown_tool.pv2025-11-25.json",
            "A",
            vantage,
        );
        let mut report = RunReport::from_exchanges(ENDPOINT, vec![ex]);
        for p in &mut report.probes[1..] {
            p.skipped = Some(why);
        }
        if why == SkipReason::RunEnded {
            report.ended = Some(RunEnd::DeadlinePassed);
        }
        Scenario {
            name,
            report,
            person_skipped,
        }
    };
    vec![
        one(
            "refused",
            failed(
                "network",
                "the connection was refused: io: Connection refused (os error 111)",
            ),
        ),
        one(
            "unresolved",
            failed(
                "network",
                "the host name did not resolve: io: failed to lookup address information",
            ),
        ),
        one(
            "tls",
            failed("network", "TLS failed: invalid peer certificate"),
        ),
        one(
            "reset",
            failed(
                "network",
                "the connection was reset: io: Connection reset by peer",
            ),
        ),
        one("timeout", failed("timeout", "no response headers in time")),
        one(
            "401 without a token",
            connect(
                "direct",
                false,
                Some(refusal(401, r#"Bearer error="invalid_token""#)),
                None,
            ),
        ),
        one(
            "401 with a token",
            connect(
                "direct",
                true,
                Some(refusal(401, r#"Bearer error="invalid_token""#)),
                None,
            ),
        ),
        one(
            "403 for a scope",
            connect(
                "direct",
                true,
                Some(refusal(
                    403,
                    r#"Bearer error="insufficient_scope", scope="files:read""#,
                )),
                None,
            ),
        ),
        one(
            "a code in a tool error's text",
            capture(
                "ts-1.29.0-stateless/C2_lead_get_mcperr.pv2025-11-25.json",
                "C",
                Vantage::Direct,
            ),
        ),
        skipped(
            "an unannotated server",
            Vantage::Direct,
            SkipReason::NoSafeToolWithRequiredArgument,
            false,
        ),
        skipped(
            "a probe a person skipped on the page",
            Vantage::Browser,
            SkipReason::SkippedByUser,
            true,
        ),
        skipped(
            "a probe a plan file skipped",
            Vantage::Direct,
            SkipReason::SkippedByUser,
            false,
        ),
        skipped(
            "a run ended early",
            Vantage::Direct,
            SkipReason::RunEnded,
            false,
        ),
    ]
}

/// Every surface of a scenario as text: the page's view, the share view, the terminal report,
/// the JSON report, the Markdown and JUnit.
fn every_surface(
    s: &Scenario,
    ep: &Endpoint,
) -> (ReportView, ReportView, Vec<(&'static str, String)>) {
    let out = surfaces(&s.report, ep);
    let page = ReportView::of_report(&s.report, &[]);
    let json = |v: &ReportView| serde_json::to_string(v).unwrap_or_default();
    let texts = vec![
        ("page", json(&page)),
        ("share view", json(&out.share)),
        ("terminal", out.terminal),
        (
            "json",
            export::report_json(&s.report, ep, true, &Secrets::default()),
        ),
        ("markdown", out.markdown),
        ("junit", out.junit),
    ];
    (page, out.share, texts)
}

/// The rules a scenario breaks, on which surface.
fn broken_rules(s: &Scenario, ep: &Endpoint) -> Vec<String> {
    let (page, shared, texts) = every_surface(s, ep);
    let mut broken = Vec::new();
    let direct = s.report.vantage() == mcp_triage::exchange::Vantage::Direct;
    for (surface, text) in &texts {
        let lower = text.to_lowercase();
        if direct
            && ["browser", "cors doctor", "cors settings"]
                .iter()
                .any(|w| lower.contains(w))
        {
            broken.push(format!("browser words in {surface}"));
        }
        // A person's recorded choice: a skip on the page (a plan file's is "the plan file skips").
        let by_a_person = s.person_skipped && !direct;
        if lower.contains("skipped by you") && !by_a_person {
            broken.push(format!(
                "\"skipped by you\" without a person's choice in {surface}"
            ));
        }
    }
    for (name, view) in [("page", &page), ("share view", &shared)] {
        for card in view.cards() {
            if let Answer::Advice(a) = &card.answer
                && let Some(mcp_triage::view::ServerAdviceView::Changes(lines)) = &a.server
                && lines.iter().any(|l| l.starts_with("Nothing to change"))
            {
                broken.push(format!(
                    "nothing to change and a change on {name}'s {}",
                    card.title
                ));
            }
        }
    }
    for card in page.cards() {
        let said = |c: &CardView| match &c.answer {
            Answer::Advice(a) => Some((a.agent.clone(), a.party.clone(), a.server.clone())),
            _ => None,
        };
        let other = shared.cards().find(|c| c.id == card.id);
        if other.map(said) != Some(said(card)) {
            broken.push(format!(
                "the share view does not say what the page says of {}",
                card.title
            ));
        }
    }
    broken
}

#[test]
fn every_failure_scenario_keeps_the_sentence_rules_on_every_surface() {
    let ep = parse_endpoint(ENDPOINT).expect("the test's endpoint");
    let mut failures = Vec::new();
    for s in scenarios() {
        for rule in broken_rules(&s, &ep) {
            failures.push(format!("{}: {rule}", s.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn each_sentence_rule_fires_on_its_seeded_bug() {
    use mcp_triage::testing::{
        with_browser_words_anywhere, with_by_you_anywhere, with_nothing_among_changes,
    };
    let ep = parse_endpoint(ENDPOINT).expect("the test's endpoint");
    let fires = |name: &str, rule: &str| {
        let s = scenarios()
            .into_iter()
            .find(|s| s.name == name)
            .expect("a scenario");
        broken_rules(&s, &ep).iter().any(|b| b.contains(rule))
    };
    assert!(!fires("refused", "browser words"), "the control's base");
    assert!(with_browser_words_anywhere(|| fires(
        "refused",
        "browser words"
    )));
    assert!(!fires("an unannotated server", "skipped by you"));
    assert!(with_by_you_anywhere(|| fires(
        "an unannotated server",
        "skipped by you"
    )));
    let both = "nothing to change and a change";
    assert!(!fires("a code in a tool error's text", both));
    assert!(with_nothing_among_changes(|| fires(
        "a code in a tool error's text",
        both
    )));
    // The share view's rule: a view that drops the server author's advice is caught.
    let s = scenarios()
        .into_iter()
        .find(|s| s.name == "a code in a tool error's text")
        .expect("a scenario");
    let (page, mut shared, _) = every_surface(&s, &ep);
    for card in shared.probes.iter_mut() {
        if let Answer::Advice(a) = &mut card.answer {
            a.server = None;
        }
    }
    let differs = page.cards().any(|c| {
        shared
            .cards()
            .find(|o| o.title == c.title)
            .is_some_and(|o| o.answer != c.answer)
    });
    assert!(differs, "the dropped advice shows");
}
