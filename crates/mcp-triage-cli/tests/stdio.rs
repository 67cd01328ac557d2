//! `mcp-triage probe --stdio`: real stdio servers started the way their clients start them (the
//! TypeScript SDK 1.29.0 `StdioServerTransport` with the demo's tools, the Python `mcp` 2.3.0
//! `MCPServer.run("stdio")`, and the TS server's test switches: logging to stdout, crashing or hanging
//! inside a tool call, started through `sh -c`). After every run no process the command started is
//! left: each run carries a marker in its environment, which every descendant inherits, and
//! `/proc` is searched for it.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::{Command, Output};

use common::{processes_with, root, text};
use mcp_triage::testing::leak::{self, Sentinels};
use serde_json::Value;

const MARKER_VAR: &str = "MCP_TRIAGE_STDIO_TEST_MARKER";

/// Runs `mcp-triage probe ARGS… --stdio -- COMMAND…` from the repository root with a marker of its
/// own in the environment, then asserts that no process carrying the marker is left.
fn probe_stdio(name: &str, args: &[&str], command: &[&str], env: &[(&str, &str)]) -> Output {
    let marker = format!("{name}-{}", std::process::id());
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .arg("probe")
        .args(args)
        .arg("--stdio")
        .arg("--")
        .args(command)
        .current_dir(root())
        .env_remove("MCP_TRIAGE_PAGE")
        .env(MARKER_VAR, &marker)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let left = processes_with(&format!("{MARKER_VAR}={marker}"));
    assert!(
        left.is_empty(),
        "{name}: processes left running after the run: {left:?}"
    );
    out
}

fn report(out: &Output) -> Value {
    let (stdout, stderr) = text(out);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}

/// The record of probe `p` (or of a connect/notification step named `step`).
fn record<'a>(report: &'a Value, step: &str) -> &'a Value {
    report["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["step"]["step"] == step || r["step"]["n"] == step)
        .unwrap_or_else(|| panic!("no record {step}"))
}

fn cause(report: &Value, p: &str) -> String {
    record(report, p)["assessment"]["cause"]
        .as_str()
        .unwrap()
        .to_string()
}

