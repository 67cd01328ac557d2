//! Replay drives the engine with recorded answers: every public capture set (one stack's captures at
//! one protocol version: one run) replays, each probe is answered by the capture that plays its part,
//! a report replays to itself, and captures of different runs are refused.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::captures;
use mcp_triage::Check;
use std::path::{Path, PathBuf};

use mcp_triage::Exchange;
use mcp_triage::cause::StopReason;
use mcp_triage::engine::{ProbeName, Step};
use mcp_triage::replay::{self, ReplayProblem};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges")
}

/// Every capture of a stack.
fn stack(name: &str) -> Vec<Exchange> {
    captures(name, "")
}

/// One stack's captures made at protocol version `pv` (one session of a stateful server).
fn set(name: &str, pv: &str) -> Vec<Exchange> {
    captures(name, &format!(".pv{pv}.json"))
}

/// The protocol versions a stateful stack captured a whole session at.
const RUN_VERSIONS: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];

fn stacks() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(shared())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The case a replayed step was answered by (public captures carry their case as a label).
fn case_of(r: &replay::Replayed, step: Step) -> Option<String> {
    r.report
        .records
        .iter()
        .find(|rec| rec.step == step)
        .and_then(|rec| rec.exchange.case.clone())
}

#[test]
fn every_public_capture_set_replays_with_each_probe_answered_by_the_capture_that_plays_its_part() {
    let mut replayed = 0;
    // A stack's captures are one set, unless they hold several runs (a stateful server's session per
    // protocol version): then each version's captures are one.
    let sets = stacks()
        .into_iter()
        .filter(|n| !n.ends_with("-auth"))
        .flat_map(|name| match replay::replay(&stack(&name), None) {
            Err(ReplayProblem::MixedRuns(_)) => RUN_VERSIONS
                .iter()
                .map(|pv| (format!("{name} {pv}"), set(&name, pv)))
                .collect::<Vec<_>>(),
            _ => vec![(name.clone(), stack(&name))],
        });
    for (name, captures) in sets {
        let r = replay::replay(&captures, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !r.unanswered.iter().any(|s| matches!(s, Step::Probe(_))),
            "{name}: a probe had no recorded answer: {:?}",
            r.unanswered
        );
        for p in ProbeName::ALL {
            let case = case_of(&r, Step::Probe(*p)).unwrap_or_default();
            // `A_unknown_tool`, `XA_unknown_tool` (2026-07-28)…: the capture made for that part.
            let part = case.trim_start_matches('X');
            assert!(
                part.starts_with(&format!("{}_", p.as_str())),
                "{name}: probe {p:?} was answered by {case:?}"
            );
        }
        // The connect step took an ordinary capture, not one of the deliberate mistakes.
        let connect = case_of(&r, Step::Initialize).or_else(|| case_of(&r, Step::Discover));
        assert!(
            matches!(connect.as_deref(), Some("init" | "X0_server_discover")),
            "{name}: connected with {connect:?}"
        );
        assert!(
            r.report.notes.iter().any(|n| n.contains("hold no plan")),
            "{name}: exchanges alone record no plan, and the report says so"
        );
        replayed += 1;
    }
    assert!(replayed >= 22, "only {replayed} capture sets replayed");
}

#[test]
fn captures_of_different_runs_are_refused_naming_each_and_one_servers_captures_pass_with_a_caveat()
{
    // A stateful stack captured at three protocol versions holds a session per version: several
    // runs.
    for name in [
        "ts-1.29.0-stateful",
        "ts-1.32.2-stateful",
        "py-mcp-2.3.0-mcpserver-stateful",
    ] {
        match replay::replay(&stack(name), None) {
            Err(ReplayProblem::MixedRuns(mixed)) => {
                assert!(mixed.groups.len() >= 3, "{name}: {mixed}");
                let text = ReplayProblem::MixedRuns(mixed).to_string();
                assert!(text.contains("session "), "{name}: {text}");
                assert!(
                    text.contains("exchange "),
                    "{name}: captures are named: {text}"
                );
            }
            Err(other) => panic!("{name}: {other}"),
            Ok(r) => panic!(
                "{name}: mixed sessions replayed as one run: {}",
                r.summary()
            ),
        }
        // The control: one of those sessions alone replays, as one session.
        let one = replay::replay(&set(name, "2025-11-25"), None).unwrap();
        assert_eq!(one.one_run, replay::OneRun::ServerAndSession, "{name}");
    }
    // A stateful stack captured at one version is one session: it replays whole.
    let one = replay::replay(&stack("py-mcp-2.3.0-lowlevel-stateful"), None).unwrap();
    assert_eq!(one.one_run, replay::OneRun::ServerAndSession);
    // A stateless stack gives no session: one server is all that can be checked, and it says so.
    let all = replay::replay(&stack("ts-1.29.0-stateless"), None).unwrap();
    assert_eq!(all.one_run, replay::OneRun::ServerOnly);
    assert!(
        all.summary().contains("cannot be told apart"),
        "{}",
        all.summary()
    );
    // Two servers are two runs.
    let two = [
        set("ts-1.29.0-stateless", "2025-11-25"),
        set("ts-1.32.2-stateless", "2025-11-25"),
    ]
    .concat();
    assert!(matches!(
        replay::replay(&two, None),
        Err(ReplayProblem::MixedRuns(_))
    ));
}

