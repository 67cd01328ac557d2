//! `mcp-triage probe` against real servers started here: the TypeScript SDK 1.29.0 demo with CORS
//! switched off (the page cannot reach it; the command line can), the Python `mcp` 2.3.0 peer, and
//! the hostile server's token echo. Every exit status is provoked once.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::{demo, hostile, probe, python_peer, text};
use mcp_triage::testing::leak::{self, Sentinels};

#[test]
fn probe_reaches_a_typescript_server_without_cors_and_reports_the_seeds_three_failures() {
    let _server = demo(18961, &[]);
    let url = "http://127.0.0.1:18961/mcp";
    let out = probe(&[url, "--token-env", "T"], &[("T", "demo-token")]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "An unknown tool, bad arguments and a thrown exception all arrive as isError: true"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("Distinguishability by structure alone: 0 of 3 pairs"));
    for title in [
        "A · Unknown tool",
        "B · Schema-invalid",
        "C · A call",
        "D · A call that succeeds",
    ] {
        assert!(stdout.contains(title), "{title}: {stdout}");
    }
    assert!(
        stderr.contains("→ probe A") && stderr.contains("← probe D: success / none"),
        "{stderr}"
    );
    // The same run as JSON: the page's export schema.
    let json = probe(&[url, "--token-env", "T", "--json"], &[("T", "demo-token")]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["format"], "mcp-triage-report/2");
    assert_eq!(report["summary"]["judged"], 3);
    assert!(report["records"].as_array().unwrap().len() >= 8);
}

