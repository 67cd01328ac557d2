//! `mcp-triage census` against real SDK servers (the TypeScript SDK 1.32.2 example, the Python
//! `mcp` 2.3.0 peer, the 1.29.0 demo behind its bearer middleware), each listed many times, plus
//! hand-written targets that hang, answer garbage, reset, and a port nobody listens on: every
//! line once and right, politeness kept, no tool of a server's called, a run killed half-way and
//! resumed giving the same lines, and the report drawn from them.

// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Server, demo, python_peer, start, start_with, temp};
use serde_json::Value;

const SDK_EXAMPLE: &str = "e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js";
const LIMITS: &str = "headers_deadline_ms=1000,request_total_ms=3000,first_event_ms=100";

/// Each real SDK server twice (`base` and `base + 5`, `base + 1` and `base + 6`): a stream the GET
/// check opens holds its host until the connection is let go of, so hosts are what make a census
/// fast.
fn peers(base: u16) -> Vec<Server> {
    let (ts, ts2) = (base.to_string(), (base + 5).to_string());
    let faults = format!("{},{}", base + 3, base + 4);
    vec![
        start_with("node", &[SDK_EXAMPLE], &[("MCP_PORT", &ts)], base),
        start_with("node", &[SDK_EXAMPLE], &[("MCP_PORT", &ts2)], base + 5),
        python_peer(base + 1),
        python_peer(base + 6),
        demo(base + 2, &["--stats"]),
        start(
            "node",
            &["e2e/census-faults.mjs", "--ports", &faults],
            base + 3,
        ),
    ]
}

/// The targets: each real server many times (`?n=`), the faults, a refused port, two exact
/// duplicates, and three URLs that cannot run.
fn targets(base: u16, copies: usize) -> (String, usize) {
    let mut lines = vec!["# a census of the test peers".to_string()];
    let mut distinct = 0;
    for n in 0..copies {
        for port in [base, base + 1, base + 5, base + 6] {
            lines.push(format!("http://127.0.0.1:{port}/mcp?n={n}"));
        }
        distinct += 4;
    }
    for n in 0..4 {
        lines.push(format!("http://127.0.0.1:{}/mcp?n={n}", base + 2));
        lines.push(format!("http://127.0.0.1:{}/fast/mcp?n={n}", base + 3));
        lines.push(format!("http://127.0.0.1:{}/garbage/mcp?n={n}", base + 3));
        lines.push(format!("http://127.0.0.1:{}/reset/mcp?n={n}", base + 3));
        lines.push(format!("http://127.0.0.1:{}/hang/mcp?n={n}", base + 4));
        lines.push(format!("http://127.0.0.1:{}/mcp?n={n}", base + 9));
        distinct += 6;
    }
    lines.push(format!("http://127.0.0.1:{base}/mcp?n=0"));
    lines.push(format!("http://127.0.0.1:{}/mcp?n=1", base + 1));
    lines.push("not a url".into());
    lines.push("https://{host}/mcp".into());
    lines.push("ftp://127.0.0.1/mcp".into());
    (lines.join("\n") + "\n", distinct + 3)
}

fn census(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .arg("census")
        .args(args)
        .env("MCP_TRIAGE_TEST_LIMITS", LIMITS)
        .output()
        .unwrap()
}

/// A path for a census's output, with nothing there yet.
fn fresh(name: &str) -> std::path::PathBuf {
    let out = temp(name);
    let _ = std::fs::remove_file(&out);
    out
}

/// A census of the targets file `targets` into `out`, with `args` after them.
fn census_into(
    targets: &std::path::Path,
    out: &std::path::Path,
    args: &[&str],
) -> std::process::Output {
    let paths = [targets.to_str().unwrap(), "--out", out.to_str().unwrap()];
    census(&[&paths[..], args].concat())
}