#[test]
fn the_seeds_captures_replay_to_the_seeds_finding_and_the_python_low_level_server_to_its_code() {
    let seed = replay::replay(&set("ts-1.29.0-stateless", "2025-11-25"), None).unwrap();
    assert_eq!(seed.report.summary.score, Some(0));
    assert!(
        seed.report.headline.contains("all arrive as isError: true"),
        "{}",
        seed.report.headline
    );
    let low = replay::replay(&set("py-mcp-2.3.0-lowlevel-stateful", "2025-06-18"), None).unwrap();
    assert!(
        low.report.headline.contains("JSON-RPC error 0"),
        "{}",
        low.report.headline
    );
}

#[test]
fn a_request_the_recording_holds_no_answer_to_is_reported_as_not_recorded_without_advice() {
    // The auth captures record no tools/list: probe A cannot be told apart from any other call.
    let r = replay::replay(&stack("ts-1.29.0-auth"), None).unwrap();
    assert!(
        r.unanswered.contains(&Step::Probe(ProbeName::A)),
        "{:?}",
        r.unanswered
    );
    let a = r
        .report
        .records
        .iter()
        .find(|rec| rec.step == Step::Probe(ProbeName::A))
        .unwrap();
    assert_eq!(a.exchange.stop_reason(), Some(StopReason::NotRecorded));
    assert!(
        r.report.headline.contains("the recording holds no answer"),
        "{}",
        r.report.headline
    );
    // What it did record still counts: the token check answered 401.
    assert_eq!(
        case_of(&r, Step::Check(Check::NoToken)).as_deref(),
        Some("AUTH1_no_token")
    );
}

#[test]
fn a_replayed_report_replays_to_the_same_json() {
    for (name, captures) in [
        (
            "ts-1.29.0-stateful",
            set("ts-1.29.0-stateful", "2025-11-25"),
        ),
        (
            "py-mcp-2.3.0-mcpserver-stateless",
            stack("py-mcp-2.3.0-mcpserver-stateless"),
        ),
        ("ts-1.32.2-auth", stack("ts-1.32.2-auth")),
    ] {
        let mut first = replay::replay(&captures, None).unwrap();
        // Exchanges alone record no plan, and the first report says so; the report records its
        // plan (a Quick check), so its replay has no such note. Otherwise it is the same.
        let before = first.report.notes.len();
        first.report.notes.retain(|n| !n.contains("hold no plan"));
        assert_eq!(first.report.notes.len(), before - 1, "{name}");
        let ep = mcp_triage::endpoint::parse_endpoint(&first.report.endpoint).unwrap();
        let secrets = mcp_triage::redact::Secrets::default();
        let json = mcp_triage::export::report_json(&first.report, &ep, true, &secrets);
        let read = replay::read_captures(&json).unwrap();
        assert_eq!(
            read.plan.as_ref().map(|p| p.mode),
            Some(mcp_triage::engine::Mode::Quick),
            "{name}"
        );
        let again = replay::replay_recording(&read, None, secrets.clone()).unwrap();
        assert_eq!(again.plan, Some(mcp_triage::engine::Mode::Quick), "{name}");
        let second = mcp_triage::export::report_json(&again.report, &ep, true, &secrets);
        let first_difference = json
            .lines()
            .zip(second.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b);
        assert_eq!(first_difference, None, "{name}");
        assert_eq!(second, json, "{name}");
        let unused: Vec<_> = again
            .unused
            .iter()
            .map(|i| {
                (
                    read.exchanges[*i].case.clone(),
                    read.exchanges[*i].request.method.clone(),
                    read.exchanges[*i].intent.clone(),
                )
            })
            .collect();
        assert!(
            again.unused.is_empty(),
            "{name}: every record answers its own step: {unused:?} {:?}",
            again.unanswered
        );
    }
}

#[test]
fn what_cannot_open_a_run_is_refused_with_a_reason() {
    assert_eq!(replay::replay(&[], None).unwrap_err(), ReplayProblem::Empty);
    let probes_only: Vec<Exchange> = set("ts-1.29.0-stateless", "2025-11-25")
        .into_iter()
        .filter(|e| {
            e.case
                .as_deref()
                .is_some_and(|c| c.starts_with("A_") || c.starts_with("C_"))
        })
        .collect();
    assert!(!probes_only.is_empty());
    let refused = replay::replay(&probes_only, None).unwrap_err();
    assert_eq!(refused, ReplayProblem::NoConnect);
    assert!(refused.to_string().contains("classify"));
    for bad in [
        "",
        "{",
        "[1]",
        "{\"format\":\"mcp-triage-report/1\",\"records\":[{\"exchange\":7}]}",
    ] {
        assert!(replay::read_captures(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_single_pasted_exchange_is_classified_even_an_initialize_and_a_whole_recording_is_replayed() {
    let caps = set("ts-1.29.0-stateless", "2025-11-25");
    let init = caps
        .iter()
        .find(|c| c.case.as_deref() == Some("init"))
        .unwrap();
    let one = replay::from_paste(&init.to_json_pretty(), "").unwrap();
    assert!(one.source.contains("classified"), "{}", one.source);
    assert_eq!(one.report.records.len(), 1);
    let all = serde_json::to_string(&caps).unwrap();
    let whole = replay::from_paste(&all, "").unwrap();
    assert!(whole.source.contains("replayed"), "{}", whole.source);
    assert_eq!(whole.report.summary.score, Some(0));
}
