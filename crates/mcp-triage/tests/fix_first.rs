//! The fix first: the sentence every report opens with, pinned for every public capture's run (one
//! run a capture folder and protocol version, probes A-D), the ordering held to docs/checks.md, and the
//! text report and the Markdown opening with it.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;

use expect_test::expect_file;
use mcp_triage::endpoint::parse_endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::export;
use mcp_triage::redact::Secrets;
use mcp_triage::testing::intent_of_capture;
use mcp_triage::view::{FIX_ORDERING, ReportView};

const ENDPOINT: &str = "http://127.0.0.1:9/mcp";

/// Each capture folder's runs: per protocol version, its A-D captures (the first of each probe).
fn runs() -> BTreeMap<String, RunReport> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges");
    let mut by_run: BTreeMap<String, BTreeMap<String, Exchange>> = BTreeMap::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root).unwrap().flatten().collect();
    dirs.sort_by_key(|d| d.file_name());
    for dir in dirs {
        let folder = dir.file_name().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        files.sort_by_key(|f| f.file_name());
        for f in files {
            let name = f.file_name().to_string_lossy().into_owned();
            let Some(version) = name
                .split(".pv")
                .nth(1)
                .map(|v| v.trim_end_matches(".json"))
            else {
                continue;
            };
            let Some(intent) = intent_of_capture(&name) else {
                continue;
            };
            if !matches!(intent, "A" | "B" | "C" | "D") {
                continue;
            }
            let run = by_run.entry(format!("{folder} {version}")).or_default();
            if run.contains_key(intent) {
                continue;
            }
            let mut ex = Exchange::from_json(&std::fs::read(f.path()).unwrap()).unwrap();
            ex.intent = Some(intent.into());
            ex.negotiated_version = Some(version.into());
            run.insert(intent.to_string(), ex);
        }
    }
    by_run
        .into_iter()
        .map(|(k, exs)| {
            (
                k,
                RunReport::from_exchanges(ENDPOINT, exs.into_values().collect()),
            )
        })
        .collect()
}

#[test]
fn every_public_capture_runs_fix_first_sentence_is_pinned() {
    let mut out = String::new();
    for (name, report) in runs() {
        let summary = ReportView::of_report(&report, &[]).summary;
        out.push_str(&format!("== {name}\n"));
        match summary.fix_first {
            Some(fix) => {
                out.push_str(&format!("{}\n", fix.sentence));
                for then in fix.then {
                    out.push_str(&format!("  then {then}\n"));
                }
            }
            None => out.push_str("(no probe answered)\n"),
        }
    }
    expect_file!["fix_first.snapshot.txt"].assert_eq(&out);
}

#[test]
fn the_docs_print_the_ordering_the_fix_first_is_chosen_by() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/checks.md"))
            .unwrap();
    for (rank, rule) in FIX_ORDERING {
        let line = format!("- `{rank}`: {rule}");
        assert!(doc.contains(&line), "docs/checks.md lacks: {line}");
    }
}

#[test]
fn the_text_report_and_the_markdown_open_with_the_fix_first() {
    let report = &runs()["ts-1.29.0-stateless 2025-11-25"];
    let fix = ReportView::of_report(report, &[])
        .summary
        .fix_first
        .unwrap();
    // The seed: the one real fix is probe A's (an unknown tool as a JSON-RPC error).
    assert!(
        fix.sentence.starts_with("Fix first (A · Unknown tool, by the server author): Answer an unknown tool with a JSON-RPC error (-32602)"),
        "{}",
        fix.sentence
    );
    let ep = parse_endpoint(ENDPOINT).unwrap();
    let text = export::text(report, &ep, true);
    assert_eq!(text.lines().next(), Some(fix.sentence.as_str()));
    let md = export::markdown(report, &ep, true, &Secrets::default());
    let first = md.lines().next().unwrap().replace('\\', "");
    assert_eq!(first, format!("**{}**", fix.sentence));
}

#[test]
fn a_link_opens_to_the_fix_first_its_run_showed() {
    let ep = parse_endpoint(ENDPOINT).unwrap();
    let mut compared = 0;
    for (name, report) in runs() {
        let live = ReportView::of_report(&report, &[]).summary.fix_first;
        let link = mcp_triage::share::make_link(
            &report,
            &ep,
            Default::default(),
            &Secrets::default(),
            "d",
            "t",
            "https://triage.example/",
        )
        .link
        .unwrap();
        let opened = mcp_triage::share::decode(link.url.split('#').nth(1).unwrap()).unwrap();
        let shared = ReportView::of_share(&opened).summary.fix_first;
        assert_eq!(shared, live, "{name}: the link's fix first");
        compared += usize::from(live.is_some());
    }
    assert!(compared >= 30, "only {compared} runs had a fix first");
}

#[test]
fn a_link_older_than_v14_shows_no_fix_first_it_could_not_know() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/share-links");
    let mut seen = 0;
    for f in std::fs::read_dir(dir).unwrap().flatten() {
        let name = f.file_name().to_string_lossy().into_owned();
        let Some(v) = name
            .strip_prefix('v')
            .and_then(|n| n.split('-').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        if !name.ends_with(".link") {
            continue;
        }
        let text = std::fs::read_to_string(f.path()).unwrap();
        let opened = mcp_triage::share::decode(text.trim()).unwrap();
        let fix = ReportView::of_share(&opened).summary.fix_first;
        assert_eq!(fix.is_some(), v >= 14, "{name}: {fix:?}");
        seen += 1;
    }
    assert!(seen >= 14, "{seen} fixtures");
}

#[test]
fn the_grid_has_a_row_per_answered_card_and_each_card_one_line() {
    let report = &runs()["ts-1.29.0-stateless 2025-11-25"];
    let view = ReportView::of_report(report, &[]);
    let grid = view.grid();
    let names: Vec<&str> = grid.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
    assert_eq!(grid[0].card, "card-A");
    assert_eq!(
        grid[0].spec.as_ref().map(|b| b.id.as_str()),
        Some("deviates")
    );
    assert_eq!(view.probes[0].line(), "unknown tool — pick another tool");
    // The terminal's compact table is drawn from the same rows.
    let text = export::text(report, &parse_endpoint(ENDPOINT).unwrap(), true);
    let row_a = text.lines().find(|l| l.starts_with("A ")).unwrap();
    assert!(
        row_a.contains("unknown tool") && row_a.contains("deviates"),
        "{row_a}"
    );
}

#[test]
fn the_text_report_points_to_no_quote_it_does_not_show() {
    let ep = parse_endpoint(ENDPOINT).unwrap();
    let mut pointed_on_the_page = 0;
    for (name, report) in runs() {
        // The control: the page, which shows the quotes, points to the one above.
        let view = ReportView::of_report(&report, &[]);
        pointed_on_the_page += view
            .cards()
            .flat_map(|c| &c.evidence)
            .filter(|e| e.fact_beside_quotes().contains("quoted above"))
            .count();
        // The terminal shows no quote, so no line of it may point to one.
        let text = export::text(&report, &ep, true);
        assert!(!text.contains("quoted above"), "{name}: {text}");
        // Nor does a list of changes offer a card's alternative on its own.
        let fix = view.summary.fix_first.unwrap_or_else(|| panic!("{name}"));
        assert!(
            fix.then.iter().all(|t| !t.contains(": Or ")),
            "{name}: {:?}",
            fix.then
        );
    }
    assert!(pointed_on_the_page > 0, "no run quotes a long text twice");
}