#[test]
fn probe_against_the_python_peer_gets_its_own_dialect() {
    let _server = python_peer(18962);
    let out = probe(&["http://127.0.0.1:18962/mcp", "--json"], &[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cause = |intent: &str| {
        report["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["exchange"]["intent"] == intent)
            .map(|r| r["assessment"]["cause"].as_str().unwrap_or("").to_string())
    };
    assert_eq!(cause("A").as_deref(), Some("unknown_tool"), "{stdout}");
    assert_eq!(cause("C").as_deref(), Some("tool_execution"));
}

#[test]
fn every_exit_status_of_probe_is_reachable() {
    let _auth = demo(18963, &[]);
    let _slow = demo(18964, &["--tool-delay-ms", "60000"]);
    let url = "http://127.0.0.1:18963/mcp";
    let token = [("T", "demo-token")];
    // 2: usage errors, a token on the command line among them.
    assert_eq!(probe(&[], &[]).status.code(), Some(2));
    let plain = probe(&[url, "--token", "demo-token"], &[]);
    assert_eq!(plain.status.code(), Some(2));
    assert!(text(&plain).1.contains("--token-env"));
    assert_eq!(
        probe(&["http://mcp.example.com/mcp", "--token-env", "T"], &token)
            .status
            .code(),
        Some(2),
        "cleartext to a remote host with a secret"
    );
    // 3: the server refuses the run at connect (no token).
    assert_eq!(probe(&[url], &[]).status.code(), Some(3));
    // 5: the seed tells no pair apart by structure.
    assert_eq!(
        probe(&[url, "--token-env", "T", "--fail-under", "1"], &token)
            .status
            .code(),
        Some(5)
    );
    assert_eq!(
        probe(&[url, "--token-env", "T", "--fail-under", "0"], &token)
            .status
            .code(),
        Some(0)
    );
    // 4: tools that take a minute, a run limited to 2 seconds: C and D are not answered.
    let cut = probe(
        &[
            "http://127.0.0.1:18964/mcp",
            "--token-env",
            "T",
            "--time-limit",
            "2",
        ],
        &token,
    );
    assert_eq!(cut.status.code(), Some(4), "{}", text(&cut).0);
    assert!(text(&cut).0.contains("Not answered"), "{}", text(&cut).0);
    // 6: standard output cannot be written.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let local = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args(["probe", url, "--token-env", "T"])
        .env("T", "demo-token")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(local.status.code(), Some(6));
}

#[test]
fn a_server_that_never_answers_initialize_is_not_a_completed_run() {
    let _silent = hostile(18997);
    let junit = common::temp("never-connected.xml");
    let out = probe(
        &[
            "http://127.0.0.1:18997/silent/mcp",
            "--json",
            "--time-limit",
            "2",
            "--junit",
            junit.to_str().unwrap(),
        ],
        &[],
    );
    let (stdout, stderr) = text(&out);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["ended"], "deadline_passed", "{stderr}");
    assert_eq!(
        out.status.code(),
        Some(8),
        "no probe ran: the run never connected"
    );
    // The JUnit file says it as the exit status does: the connection is an error.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<error") && xml.contains("the run could not start"),
        "{xml}"
    );
}

/// Every `body_base64` of a JSON report, joined.
fn bodies_base64(report: &serde_json::Value) -> Vec<String> {
    report["records"]
        .as_array()
        .map(|records| {
            records
                .iter()
                .filter_map(|r| r["exchange"]["response"]["body_base64"].as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_echo_beside_bytes_that_are_not_utf8_leaves_no_trace_in_body_base64() {
    let s = Sentinels::new(0x000b_17e5_u64);
    // The leak server's echoes, from the core's list of forms (as `leakcheck echoes` writes them).
    let mut echoes = serde_json::Map::new();
    for form in leak::FORMS {
        let mut per = serde_json::Map::new();
        for (name, secret) in s.named() {
            per.insert(
                name.into(),
                serde_json::to_value(leak::echo(form, secret)).unwrap(),
            );
        }
        echoes.insert((*form).into(), per.into());
    }
    let file = common::temp("leak-bytes-echoes.json");
    std::fs::write(&file, serde_json::Value::from(echoes).to_string()).unwrap();
    let _server = common::start(
        "node",
        &[
            "e2e/hostile.mjs",
            "--port",
            "18998",
            "--origin",
            "http://127.0.0.1:1",
            "--redirect-to",
            "http://127.0.0.1:19098/mcp",
            "--leak",
            file.to_str().unwrap(),
        ],
        18998,
    );
    let env = [("T", s.token.as_str()), ("H", s.header.as_str())];
    for form in leak::FORMS {
        let url = format!("http://127.0.0.1:18998/leak-bytes/{form}/mcp");
        let args = [
            "probe",
            &url,
            "--token-env",
            "T",
            "--header-env",
            "X-Leak-Secret=H",
            "--json",
        ];
        let real = common::run(&args, &env);
        let (stdout, stderr) = text(&real);
        let report: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{form}: {e}: {stdout}\n{stderr}"));
        let kept = bodies_base64(&report);
        assert!(!kept.is_empty(), "{form}: no body kept as body_base64");
        for (name, secret) in [("token", &s.token), ("header", &s.header)] {
            assert!(
                !leak::leaks(&kept.join(" "), secret),
                "{form}: the {name} in body_base64: {:?}",
                leak::found(&kept.join(" "), secret)
            );
            assert!(
                !leak::leaks(&stdout, secret),
                "{form}: the {name} in stdout"
            );
            assert!(
                !leak::leaks(&stderr, secret),
                "{form}: the {name} in stderr"
            );
        }
        // The control: with redaction switched off, body_base64 holds the token in this form.
        let control = Command::new(common::leak_control_command())
            .args(args)
            .env_remove("MCP_TRIAGE_PAGE")
            .envs(env)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&control.stdout).unwrap();
        assert!(
            leak::leaks(&bodies_base64(&report).join(" "), &s.token),
            "{form}: the control must leak in body_base64"
        );
    }
}

/// The record of probe or step `intent` in a JSON report.
fn record_of<'a>(report: &'a serde_json::Value, intent: &str) -> &'a serde_json::Value {
    report["records"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["exchange"]["intent"] == intent))
        .unwrap_or_else(|| panic!("no record {intent}: {report}"))
}

#[test]
fn a_gzip_answer_is_decoded_and_a_gzip_bomb_stops_at_the_cap() {
    let _server = hostile(18999);
    let env = [("T", "gzip-test-token-0123456789")];
    let out = probe(
        &[
            "http://127.0.0.1:18999/gzip/mcp",
            "--token-env",
            "T",
            "--json",
        ],
        &env,
    );
    let (stdout, stderr) = text(&out);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    // Asked for gzip as a browser asks, the server compressed, and the answer reads as the page's.
    let a = record_of(&report, "A");
    let encoded = a["exchange"]["response"]["headers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| {
            h[0].as_str()
                .is_some_and(|k| k.eq_ignore_ascii_case("x-gzipped"))
        });
    assert!(encoded, "the answer was not gzip-encoded: {a}");
    assert_eq!(a["assessment"]["cause"], "unknown_tool", "{a}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // A bomb is read decoded under the body cap, as the page reads it: cut at the size cap.
    let bomb = probe(
        &[
            "http://127.0.0.1:18999/gzip-bomb/mcp",
            "--token-env",
            "T",
            "--json",
        ],
        &env,
    );
    let report: serde_json::Value = serde_json::from_slice(&bomb.stdout).unwrap();
    let c = record_of(&report, "C");
    assert_eq!(c["exchange"]["response"]["body_end"], "size_cap", "{c}");
    let kept = c["exchange"]["response"]["body"]
        .as_str()
        .unwrap_or("")
        .len();
    assert!(kept <= 4 * 1024 * 1024, "kept {kept} bytes");
    assert_eq!(bomb.status.code(), Some(4), "probe C was cut: not answered");
}

/// `mcp-triage ARGS…` with its data segment (the heap) limited to `kb` KiB (`ulimit -d`): past
/// it an allocation fails and the process aborts.
fn within(kb: u32, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -d {kb} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_mcp-triage"))
        .args(args)
        .env_remove("MCP_TRIAGE_PAGE")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// The data segment a whole `--json` run against bodies just under the cap may use: 320 MiB. It
/// counts what peak RSS does not (each request thread's malloc arena and stack), so it stands above
/// the 256 MB peak RSS goal (232 MB measured with `/usr/bin/time`), and far below the 1.1 GB the
/// report once took.
const HEAP_KIB: u32 = 320 * 1024;

#[test]
fn a_json_report_of_bodies_just_under_the_cap_is_made_in_bounded_memory() {
    let _server = hostile(18993);
    let env = [("T", "fat-test-token-0123456789")];
    let args = [
        "probe",
        "http://127.0.0.1:18993/fat/mcp",
        "--token-env",
        "T",
        "--json",
    ];
    let out = within(HEAP_KIB, &args, &env);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(record_of(&report, "D")["assessment"]["cause"], "none");
    // Each body once (report /2): the report is its bodies and a little more, not twice them (/1
    // kept each answer's parsed message beside its body).
    let bodies: usize = report["records"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| {
                    let resp = &r["exchange"]["response"];
                    [&resp["body"], &resp["body_base64"]]
                        .iter()
                        .filter_map(|b| b.as_str())
                        .map(str::len)
                        .sum::<usize>()
                })
                .sum()
        })
        .unwrap_or(0);
    assert!(
        bodies > 3 * 4 * 1024 * 1024,
        "bodies near the cap were kept: {bodies}"
    );
    assert!(
        stdout.len() < bodies + 512 * 1024,
        "the report is {} bytes for {bodies} bytes of bodies",
        stdout.len()
    );
    // The control: the same run within 32 MiB cannot be made, so the limit is felt.
    let starved = within(32 * 1024, &args, &env);
    assert_ne!(starved.status.code(), Some(0), "the limit must bite");
}