fn lines_of(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What must be equal between two runs of one target (timings and order aside).
fn essence(line: &Value) -> (String, String, String, String, String) {
    let s = |v: &Value| v.as_str().unwrap_or("-").to_string();
    (
        s(&line["target"]),
        s(&line["reach"]),
        s(&line["server"]["name"]),
        s(&line["probe_a"]["channel"]),
        s(&line["probe_a"]["cause"]),
    )
}

fn stats(port: u16) -> Value {
    let body = ureq::get(&format!("http://127.0.0.1:{port}/__stats"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    serde_json::from_str(&body).unwrap()
}

#[test]
fn a_census_writes_every_target_once_and_right_and_calls_no_tool() {
    let base = 18701;
    let _servers = peers(base);
    let (list, expected) = targets(base, 60);
    let file = temp("census-targets.txt");
    std::fs::write(&file, &list).unwrap();
    let out = fresh("census.jsonl");
    let run = census_into(
        &file,
        &out,
        &[
            "--host-delay-ms",
            "0",
            "--concurrency",
            "8",
            "--contact",
            "https://example.org/census-contact",
        ],
    );
    let (stdout, stderr) = common::text(&run);
    assert_eq!(run.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        !stderr.contains("targets ·"),
        "no progress off a terminal: {stderr}"
    );
    let lines = lines_of(&out);
    assert_eq!(lines.len(), expected, "{stdout}");
    let keys: BTreeSet<&str> = lines
        .iter()
        .map(|l| l["target"].as_str().unwrap())
        .collect();
    assert_eq!(keys.len(), lines.len(), "every target once");
    let by_port = |port: u16| -> Vec<&Value> {
        lines
            .iter()
            .filter(|l| l["target"].as_str().unwrap().contains(&format!(":{port}/")))
            .collect()
    };
    let reaches = |port: u16, path: &str| -> BTreeSet<String> {
        by_port(port)
            .into_iter()
            .filter(|l| l["target"].as_str().unwrap().contains(path))
            .map(|l| l["reach"].as_str().unwrap().to_string())
            .collect()
    };
    // The real SDK servers: answered, named, probe A judged as the same server's probe run judges it.
    for port in [base, base + 1, base + 5, base + 6] {
        let probe = common::probe(&[&format!("http://127.0.0.1:{port}/mcp"), "--json"], &[]);
        let report: Value = serde_json::from_slice(&probe.stdout).unwrap();
        let a = report["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["exchange"]["intent"] == "A")
            .unwrap();
        let mine = by_port(port);
        assert_eq!(mine.len(), 60);
        for l in mine {
            assert_eq!(l["format"], "mcp-triage-census/1");
            assert_eq!(l["reach"], "answered", "{l}");
            assert_eq!(l["probe_a"]["channel"], a["assessment"]["channel"], "{l}");
            assert_eq!(l["probe_a"]["cause"], a["assessment"]["cause"], "{l}");
            assert!(l["server"]["name"].is_string(), "{l}");
            assert!(l["tools"]["count"].as_u64().unwrap() >= 1, "{l}");
            assert!(
                l["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["check"] == "get"),
                "{l}"
            );
            for banned in ["description", "inputSchema", "\"tools\":[{"] {
                assert!(!l.to_string().contains(banned), "{banned} in {l}");
            }
        }
    }
    let dups: Vec<&Value> = lines
        .iter()
        .filter(|l| l["target"] == format!("http://127.0.0.1:{base}/mcp?n=0"))
        .collect();
    assert_eq!(
        dups[0]["sources"].as_array().unwrap().len(),
        2,
        "both sources kept"
    );
    // The demo behind its bearer middleware: auth required, with the OAuth doctor's findings.
    for l in by_port(base + 2) {
        assert_eq!(l["reach"], "auth_required", "{l}");
        assert!(l["auth"]["fetches"].as_u64().unwrap() >= 1, "{l}");
    }
    for (port, path, reach) in [
        (base + 3, "/fast/", "answered"),
        (base + 3, "/garbage/", "not_mcp"),
        (base + 3, "/reset/", "unreachable"),
        (base + 4, "/hang/", "timed_out"),
        (base + 9, "/mcp", "unreachable"),
    ] {
        assert_eq!(
            reaches(port, path),
            BTreeSet::from([reach.to_string()]),
            "{path}"
        );
    }
    let refused: Vec<&Value> = lines
        .iter()
        .filter(|l| l["reach"] == "refused_target")
        .collect();
    assert_eq!(refused.len(), 3);
    assert!(
        refused
            .iter()
            .any(|l| l["refused"].as_str().unwrap().contains("template"))
    );
    // Polite: one request in flight per host, and the User-Agent names the tool and the contact.
    for port in [base + 3, base + 4] {
        let s = stats(port);
        assert_eq!(s["max_in_flight"], 1, "{s}");
        let agents = s["user_agents"].as_array().unwrap();
        assert!(!agents.is_empty());
        for a in agents {
            let a = a.as_str().unwrap();
            assert!(
                a.starts_with("mcp-triage/") && a.contains("https://example.org/census-contact"),
                "{a}"
            );
        }
    }
    // No tool of a server's: /fast lists the read-only `echo`, which a Quick check calls for D.
    let called = stats(base + 3)["tools_called"].clone();
    assert!(called.get("echo").is_none(), "{called}");
    assert_eq!(
        called.as_object().unwrap().len(),
        4,
        "probe A's unknown names only: {called}"
    );
    let demo_stats = stats(base + 2);
    assert!(
        demo_stats["tools"].as_object().unwrap().is_empty(),
        "{demo_stats}"
    );
    // The control: the same synthetic server, probed (Quick), does get `echo` called.
    let quick = common::probe(&[&format!("http://127.0.0.1:{}/fast/mcp", base + 3)], &[]);
    assert!(quick.status.code().is_some());
    assert!(
        stats(base + 3)["tools_called"].get("echo").is_some(),
        "the control calls echo"
    );

    // The report from those lines: every target counted, names as data, no script.
    let md = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args(["census", "report", out.to_str().unwrap()])
        .output()
        .unwrap();
    let md_text = String::from_utf8_lossy(&md.stdout);
    assert_eq!(md.status.code(), Some(0));
    assert!(
        md_text.contains(&format!("- {expected} targets")),
        "{md_text}"
    );
    assert!(md_text.contains("| `answered` | 244 |"), "{md_text}");
    let html = temp("census.html");
    let h = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args([
            "census",
            "report",
            out.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(h.status.code(), Some(0));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<svg")
            && !page.contains("<script")
            && !page.contains("http-equiv=\"refresh\"")
    );
    assert!(
        !page.contains("src=\"http") && !page.contains("href="),
        "nothing fetched, no link"
    );
    // For the test command's schema check (scripts/verdict-schema.mjs).
    let dir = common::root().join("target/census");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&out, dir.join("census.jsonl")).unwrap();
}

#[test]
fn a_census_killed_half_way_and_resumed_gives_the_same_lines() {
    let base = 18711;
    let _servers = peers(base);
    // The registry's form this time: a listing, JSON Lines of server.json documents.
    let mut docs = Vec::new();
    for n in 0..15 {
        for port in [base, base + 1, base + 5, base + 6] {
            docs.push(
                serde_json::json!({"name": format!("io.example/s{port}-{n}"), "remotes": [
                {"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/mcp?n={n}")},
                {"type": "sse", "url": format!("http://127.0.0.1:{port}/sse")}]}),
            );
        }
    }
    docs.push(serde_json::json!({"name": "io.example/packages-only", "packages": []}));
    docs.push(serde_json::json!({"name": "io.example/hang", "remotes": [
        {"type": "streamable-http", "url": format!("http://127.0.0.1:{}/hang/mcp", base + 4)}]}));
    let file = temp("census-registry.jsonl");
    let text: Vec<String> = docs.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n")).unwrap();
    let expected = 61;

    // Uninterrupted, for the reference.
    let whole = fresh("census-whole.jsonl");
    let run = census_into(&file, &whole, &["--host-delay-ms", "0"]);
    assert_eq!(run.status.code(), Some(0), "{:?}", common::text(&run));
    let reference: BTreeSet<_> = lines_of(&whole).iter().map(essence).collect();
    assert_eq!(reference.len(), expected);
    assert!(
        lines_of(&whole)[0]["sources"][0]
            .as_str()
            .unwrap()
            .contains("#io.example/")
    );

    // Killed once some lines are written (a crash), its last line then cut short as a crash
    // mid-write leaves it; resumed: the same set of lines, each once.
    let cut = fresh("census-cut.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args([
            "census",
            file.to_str().unwrap(),
            "--out",
            cut.to_str().unwrap(),
        ])
        .args(["--host-delay-ms", "20", "--concurrency", "2"])
        .env("MCP_TRIAGE_TEST_LIMITS", LIMITS)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let n = std::fs::read_to_string(&cut)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n >= 10 {
            break;
        }
        assert!(Instant::now() < deadline, "no lines written");
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = lines_of(&cut).len();
    assert!(before < expected, "killed half-way: {before} of {expected}");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&cut)
        .unwrap()
        .write_all(b"{\"format\":\"mcp-triage-census/1\",\"target\":\"http://127.0.0.1:1/x")
        .unwrap();
    // Without --resume the file is not touched.
    let refused = census_into(&file, &cut, &[]);
    assert_eq!(refused.status.code(), Some(2));
    let resumed = census_into(&file, &cut, &["--resume", "--host-delay-ms", "0"]);
    let (stdout, stderr) = common::text(&resumed);
    assert_eq!(resumed.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("cut short"), "{stderr}");
    assert!(
        stdout.contains(&format!("{before} already there")),
        "{stdout}"
    );
    let after = lines_of(&cut);
    let keys: BTreeMap<String, usize> = after.iter().fold(BTreeMap::new(), |mut m, l| {
        *m.entry(l["target"].as_str().unwrap().to_string())
            .or_default() += 1;
        m
    });
    assert!(keys.values().all(|n| *n == 1), "each target once: {keys:?}");
    let got: BTreeSet<_> = after.iter().map(essence).collect();
    assert_eq!(got, reference);
}

#[test]
fn waiting_to_be_polite_counts_against_a_targets_deadline() {
    // One synthetic server, a minute between requests to it, two seconds for the target: the
    // connect request goes, the next one would wait past the deadline and is never sent.
    let port = 18730;
    let _faults = start("node", &["e2e/census-faults.mjs", "--ports", "18730"], port);
    let file = temp("census-deadline.txt");
    std::fs::write(&file, format!("http://127.0.0.1:{port}/fast/mcp\n")).unwrap();
    let out = fresh("census-deadline.jsonl");
    let run = census_into(
        &file,
        &out,
        &["--host-delay-ms", "60000", "--deadline", "2"],
    );
    assert_eq!(run.status.code(), Some(0), "{:?}", common::text(&run));
    let lines = lines_of(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["reach"], "connected", "{}", lines[0]);
    assert!(lines[0].get("probe_a").is_none(), "{}", lines[0]);
    assert_eq!(
        stats(port)["requests"],
        1,
        "only the connect request reached the server"
    );
    // The census gave up on the next request at the deadline, not after the host's minute.
    assert_eq!(lines[0]["timings"]["requests"], 1, "{}", lines[0]);
}
