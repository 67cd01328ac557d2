//! Two runs compared: the ordering on real replayed runs (the seed's TypeScript SDK 1.29.0 against
//! the Python SDK's low-level server, which answers with JSON-RPC errors), both directions; every
//! committed old share link against a new run; baselines written and read back, and refused in
//! words when they are not one.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::captures;
use std::path::Path;

use mcp_triage::compare::{self, Change, Field};
use mcp_triage::endpoint::parse_endpoint;
use mcp_triage::problem::ProblemId;
use mcp_triage::redact::Secrets;
use mcp_triage::replay;
use mcp_triage::share::{self, Share};

/// A run of today's code over one session of public captures, as its share payload.
fn run_of(stack: &str, pv: &str) -> Share {
    let r = replay::replay(&captures(stack, &format!(".pv{pv}.json")), None).unwrap();
    let ep = parse_endpoint(&r.report.endpoint).unwrap();
    share::build(
        &r.report,
        &ep,
        share::BuildOptions::default(),
        &Secrets::default(),
        "2026-12-06T00:00:00Z",
        "test",
    )
    .payload
}

fn row<'a>(c: &'a compare::Comparison, step: &str) -> &'a compare::RowComparison {
    c.rows.iter().find(|r| r.step == step).unwrap()
}

fn change(r: &compare::RowComparison, field: Field) -> Option<Change> {
    r.changes
        .iter()
        .find(|c| c.field == field)
        .map(|c| c.change)
}

#[test]
fn a_run_against_itself_changes_nothing() {
    let seed = run_of("ts-1.29.0-stateless", "2025-06-18");
    let c = compare::compare(&seed, &seed);
    assert_eq!((c.better, c.worse), (0, 0));
    assert!(!c.regressed() && c.regressions().is_empty());
    assert!(c.context.is_empty(), "{:?}", c.context);
    assert!(
        c.rows
            .iter()
            .all(|r| r.changes.is_empty() && r.overall == Change::Neutral)
    );
    assert!(
        c.summary.starts_with("No probe got better or worse."),
        "{}",
        c.summary
    );
}

/// The seed's run with B answered as a JSON-RPC -32602 error (what `demo/server.mjs
/// --invalid-params-error` answers; the CLI's tests run that server live): A and C stay isError.
fn with_b_as_invalid_params(seed: &Share) -> Share {
    let mut run = seed.clone();
    for r in &mut run.rows {
        if r.step == "B" {
            r.channel = "jsonrpc_error".into();
            r.code = Some(-32602);
        }
    }
    run.score = Some(2);
    run.pairs = Some(3);
    run
}

#[test]
fn errors_told_apart_by_structure_are_better_and_the_reverse_is_worse_with_its_regressions_named() {
    // The seed: A, B and C all isError prose (0 of 3).
    let seed = run_of("ts-1.29.0-stateless", "2025-06-18");
    let fixed = with_b_as_invalid_params(&seed);
    let better = compare::compare(&seed, &fixed);
    assert_eq!(better.score_change, Change::Better, "{}", better.text());
    assert!(!better.regressed(), "{:?}", better.regressions());
    let b = row(&better, "B");
    assert_eq!(change(b, Field::Channel), Some(Change::Neutral));
    assert_eq!(change(b, Field::ToldApart), Some(Change::Better));
    assert_eq!(b.overall, Change::Better);
    assert_eq!(
        better.summary,
        "A is now told apart by structure; B now arrives as JSON-RPC error -32602: told apart by structure; C is now told apart by structure. Score 0 of 3 → 2 of 3."
    );

    let worse = compare::compare(&fixed, &seed);
    assert_eq!(worse.score_change, Change::Worse);
    assert_eq!(row(&worse, "B").overall, Change::Worse);
    assert!(worse.regressed());
    assert!(worse.regressions().iter().any(|r| r.starts_with("score:")));
    assert!(
        worse
            .regressions()
            .iter()
            .any(|r| r.starts_with("B: told_apart 2 of 2 → 0 of 2")),
        "{:?}",
        worse.regressions()
    );
    // JUnit: a failing case names what changed.
    let cases = worse.junit_cases();
    let b_case = cases.iter().find(|c| c.name.starts_with("B ·")).unwrap();
    assert!(
        b_case
            .failure
            .as_deref()
            .unwrap()
            .contains("told_apart 2 of 2 → 0 of 2")
    );
    // Every rendering says the same comparison.
    let md = worse.markdown();
    assert!(md.contains("**WORSE**") && md.contains("| Probe | Before | After | Changes |"));
    let json: serde_json::Value = serde_json::from_str(&worse.json()).unwrap();
    assert_eq!(json["format"], compare::DIFF_FORMAT);
    assert_eq!(json["worse"], worse.worse);

    // A real second server (the Python SDK's low-level server answers A, B and C with JSON-RPC
    // code 0): different servers are said first, and B's cause lost is worse.
    let lowlevel = run_of("py-mcp-2.3.0-lowlevel-stateful", "2025-06-18");
    let c = compare::compare(&seed, &lowlevel);
    assert!(
        c.context
            .iter()
            .any(|l| l.starts_with("Different servers:"))
    );
    assert_eq!(change(row(&c, "B"), Field::Cause), Some(Change::Worse));
}