#[test]
fn a_waves_requests_go_out_together_as_the_page_sends_them() {
    // The server answers B, C and D only once all three are in flight at once: one after another,
    // the first is never answered.
    let _server = hostile(18991);
    let out = probe(
        &[
            "http://127.0.0.1:18991/together/mcp",
            "--token-env",
            "T",
            "--json",
            "--time-limit",
            "12",
        ],
        &[("T", "together-token-0123456789")],
    );
    let (stdout, stderr) = text(&out);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    for p in ["B", "C", "D"] {
        let r = record_of(&report, p);
        assert!(
            r["exchange"]["transport_error"].is_null(),
            "probe {p} was not answered: {r}"
        );
    }
    assert_eq!(record_of(&report, "D")["assessment"]["cause"], "none");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Progress still names each request sent and each answer.
    assert!(
        stderr.contains("→ probe B") && stderr.contains("← probe D: success / none"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_echoes_the_token_leaves_no_trace_of_it_in_stdout_stderr_or_json() {
    let _hostile = hostile(18965);
    let s = Sentinels::new(0x05ee_dc11_u64);
    let url = "http://127.0.0.1:18965/echo/mcp";
    for json in [false, true] {
        let mut args = vec![url, "--token-env", "T", "--header-env", "X-Api-Key=H"];
        if json {
            args.push("--json");
        }
        let out = probe(&args, &[("T", &s.token), ("H", &s.header)]);
        let (stdout, stderr) = text(&out);
        for (name, secret) in [("token", &s.token), ("header", &s.header)] {
            for (channel, t) in [("stdout", &stdout), ("stderr", &stderr)] {
                assert!(
                    !leak::leaks(t, secret),
                    "json={json}: the {name} in {channel}: {:?}",
                    leak::found(t, secret)
                );
            }
        }
        // The control: the server did echo the token, and the report says so.
        // The JSON carries the flag's identifier, the text report its words.
        let flag = if json {
            "secret_echoed"
        } else {
            "secret echoed"
        };
        assert!(
            stdout.contains(flag),
            "json={json}: the echo was seen: {stdout}"
        );
    }
}

#[test]
fn write_plan_proposes_calls_for_unannotated_tools_and_plan_runs_them_only_where_it_opts_in() {
    let _server = demo(18966, &["--unannotated"]);
    let url = "http://127.0.0.1:18966/mcp";
    let token = [("T", "demo-token")];
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plan.json");
    let file_s = file.to_str().unwrap();
    // Without a plan: the unannotated tools are not called, and the proposal is written.
    let wrote = probe(&[url, "--token-env", "T", "--write-plan", file_s], &token);
    let (stdout, stderr) = text(&wrote);
    assert_eq!(wrote.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Probe D skipped"), "{stdout}");
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(plan["format"], "mcp-triage-plan/1");
    let entries = plan["probes"].as_array_mut().unwrap();
    let d = entries.iter().find(|e| e["probe"] == "D").unwrap();
    assert!(d["tool"].is_string() && d["opt_in"] == false, "{d}");
    // The plan as written (no opt-in) cannot call them: a usage error that says why.
    let refused = probe(&[url, "--token-env", "T", "--plan", file_s], &token);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused).1);
    assert!(
        text(&refused).1.contains("the plan cannot run"),
        "{}",
        text(&refused).1
    );
    // Committed with opt-ins: B, C and D run.
    for e in entries.iter_mut() {
        e["opt_in"] = serde_json::Value::Bool(true);
    }
    std::fs::write(&file, plan.to_string()).unwrap();
    let ran = probe(
        &[url, "--token-env", "T", "--plan", file_s, "--json"],
        &token,
    );
    let (stdout, stderr) = text(&ran);
    assert_eq!(ran.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let d_cause = report["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["exchange"]["intent"] == "D")
        .map(|r| r["assessment"]["channel"].clone());
    assert_eq!(d_cause, Some(serde_json::json!("success")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