fn flags(report: &Value, step: &str) -> Vec<String> {
    record(report, step)["assessment"]["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

const TS: [&str; 2] = ["node", "demo/stdio-server.mjs"];

#[test]
fn the_typescript_sdk_stdio_server_answers_a_b_c_and_d_as_over_http() {
    let out = probe_stdio("ts", &["--json"], &TS, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let r = report(&out);
    assert_eq!(r["endpoint"], "stdio:node");
    for (p, want) in [
        ("A", "unknown_tool"),
        ("B", "invalid_arguments"),
        ("C", "tool_execution"),
        ("D", "none"),
    ] {
        assert_eq!(cause(&r, p), want, "probe {p}");
        let ex = &record(&r, p)["exchange"];
        assert_eq!(ex["transport"], "stdio");
        assert_eq!(ex["request"]["method"], "STDIO");
        assert!(ex["request"]["headers"].as_array().unwrap().is_empty());
    }
    // No HTTP-only check runs over stdio: no token to leave out, no GET stream, no session.
    let steps: Vec<&Value> = r["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| &x["step"]["step"])
        .collect();
    for absent in ["no_token", "get", "delete"] {
        assert!(!steps.iter().any(|s| *s == absent), "{absent}: {steps:?}");
    }
    assert_eq!(r["summary"]["score"], 0, "the seed's blur holds over stdio");
}

#[test]
fn the_python_sdk_stdio_server_withholds_the_exception_text() {
    let out = probe_stdio(
        "py",
        &["--json"],
        &["e2e/py/.venv/bin/python", "e2e/py/stdio_server.py"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let r = report(&out);
    assert_eq!(r["endpoint"], "stdio:python");
    assert_eq!(cause(&r, "C"), "tool_execution");
    assert!(flags(&r, "C").contains(&"message_withheld".to_string()));
    assert_eq!(cause(&r, "D"), "none");
}

#[test]
fn a_server_that_logs_to_stdout_is_flagged_non_json_stdout_where_the_lines_landed() {
    let out = probe_stdio(
        "log",
        &["--json"],
        &["node", "demo/stdio-server.mjs", "--log-to-stdout"],
        &[],
    );
    let r = report(&out);
    // The banner arrives before initialize's answer; the tool's log line before C's and D's.
    assert!(flags(&r, "initialize").contains(&"non_json_stdout".to_string()));
    assert!(flags(&r, "C").contains(&"non_json_stdout".to_string()));
    assert!(
        !flags(&r, "A").contains(&"non_json_stdout".to_string()),
        "A calls no handler"
    );
    // The calls themselves still answer: the finding is the pollution, said once for the run.
    assert_eq!(cause(&r, "D"), "none");
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("not JSON-RPC") && notes.contains("initialize"),
        "{notes}"
    );
    // Control: the same server without the switch writes nothing else to stdout.
    let clean = report(&probe_stdio("log-control", &["--json"], &TS, &[]));
    assert!(!flags(&clean, "initialize").contains(&"non_json_stdout".to_string()));
}

#[test]
fn a_crash_inside_a_tool_call_is_server_exited_with_its_exit_status_and_stderr_tail() {
    let s = Sentinels::new(0x57d_10e5);
    let secret = s.token.clone();
    let cmd = [
        "node",
        "demo/stdio-server.mjs",
        "--crash-in-tool",
        "lead_get",
        "--echo-env",
        "KEY",
    ];
    let out = probe_stdio(
        "crash",
        &["--json", "--share", "--secret-env", "KEY"],
        &cmd,
        &[("KEY", &secret)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let r = report(&out);
    assert_eq!(cause(&r, "C"), "server_exited");
    let c = &record(&r, "C")["exchange"]["stdio"];
    assert_eq!(
        c["exit"]["code"], 1,
        "node's status for an uncaught exception"
    );
    let tail = c["stderr_tail"].as_str().unwrap();
    assert!(
        tail.contains("backend connection lost in lead_get"),
        "{tail}"
    );
    // D comes after the crash: its line could not be written.
    assert_eq!(cause(&r, "D"), "server_exited");
    assert!(
        record(&r, "D")["assessment"]["evidence"][0]["fact"]
            .as_str()
            .unwrap()
            .contains("could not be written")
    );
    assert!(
        r["headline"]
            .as_str()
            .unwrap()
            .contains("crash of the server process"),
        "{}",
        r["headline"]
    );
    // The secret the server wrote to stderr is redacted from every output (--secret-env) ...
    let (stdout, stderr) = text(&out);
    for (channel, t) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(
            !leak::leaks(t, &secret),
            "{channel}: {:?}",
            leak::found(t, &secret)
        );
    }
    assert!(tail.contains("using key [REDACTED]"), "{tail}");
    // ... and the stderr tail never goes into the share link (inflated by Python's zlib).
    let fragment = r["share"].as_str().unwrap();
    let payload = inflate(fragment);
    assert!(payload.contains("server_exited"), "{payload}");
    assert!(!payload.contains("backend connection lost"), "{payload}");
    assert!(
        !payload.contains("stdio-server.mjs"),
        "no argument: {payload}"
    );
    // Control: without --secret-env the same run shows the value, so the check above can fail.
    let plain = probe_stdio("crash-control", &["--json"], &cmd, &[("KEY", &secret)]);
    assert!(
        leak::leaks(&text(&plain).0, &secret),
        "the control must leak"
    );
}

#[test]
fn a_reply_that_never_comes_is_a_timeout_and_the_hung_server_is_ended() {
    let out = probe_stdio(
        "hang",
        &["--json", "--time-limit", "3"],
        &[
            "node",
            "demo/stdio-server.mjs",
            "--hang-in-tool",
            "lead_get",
        ],
        &[],
    );
    let r = report(&out);
    assert_eq!(cause(&r, "C"), "timeout");
    assert_eq!(record(&r, "C")["exchange"]["transport_error"], "timeout");
    assert_eq!(r["ended"], "deadline_passed");
    assert_eq!(
        out.status.code(),
        Some(4),
        "a planned probe was not answered"
    );
}

#[test]
fn a_server_that_never_answers_initialize_is_not_a_completed_run() {
    // It reads its stdin and never writes: the run's time limit passes before it connects.
    let out = probe_stdio(
        "mute",
        &["--json", "--time-limit", "2"],
        &["sh", "-c", "cat >/dev/null"],
        &[],
    );
    let r = report(&out);
    assert_eq!(r["ended"], "deadline_passed");
    assert_eq!(
        out.status.code(),
        Some(8),
        "no probe ran: the run never connected"
    );
}

#[test]
fn a_server_behind_a_wrapper_is_ended_with_the_grandchildren_holding_its_stdout() {
    // `sh` stays the parent (two commands), and a background grandchild inherits stdout and would
    // keep it open for ten minutes: only ending the whole process group ends the run cleanly.
    let cmd = [
        "sh",
        "-c",
        "sleep 600 & node demo/stdio-server.mjs --unannotated; wait",
    ];
    let out = probe_stdio("wrapper", &["--json"], &cmd, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let r = report(&out);
    // Only the program's name is shown, never its arguments.
    assert_eq!(r["endpoint"], "stdio:sh");
    assert!(
        !text(&out).0.contains("sleep 600"),
        "the arguments are not shown"
    );
    // Unannotated tools are not called without a plan; A still runs and answers.
    assert_eq!(cause(&r, "A"), "unknown_tool");
    // Control: left the way a client that only waits for its child leaves it, the grandchild
    // stays, and the search above finds it (then it is ended here).
    let marker = format!("{MARKER_VAR}=control-{}", std::process::id());
    let (k, v) = marker.split_once('=').unwrap();
    let mut naive = Command::new("sh")
        .args(["-c", "sleep 600 & exit 0"])
        .env(k, v)
        .spawn()
        .unwrap();
    naive.wait().unwrap();
    // A process in the middle of exec may not show its environment for an instant: look again
    // (a bounded number of times) until the survivor is seen.
    let mut left = processes_with(&marker);
    for _ in 0..100 {
        if !left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        left = processes_with(&marker);
    }
    for (pid, _) in &left {
        let _ = Command::new("kill").args(["-KILL", pid]).status();
    }
    // (The background child may not have become `sleep` yet: any survivor is the grandchild.)
    assert!(!left.is_empty(), "the control must find the grandchild");
}

#[test]
fn a_command_that_cannot_start_or_exits_at_once_is_a_clear_connect_failure() {
    let missing = probe_stdio("missing", &[], &["./no-such-server-binary"], &[]);
    assert_eq!(missing.status.code(), Some(3));
    // The program's name, what the system said, and the likely fix.
    let said = text(&missing).1;
    assert!(
        said.contains("could not start the server's command no-such-server-binary: ")
            && said.contains("on PATH"),
        "{said}"
    );
    let exits = probe_stdio(
        "exits",
        &["--json"],
        &["sh", "-c", "echo starting; echo broken config >&2; exit 7"],
        &[],
    );
    assert_eq!(exits.status.code(), Some(3), "{}", text(&exits).1);
    let r = report(&exits);
    assert_eq!(r["ended"], "connect_failed");
    assert!(
        r["headline"]
            .as_str()
            .unwrap()
            .contains("exited before it answered"),
        "{}",
        r["headline"]
    );
    let connect = &record(&r, "initialize")["exchange"]["stdio"];
    assert_eq!(connect["exit"]["code"], 7);
    assert!(
        connect["stderr_tail"]
            .as_str()
            .unwrap()
            .contains("broken config")
    );
}

#[test]
fn stdio_flags_are_refused_where_they_make_no_sense() {
    let usage = |args: &[&str]| {
        let o = common::run(args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        text(&o).1
    };
    assert!(usage(&["probe", "--stdio"]).contains("needs the server's command"));
    assert!(usage(&["probe", "--stdio", "http://127.0.0.1:1/mcp", "--", "node"]).contains("a URL"));
    assert!(usage(&["probe", "--stdio", "--header", "a=b", "--", "node"]).contains("no headers"));
    assert!(usage(&["probe", "http://127.0.0.1:1/mcp", "--", "node"]).contains("for --stdio"));
}

/// A share fragment's payload as text, inflated by an independent decoder (Python's zlib).
fn inflate(fragment: &str) -> String {
    let data = fragment.rsplit_once('.').unwrap().1;
    let script = "import base64, sys, zlib\nd = sys.argv[1]\nd += '=' * (-len(d) % 4)\nprint(zlib.decompress(base64.urlsafe_b64decode(d), -15).decode())";
    let out = Command::new("python3")
        .args(["-c", script, data])
        .output()
        .unwrap();
    let (stdout, stderr) = common::text(&out);
    assert!(out.status.success(), "{stderr}");
    stdout
}
