//! Ctrl-C (SIGINT) and SIGTERM to `mcp-triage probe`: against a real stdio server (the TypeScript
//! SDK 1.29.0 demo, its `lead_get` hanging) and a real slow HTTP server (the demo with a tool delay
//! of ten minutes), each signal is sent once the run is waiting on probe C's answer (the progress
//! line says so), and the run must end with the signal's status, its stdio server's whole process
//! group gone, and every output asked for written with what was recorded, saying it was interrupted.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;

use common::{demo, processes_with, root, temp};
use serde_json::Value;

const MARKER_VAR: &str = "MCP_TRIAGE_INTERRUPT_TEST_MARKER";

/// What a run printed, and how it ended.
struct Ended {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `mcp-triage probe ARGS…` with `marker` in its environment, waits until standard error says
/// probe C was sent (the run now waits on its answer), calls `before_signal` (to look at what runs),
/// sends `signal`, and waits for the command to end.
fn interrupted(
    args: &[&str],
    env: &[(&str, &str)],
    marker: &str,
    signal: &str,
    before_signal: impl FnOnce(),
) -> Ended {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .arg("probe")
        .args(args)
        .current_dir(root())
        .env_remove("MCP_TRIAGE_PAGE")
        .env(MARKER_VAR, marker)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Both pipes are read as the command writes them, so it never blocks on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let (lines_tx, lines) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(err).lines() {
            let line = line.unwrap();
            all.push_str(&line);
            all.push('\n');
            let _ = lines_tx.send(line);
        }
        all
    });
    // The order of events: probe C is sent, then the signal comes.
    for line in lines.iter() {
        if line == "→ probe C" {
            break;
        }
    }
    before_signal();
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    Ended {
        status: status.code(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

fn record<'a>(report: &'a Value, probe: &str) -> &'a Value {
    report["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["exchange"]["intent"] == probe)
        .unwrap_or_else(|| panic!("no record of probe {probe}"))
}

/// True while a process of group `pgid` exists (`kill -0 -PGID`).
fn group_alive(pgid: &str) -> bool {
    Command::new("kill")
        .args(["-0", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// The signals, as `kill` names them, with the status each must end the run with and the name the
/// report and JUnit use.
const SIGNALS: [(&str, i32, &str); 2] = [("INT", 130, "sigint"), ("TERM", 143, "sigterm")];

#[test]
fn each_signal_during_a_stdio_call_stops_the_run_ends_the_servers_group_and_writes_the_partial_report()
 {
    for (signal, status, name) in SIGNALS {
        let marker = format!("{name}-stdio-{}", std::process::id());
        let junit = temp(&format!("stdio-{name}.xml"));
        let mut server_pids = Vec::new();
        let ended = interrupted(
            &[
                "--json",
                "--junit",
                junit.to_str().unwrap(),
                "--stdio",
                "--",
                "node",
                "demo/stdio-server.mjs",
                "--hang-in-tool",
                "lead_get",
            ],
            &[],
            &marker,
            signal,
            || {
                // The control: the server runs (in a group of its own: it leads it) while the
                // run waits. (The command line's own arguments name the script too.)
                server_pids = processes_with(&format!("{MARKER_VAR}={marker}"))
                    .into_iter()
                    .filter(|(_, cmd)| cmd.starts_with("node demo/stdio-server.mjs"))
                    .map(|(pid, _)| pid)
                    .collect();
                assert!(!server_pids.is_empty(), "{signal}: the stdio server runs");
                assert!(server_pids.iter().all(|p| group_alive(p)), "{signal}");
            },
        );
        assert_eq!(ended.status, Some(status), "{signal}: {}", ended.stderr);
        // Nothing the command started is left, in the server's group or anywhere else.
        for pgid in &server_pids {
            assert!(
                !group_alive(pgid),
                "{signal}: the server's group {pgid} is gone"
            );
        }
        let left = processes_with(&format!("{MARKER_VAR}={marker}"));
        assert!(left.is_empty(), "{signal}: left running: {left:?}");
        let said = format!("SIG{signal}: stopping the run");
        assert!(ended.stderr.contains(&said), "{}", ended.stderr);
        // What was recorded is written, and says the run was interrupted.
        let report: Value = serde_json::from_str(&ended.stdout)
            .unwrap_or_else(|e| panic!("{signal}: {e}: {}\n{}", ended.stdout, ended.stderr));
        assert_eq!(report["ended"], "interrupted", "{signal}");
        assert_eq!(report["interrupted_by"], name);
        assert!(
            report["headline"]
                .as_str()
                .unwrap()
                .starts_with("The run was interrupted"),
            "{}",
            report["headline"]
        );
        // A and B were answered before; C was cut by the signal; D, planned in C's wave, was
        // handed back unsent as interrupted too.
        assert_eq!(record(&report, "A")["assessment"]["cause"], "unknown_tool");
        assert_eq!(
            record(&report, "B")["exchange"]["transport_error"],
            Value::Null
        );
        for cut in ["C", "D"] {
            let r = record(&report, cut);
            assert_eq!(
                r["exchange"]["transport_error"], "interrupted",
                "{signal} {cut}"
            );
            assert_eq!(r["assessment"]["cause"], "aborted", "{signal} {cut}");
        }
        let xml = std::fs::read_to_string(&junit).unwrap();
        let error = format!("interrupted by SIG{signal} before it finished");
        assert!(xml.contains(&error), "{xml}");
    }
}

#[test]
fn each_signal_during_a_call_to_a_slow_http_server_stops_the_run_and_writes_the_partial_markdown() {
    let _slow = demo(18972, &["--tool-delay-ms", "600000"]);
    for (signal, status, name) in SIGNALS {
        let marker = format!("{name}-http-{}", std::process::id());
        let ended = interrupted(
            &[
                "http://127.0.0.1:18972/mcp",
                "--token-env",
                "T",
                "--markdown",
                "--share",
            ],
            // $MCP_TRIAGE_PAGE set empty: the share link is the bare fragment the Markdown quotes.
            &[("T", "demo-token"), ("MCP_TRIAGE_PAGE", "")],
            &marker,
            signal,
            || {},
        );
        assert_eq!(ended.status, Some(status), "{signal}: {}", ended.stderr);
        let said = format!("SIG{signal}: stopping the run");
        assert!(ended.stderr.contains(&said), "{}", ended.stderr);
        let md = &ended.stdout;
        assert!(md.contains("The run was interrupted"), "{signal}: {md}");
        // The share link carries the ending and the cut probe's stop, as identifiers.
        let fragment = md
            .lines()
            .find_map(|l| l.strip_prefix("Share fragment: `"))
            .and_then(|l| l.strip_suffix('`'))
            .unwrap_or_else(|| panic!("{signal}: no share fragment: {md}"));
        let payload = mcp_triage::share::decode(fragment).unwrap();
        assert_eq!(payload.ended.as_deref(), Some("interrupted"), "{signal}");
        let c = payload.rows.iter().find(|r| r.step == "C").unwrap();
        assert_eq!(c.stopped.as_deref(), Some("interrupted"), "{signal}");
        let a = payload.rows.iter().find(|r| r.step == "A").unwrap();
        assert_eq!(
            a.cause, "unknown_tool",
            "{signal}: what was answered before is kept"
        );
    }
}

#[test]
fn every_exit_status_is_in_one_precedence_table_that_help_and_the_docs_print() {
    let table = mcp_triage::engine::exit::table_text();
    // Every status a command can end with is in it, once.
    let codes: Vec<u8> = mcp_triage::engine::exit::TABLE
        .iter()
        .map(|(c, _)| *c)
        .collect();
    for code in [0, 1, 2, 3, 4, 5, 6, 7, 8, 130, 143] {
        assert_eq!(codes.iter().filter(|c| **c == code).count(), 1, "{code}");
    }
    for command in [&["probe", "--help"][..], &["replay", "--help"], &["--help"]] {
        let out = common::run(command, &[]);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains(&table), "{command:?}: {help}");
    }
    let doc = std::fs::read_to_string(root().join("docs/cli.md")).unwrap();
    assert!(
        doc.contains(&table),
        "docs/cli.md holds the table as --help prints it:\n{table}"
    );
}