#[test]
fn the_ordering_judges_each_field_once() {
    let seed = run_of("ts-1.29.0-stateless", "2025-06-18");
    // A spec deviation fixed is better; the cause the probe provokes reached is better.
    let mut fixed = seed.clone();
    let mut broken = seed.clone();
    for r in &mut fixed.rows {
        if let Some(spec) = &mut r.spec {
            spec.0 = "conforms".into();
        }
    }
    for r in &mut broken.rows {
        if r.step == "B" {
            r.cause = "tool_execution".into();
            r.decided_by = "intent".into();
        }
    }
    let c = compare::compare(&broken, &fixed);
    let b = row(&c, "B");
    assert_eq!(change(b, Field::Cause), Some(Change::Better));
    assert_eq!(change(b, Field::DecidedBy), Some(Change::Better));
    let a = row(&c, "A");
    assert_eq!(change(a, Field::Spec), Some(Change::Better), "{:?}", a);
    // A probe that could not run is neither better nor worse.
    let mut stopped = seed.clone();
    for r in &mut stopped.rows {
        if r.step == "C" {
            r.stopped = Some("deadline".into());
            r.action = share::NO_ACTION.into();
        }
    }
    let c = compare::compare(&seed, &stopped);
    let cr = row(&c, "C");
    assert_eq!(cr.overall, Change::Neutral);
    assert_eq!(change(cr, Field::Ran), Some(Change::Neutral));
    // Another endpoint, protocol version and plan: compared, with each said first.
    let mut other = seed.clone();
    other.endpoint = "https://elsewhere.example".into();
    other.version = Some("2025-11-25".into());
    other.rows.retain(|r| r.step != "get");
    let c = compare::compare(&seed, &other);
    assert!(
        c.context
            .iter()
            .any(|l| l.starts_with("Different endpoints:"))
    );
    assert!(
        c.context
            .iter()
            .any(|l| l.starts_with("Different protocol versions:"))
    );
    assert!(
        c.context
            .iter()
            .any(|l| l.starts_with("Different plans: only before: get")),
        "{:?}",
        c.context
    );
    // docs/baselines.md prints the ordering: one line a field, every field.
    assert_eq!(compare::ORDERING.len(), 8);
}

#[test]
fn every_committed_old_share_link_compares_against_a_new_run() {
    let now = run_of("ts-1.29.0-stateless", "2025-11-25");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/share-links");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "link") {
            continue;
        }
        let link = std::fs::read_to_string(&path).unwrap();
        let old = compare::read_run(link.trim()).unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
        for (before, after) in [(&old, &now), (&now, &old)] {
            let c = compare::compare(before, after);
            assert!(!c.summary.is_empty() && !c.rows.is_empty(), "{path:?}");
            let _ = (c.text(), c.markdown(), c.json(), c.junit_cases());
        }
        n += 1;
    }
    assert!(n >= 30, "only {n} committed links");
}

