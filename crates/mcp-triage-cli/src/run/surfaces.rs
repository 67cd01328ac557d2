//! The surface test: every public capture, as a probe's answer, through every text surface this
//! crate and the core make — the terminal report, the Markdown, JUnit and a share link opened into
//! the share view's cards — and each must show the same facts (channel, cause, decided-by, the
//! agent's action, the spec verdict) by their labels. A surface that drops one fails; the control
//! checks that a surface with one fact removed is caught.

use std::path::{Path, PathBuf};

use mcp_triage::endpoint::{Endpoint, parse_endpoint};
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::redact::Secrets;
use mcp_triage::view::{Answer, CardView, ReportView};
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
    let action = match &card.answer {
        Answer::Advice(a) => Some(a.action.label.clone()),
        _ => None,
    };
    if action != f.action {
        missing.push(format!("agent: {:?}, shown {action:?}", f.action));
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
}
