//! `mcp-triage` in CI: the JUnit file, Markdown, share links and replay, against real servers started
//! here (the TypeScript SDK 1.29.0 demo with CORS off, the Python `mcp` 2.3.0 peer, the hostile
//! server's token echo).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;

use common::{demo, hostile, probe, python_peer, run, temp, text};
use mcp_triage::testing::leak::{self, Sentinels};
use serde_json::Value;

const TOKEN: [(&str, &str); 1] = [("T", "demo-token")];

/// The JUnit file's test cases by outcome, after an independent XML parser (Python's) read it.
fn junit_outcomes(file: &PathBuf) -> Value {
    let script = r#"
import json, sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
suite = d.getElementsByTagName('testsuite')[0]
cases = []
for c in d.getElementsByTagName('testcase'):
    kind = 'passed'
    for k in ('failure', 'skipped', 'error'):
        if c.getElementsByTagName(k):
            kind = k
    cases.append([c.getAttribute('name'), kind])
print(json.dumps({'cases': cases, 'attrs': {k: int(suite.getAttribute(k)) for k in ('tests', 'failures', 'errors', 'skipped')}}))
"#;
    let out = Command::new("python3")
        .args(["-c", script, file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "not well-formed XML: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(file).unwrap_or_default()
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The counts in the suite's attributes are the elements it holds.
    let count = |k: &str| {
        v["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c[1] == k)
            .count() as u64
    };
    assert_eq!(
        v["attrs"]["tests"],
        v["cases"].as_array().unwrap().len() as u64
    );
    for (attr, kind) in [
        ("failures", "failure"),
        ("errors", "error"),
        ("skipped", "skipped"),
    ] {
        assert_eq!(v["attrs"][attr], count(kind), "{attr}");
    }
    v
}

fn outcome_of(v: &Value, name_starts: &str) -> String {
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c[0].as_str().unwrap().starts_with(name_starts))
        .map(|c| c[1].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no case {name_starts}: {v}"))
}

#[test]
fn junit_fails_a_spec_deviation_skips_a_probe_not_answered_and_errors_when_the_server_is_unreachable()
 {
    let _seed = demo(18967, &[]);
    let _slow = demo(18968, &["--tool-delay-ms", "60000"]);
    // The seed: probe A's unknown tool comes as isError, which every version calls a deviation.
    let file = temp("seed.xml");
    let out = probe(
        &[
            "http://127.0.0.1:18967/mcp",
            "--token-env",
            "T",
            "--junit",
            file.to_str().unwrap(),
            "--fail-under",
            "1",
        ],
        &TOKEN,
    );
    assert_eq!(out.status.code(), Some(5), "{}", text(&out).1);
    let v = junit_outcomes(&file);
    assert_eq!(outcome_of(&v, "A ·"), "failure", "{v}");
    assert_eq!(outcome_of(&v, "C ·"), "passed", "{v}");
    assert_eq!(outcome_of(&v, "Connect"), "passed");
    assert_eq!(
        outcome_of(&v, "Distinguishability"),
        "failure",
        "0 of 3 is below 1"
    );
    // Tools that take a minute, a run of 2 seconds: C and D are skipped, not failed.
    let cut_file = temp("cut.xml");
    let cut = probe(
        &[
            "http://127.0.0.1:18968/mcp",
            "--token-env",
            "T",
            "--time-limit",
            "2",
            "--junit",
            cut_file.to_str().unwrap(),
        ],
        &TOKEN,
    );
    assert_eq!(cut.status.code(), Some(4));
    let v = junit_outcomes(&cut_file);
    assert_eq!(outcome_of(&v, "C ·"), "skipped", "{v}");
    assert_eq!(outcome_of(&v, "D ·"), "skipped", "{v}");
    // Nothing listens: the connection is an error and the probes are skipped.
    let gone_file = temp("gone.xml");
    let gone = probe(
        &[
            "http://127.0.0.1:18979/mcp",
            "--junit",
            gone_file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(gone.status.code(), Some(3));
    let v = junit_outcomes(&gone_file);
    assert_eq!(outcome_of(&v, "Connect"), "error", "{v}");
    assert_eq!(outcome_of(&v, "A ·"), "skipped", "{v}");
    assert_eq!(v["attrs"]["errors"], 1);
}

#[test]
fn a_probed_report_replays_to_the_same_json_byte_for_byte() {
    let _seed = demo(18969, &[]);
    let _peer = python_peer(18970);
    for (url, env) in [
        ("http://127.0.0.1:18969/mcp", &TOKEN[..]),
        ("http://127.0.0.1:18970/mcp", &[][..]),
    ] {
        let mut args = vec![url, "--json"];
        if !env.is_empty() {
            args.extend(["--token-env", "T"]);
        }
        let live = probe(&args, env);
        assert_eq!(live.status.code(), Some(0), "{url}: {}", text(&live).1);
        let file = temp("live.json");
        std::fs::write(&file, &live.stdout).unwrap();
        let again = run(&["replay", file.to_str().unwrap(), "--json"], &[]);
        let (stdout, stderr) = text(&again);
        assert_eq!(again.status.code(), Some(0), "{url}: {stderr}");
        assert!(stderr.contains("0 not used"), "{url}: {stderr}");
        assert_eq!(stdout, text(&live).0, "{url}: the replay differs");
    }
}

#[test]
fn replay_of_public_captures_gives_the_seeds_finding_in_every_form() {
    let dir = common::root().join("fixtures/exchanges/ts-1.29.0-stateless");
    let dir = dir.to_str().unwrap();
    let md = run(&["replay", dir, "--markdown"], &[]);
    let (stdout, stderr) = text(&md);
    assert_eq!(md.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("| A · Unknown tool | `lead_delete` | 200 | tool error | unknown tool |"),
        "{stdout}"
    );
    assert!(stdout.contains("Distinguishability by structure alone: 0 of 3 pairs"));
    // A recording without a connect cannot be replayed, and says what to do instead.
    let one = format!("{dir}/A_unknown_tool.pv2025-06-18.json");
    let refused = run(&["replay", &one], &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused).1.contains("classify"),
        "{}",
        text(&refused).1
    );
    // Unreadable input is a usage error with the file named.
    let bad = temp("bad.json");
    std::fs::write(&bad, "{not json").unwrap();
    let unreadable = run(&["replay", bad.to_str().unwrap()], &[]);
    assert_eq!(unreadable.status.code(), Some(2));
    assert!(text(&unreadable).1.contains("bad.json"));
}

#[test]
fn the_share_link_holds_the_reports_verdicts_under_the_page_address_given() {
    // One session (the stack was captured at one protocol version): one run.
    let dir = common::root().join("fixtures/exchanges/py-mcp-2.3.0-lowlevel-stateful");
    let dir = dir.to_str().unwrap();
    let json = run(&["replay", dir, "--json"], &[]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    // Under --share-base, under $MCP_TRIAGE_PAGE, under the hosted page when neither is given (and
    // said so on stderr), and bare when $MCP_TRIAGE_PAGE is set empty.
    let based = run(
        &[
            "replay",
            dir,
            "--share",
            "--share-base",
            "https://triage.example/app/",
        ],
        &[],
    );
    let line = |o: &std::process::Output| {
        text(o)
            .0
            .lines()
            .find_map(|l| l.strip_prefix("Share: ").map(str::to_string))
            .unwrap_or_else(|| panic!("no share line: {}", text(o).0))
    };
    let link = line(&based);
    assert!(
        link.starts_with(&format!("https://triage.example/app/{}", current())),
        "{link}"
    );
    let from_env = run(
        &["replay", dir, "--share"],
        &[("MCP_TRIAGE_PAGE", "https://pages.example/t/")],
    );
    assert!(line(&from_env).starts_with(&format!("https://pages.example/t/{}", current())));
    let hosted = run(&["replay", dir, "--share"], &[]);
    let page = mcp_triage::share::HOSTED_PAGE;
    assert!(line(&hosted).starts_with(&format!("{page}{}", current())));
    assert!(
        text(&hosted)
            .1
            .contains(&format!("the share link opens in the hosted page, {page}")),
        "{}",
        text(&hosted).1
    );
    let bare = run(&["replay", dir, "--share"], &[("MCP_TRIAGE_PAGE", "")]);
    assert!(line(&bare).starts_with(&current()));
    assert!(!text(&bare).1.contains("hosted page"), "{}", text(&bare).1);
    let with_json = run(&["replay", dir, "--json", "--share"], &[]);
    let with_json: Value = serde_json::from_slice(&with_json.stdout).unwrap();
    assert!(
        with_json["share"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{page}{}", current()))
    );
    // The link says what the report says, probe by probe.
    let payload = mcp_triage::share::decode(&link[link.find('#').unwrap()..]).unwrap();
    assert_eq!(
        payload.finding,
        report["summary"]["finding"].as_str().unwrap()
    );
    for rec in report["records"].as_array().unwrap() {
        let Some(intent) = rec["exchange"]["intent"].as_str() else {
            continue;
        };
        let row = payload.rows.iter().find(|r| r.step == intent).unwrap();
        assert_eq!(row.cause, rec["assessment"]["cause"].as_str().unwrap());
        assert_eq!(row.channel, rec["assessment"]["channel"].as_str().unwrap());
        assert_eq!(row.code, rec["assessment"]["jsonrpc_code"].as_i64());
    }
    // A page address that is not one is refused.
    let wrong = run(
        &[
            "replay",
            dir,
            "--share",
            "--share-base",
            "javascript:alert(1)",
        ],
        &[],
    );
    assert_eq!(wrong.status.code(), Some(2));
}

/// The hostile server's answer to an initialize sent with `token`, read raw (no redaction).
fn raw_echo(port: u16, token: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST /echo/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

#[test]
fn a_server_that_echoes_the_token_leaves_no_trace_of_it_in_markdown_junit_or_the_share_link() {
    let _hostile = hostile(18978);
    let s = Sentinels::new(0x0c1_5a4e_u64);
    // The control: the server does echo the token, and the checker finds it in what it sends.
    assert!(
        leak::leaks(&raw_echo(18978, &s.token), &s.token),
        "the control: an unredacted answer must be caught"
    );
    let url = "http://127.0.0.1:18978/echo/mcp";
    let junit = temp("hostile.xml");
    let out = probe(
        &[
            url,
            "--token-env",
            "T",
            "--header-env",
            "X-Api-Key=H",
            "--markdown",
            "--junit",
            junit.to_str().unwrap(),
            "--share",
            "--include-path",
        ],
        // $MCP_TRIAGE_PAGE set empty: the share link is the bare fragment the Markdown quotes.
        &[("T", &s.token), ("H", &s.header), ("MCP_TRIAGE_PAGE", "")],
    );
    let (stdout, stderr) = text(&out);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let fragment = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Share fragment: `"))
        .map(|l| l.trim_end_matches('`').to_string())
        .unwrap_or_else(|| panic!("no share fragment: {stdout}"));
    let inflated = serde_json::to_string(&mcp_triage::share::decode(&fragment).unwrap()).unwrap();
    assert!(
        inflated.contains("echo server for"),
        "the echo reached the payload (redacted): {inflated}"
    );
    for (name, secret) in [("token", &s.token), ("header", &s.header)] {
        for (channel, t) in [
            ("markdown", &stdout),
            ("stderr", &stderr),
            ("junit", &xml),
            ("fragment", &fragment),
            ("inflated payload", &inflated),
        ] {
            assert!(
                !leak::leaks(t, secret),
                "the {name} in the {channel}: {:?}",
                leak::found(t, secret)
            );
        }
    }
}

#[test]
fn replay_redacts_a_value_named_by_secret_env_from_every_output_and_refuses_one_too_short() {
    let dir = common::root().join("fixtures/exchanges/ts-1.29.0-stateless");
    let dir = dir.to_str().unwrap();
    // The seed's tools/list and C answer say "organization": a stand-in for a key a recording holds.
    let secret = "organization";
    let junit = temp("replay-secret.xml");
    let args = [
        "replay",
        dir,
        "--json",
        "--junit",
        junit.to_str().unwrap(),
        "--share",
        "--include-path",
    ];
    // The control: without --secret-env the value is in the report.
    let plain = run(&args, &[]);
    assert!(
        leak::leaks(&text(&plain).0, secret),
        "the control: the recordings hold the value"
    );
    let mut named = args.to_vec();
    named.extend(["--secret-env", "S"]);
    let out = run(&named, &[("S", secret), ("MCP_TRIAGE_PAGE", "")]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let fragment = report["share"].as_str().unwrap();
    let inflated = serde_json::to_string(&mcp_triage::share::decode(fragment).unwrap()).unwrap();
    let xml = std::fs::read_to_string(&junit).unwrap();
    for (channel, t) in [
        ("json", &stdout),
        ("stderr", &stderr),
        ("junit", &xml),
        ("fragment", &fragment.to_string()),
        ("inflated payload", &inflated),
    ] {
        assert!(
            !leak::leaks(t, secret),
            "{channel}: {:?}",
            leak::found(t, secret)
        );
    }
    let short = run(&["replay", dir, "--secret-env", "S"], &[("S", "abc")]);
    assert_eq!(short.status.code(), Some(2));
    assert!(
        text(&short).1.contains("shorter than 8"),
        "{}",
        text(&short).1
    );
}

#[test]
fn a_run_made_from_a_plan_replays_that_plan_and_captures_of_two_runs_are_refused() {
    let _seed = demo(18971, &[]);
    let url = "http://127.0.0.1:18971/mcp";
    let plan = temp("review-plan.json");
    let plan_json = serde_json::json!({
        "format": "mcp-triage-plan/1",
        // Out of probe order on purpose: the ids a plan's calls get follow the probes, not the file.
        "probes": [
            {"probe": "D", "skip": true},
            {"probe": "C", "tool": "lead_get", "arguments": {"id": "lead_999"}},
            {"probe": "B", "tool": "echo", "arguments": {"text": 42}},
        ],
    });
    std::fs::write(&plan, plan_json.to_string()).unwrap();
    let plan = plan.to_str().unwrap();
    let live = probe(&[url, "--json", "--token-env", "T", "--plan", plan], &TOKEN);
    assert_eq!(live.status.code(), Some(0), "{}", text(&live).1);
    let report: Value = serde_json::from_slice(&live.stdout).unwrap();
    assert_eq!(report["mode"], "review");
    assert_eq!(report["probes"][3]["skipped"], "skipped_by_user");
    // Every exchange the run recorded carries the run's one id.
    let ids: Vec<&str> = report["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["exchange"]["run_id"].as_str().unwrap())
        .collect();
    assert!(ids.len() >= 6 && ids.iter().all(|id| *id == ids[0] && id.len() == 16));
    let live_file = temp("review-live.json");
    std::fs::write(&live_file, &live.stdout).unwrap();
    let live_file = live_file.to_str().unwrap();

    // The report's plan is replayed: the same report, byte for byte.
    let again = run(&["replay", live_file, "--json"], &[]);
    let (stdout, stderr) = text(&again);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("Review first"), "{stderr}");
    assert_eq!(stdout, text(&live).0, "the replay of a planned run differs");

    // The control: the same exchanges without the report record no plan, so a Quick check is
    // replayed, and the report says so (and differs: D was skipped by the plan, not by a Quick check).
    let exchanges: Vec<Value> = report["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["exchange"].clone())
        .collect();
    let bare = temp("review-exchanges.json");
    std::fs::write(&bare, serde_json::to_string(&exchanges).unwrap()).unwrap();
    let quick = run(&["replay", bare.to_str().unwrap(), "--json"], &[]);
    let (stdout, stderr) = text(&quick);
    assert_eq!(
        quick.status.code(),
        Some(4),
        "D has no recorded answer: {stderr}"
    );
    assert!(stderr.contains("hold no plan"), "{stderr}");
    let quick: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(quick["mode"], "quick");
    assert!(
        quick["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("hold no plan")),
        "{}",
        quick["notes"]
    );

    // A second run is another run: the two reports together are refused, each file named.
    let other = probe(&[url, "--json", "--token-env", "T"], &TOKEN);
    assert_eq!(other.status.code(), Some(0), "{}", text(&other).1);
    let other_file = temp("quick-live.json");
    std::fs::write(&other_file, &other.stdout).unwrap();
    let other_file = other_file.to_str().unwrap();
    let mixed = run(&["replay", live_file, other_file], &[]);
    let stderr = text(&mixed).1;
    assert_eq!(mixed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2 different runs"), "{stderr}");
    assert!(
        stderr.contains("review-live.json") && stderr.contains("quick-live.json"),
        "{stderr}"
    );
    // The control: each alone replays.
    let alone = run(&["replay", other_file], &[]);
    assert_eq!(alone.status.code(), Some(0), "{}", text(&alone).1);
}

/// The fragment prefix of the share version this build writes.
fn current() -> String {
    format!("#r=v{}.", mcp_triage::share::VERSION)
}