#[test]
fn a_baseline_reads_back_as_the_run_it_was_written_from_and_anything_else_is_refused_in_words() {
    let run = run_of("ts-1.29.0-stateless", "2025-06-18");
    let text = compare::baseline_json(&run);
    assert_eq!(compare::read_run(&text).unwrap(), run);
    // A JSON report: its exchanges replayed make the same run (any report, whenever written).
    let replayed =
        replay::replay(&captures("ts-1.29.0-stateless", ".pv2025-06-18.json"), None).unwrap();
    let ep = parse_endpoint(&replayed.report.endpoint).unwrap();
    let report = mcp_triage::export::report_json(&replayed.report, &ep, false, &Secrets::default());
    let from_report = compare::read_run(&report).unwrap();
    let same = compare::compare(&run, &from_report);
    assert!(same.context.is_empty(), "{:?}", same.context);
    assert_eq!((same.better, same.worse), (0, 0), "{}", same.text());
    assert!(compare::read_run("{\"format\": \"mcp-triage-report/1\"}").is_err());
    // Holds no server content: a successful result is its shape.
    let d = run.rows.iter().find(|r| r.step == "D").unwrap();
    assert!(d.excerpt.is_none() && d.shape.is_some());
    for (bad, id, words) in [
        (
            "{\"format\": \"something/1\"}",
            ProblemId::Run(mcp_triage::problem::RunProblemId::Unreadable),
            "expected mcp-triage-baseline/1",
        ),
        (
            "{\"format\": \"mcp-triage-baseline/1\", \"run\": {}}",
            ProblemId::Run(mcp_triage::problem::RunProblemId::Unreadable),
            "share_version",
        ),
        (
            "{not json",
            ProblemId::Run(mcp_triage::problem::RunProblemId::Unreadable),
            "not JSON",
        ),
        (
            "https://x.example/#r=v99.AAAA",
            ProblemId::Link(mcp_triage::problem::LinkProblemId::UnknownVersion),
            "",
        ),
    ] {
        let p = compare::read_run(bad).unwrap_err();
        assert_eq!(p.id, id, "{bad}");
        assert!(p.message.contains(words), "{bad}: {}", p.message);
    }
    // A version from the future, and a payload that breaks its version's schema.
    let value = || serde_json::from_str::<serde_json::Value>(&text).unwrap();
    let mut v = value();
    v["share_version"] = 99.into();
    assert_eq!(
        compare::read_run(&v.to_string()).unwrap_err().id,
        ProblemId::Link(mcp_triage::problem::LinkProblemId::UnknownVersion)
    );
    let mut v = value();
    v["run"]["rows"][0]["cause"] = "no_such_cause".into();
    assert_eq!(
        compare::read_run(&v.to_string()).unwrap_err().id,
        ProblemId::Link(mcp_triage::problem::LinkProblemId::BadPayload)
    );
    // A page that opens links reads links and baselines, and sends a report to the tool.
    assert_eq!(compare::read_shared_run(&text).unwrap(), run);
    let p = compare::read_shared_run(&report).unwrap_err();
    assert!(p.message.contains("open it in the tool"), "{}", p.message);
}

#[test]
fn a_report_of_either_version_opens_and_the_new_one_holds_each_body_once() {
    let old = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/reports/demo-1.29.0.report-1.json"),
    )
    .unwrap();
    let from_old = compare::read_run(&old).unwrap();
    let recording = replay::read_captures(&old).unwrap();
    let replayed = replay::replay_recording(&recording, None, Secrets::default()).unwrap();
    let ep = parse_endpoint(replay::openable_endpoint(&replayed.report.endpoint)).unwrap();
    let new = mcp_triage::export::report_json(&replayed.report, &ep, false, &Secrets::default());
    let (old_v, new_v): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&old).unwrap(),
        serde_json::from_str(&new).unwrap(),
    );
    assert_eq!(old_v["format"], "mcp-triage-report/1");
    assert_eq!(new_v["format"], mcp_triage::export::REPORT_FORMAT);
    let messages = |v: &serde_json::Value| {
        v["records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["assessment"].get("message").is_some())
            .count()
    };
    // The control: /1 kept each answer's parsed message beside its body.
    assert!(messages(&old_v) > 0);
    assert_eq!(messages(&new_v), 0);
    assert!(new.len() < old.len(), "{} vs {}", new.len(), old.len());
    let same = compare::compare(&from_old, &compare::read_run(&new).unwrap());
    assert!(same.context.is_empty(), "{:?}", same.context);
    assert_eq!((same.better, same.worse), (0, 0), "{}", same.text());
}

#[test]
fn the_docs_print_the_ordering_the_code_judges_by() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/baselines.md"),
    )
    .unwrap();
    for (field, rule) in compare::ORDERING {
        let line = format!("- `{}`: {rule}", field.as_str());
        assert!(doc.contains(&line), "docs/baselines.md lacks: {line}");
    }
}

#[test]
fn rows_come_in_card_order_whatever_order_each_run_answered_in() {
    let seed = run_of("ts-1.29.0-stateless", "2025-11-25");
    let mut shuffled = seed.clone();
    shuffled.rows.reverse();
    let steps = |c: &compare::Comparison| c.rows.iter().map(|r| r.step.clone()).collect::<Vec<_>>();
    let one = steps(&compare::compare(&seed, &shuffled));
    let other = steps(&compare::compare(&shuffled, &seed));
    assert_eq!(one, other, "the same rows, the same order");
    let probes: Vec<&str> = one
        .iter()
        .map(String::as_str)
        .filter(|s| s.len() == 1)
        .collect();
    assert_eq!(probes, ["A", "B", "C", "D"], "{one:?}");
}
