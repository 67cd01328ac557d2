//! What the command line says around its verdicts is true where it is read: a terminal has no
//! browser, a probe nobody skipped is not "skipped by you", a refused token is not a missing one,
//! the path scrub leaves our identifiers alone, and a reader that closes the pipe is not a local
//! failure. Against real servers started here (the TypeScript SDK 1.29.0 demo, the hostile
//! server's redirect route) and a port where nothing listens.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::{demo, hostile, probe, temp, text};

fn browser_words(out: &str) -> bool {
    let lower = out.to_lowercase();
    lower.contains("browser") || lower.contains("cors doctor") || lower.contains("cors settings")
}

#[test]
fn nothing_listening_and_a_name_that_does_not_resolve_are_said_as_seen_with_the_fix() {
    // Nothing listens on this port (no test starts a server there).
    let refused = probe(&["http://127.0.0.1:18601/mcp"], &[]);
    let (stdout, stderr) = text(&refused);
    assert_eq!(refused.status.code(), Some(3), "{stderr}");
    assert!(
        stdout.contains(
            "Nothing answered at 127.0.0.1:18601: the connection was refused. Is the server running, and on that port?"
        ),
        "{stdout}"
    );
    assert!(!browser_words(&stdout), "{stdout}");
    for form in ["--json", "--markdown"] {
        let out = probe(&["http://127.0.0.1:18601/mcp", form], &[]);
        let said = text(&out).0;
        assert!(
            said.contains("Nothing answered at 127.0.0.1:18601"),
            "{form}: {said}"
        );
        assert!(!browser_words(&said), "{form}: {said}");
    }
    // `.invalid` never resolves (RFC 6761); the run's time limit bounds the wait.
    let unresolved = probe(
        &["https://mcp-triage-test.invalid/mcp", "--time-limit", "10"],
        &[],
    );
    let (stdout, stderr) = text(&unresolved);
    assert_eq!(unresolved.status.code(), Some(3), "{stderr}");
    assert!(
        stdout.contains("The host name in mcp-triage-test.invalid:443 did not resolve"),
        "{stdout}"
    );
    assert!(!browser_words(&stdout), "{stdout}");
}

#[test]
fn a_probe_nobody_skipped_says_why_and_how_to_run_it_in_every_output() {
    let _server = demo(18602, &["--unannotated"]);
    let url = "http://127.0.0.1:18602/mcp";
    let token = [("T", "demo-token")];
    let junit = temp("words-unannotated.xml");
    let junit = junit.to_str().unwrap();
    let plain = probe(&[url, "--token-env", "T", "--junit", junit], &token);
    let (stdout, stderr) = text(&plain);
    assert_eq!(plain.status.code(), Some(0), "{stderr}");
    let md = probe(&[url, "--token-env", "T", "--markdown"], &token);
    let json = probe(&[url, "--token-env", "T", "--json"], &token);
    let xml = std::fs::read_to_string(junit).unwrap();
    for (form, out) in [
        ("text", stdout.clone()),
        ("markdown", text(&md).0),
        ("json", text(&json).0),
        ("junit", xml.clone()),
    ] {
        assert!(!out.contains("skipped by you"), "{form}: {out}");
        assert!(
            out.contains("--write-plan plan.json") && out.contains("--plan plan.json"),
            "{form}: what to do next: {out}"
        );
    }
    assert!(
        stdout.contains("Probe B skipped: no tool declared readOnlyHint: true"),
        "{stdout}"
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    for p in 1..4 {
        let why = report["probes"][p]["skipped"].as_str().unwrap();
        assert!(why.starts_with("no_safe_tool"), "probe {p}: {why}");
    }
    assert!(
        xml.contains("<skipped message=\"Probe B skipped: no tool declared"),
        "{xml}"
    );
    // A plan that opts in to nothing: the refusal says how the file agrees.
    let plan = temp("words-plan.json");
    std::fs::write(
        &plan,
        r#"{"format":"mcp-triage-plan/1","probes":[{"probe":"D","tool":"crm_sync"}]}"#,
    )
    .unwrap();
    let refused = probe(
        &[url, "--token-env", "T", "--plan", plan.to_str().unwrap()],
        &token,
    );
    let stderr = text(&refused).1;
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("set \"opt_in\": true on this call in the plan file"),
        "{stderr}"
    );
    assert!(!stderr.contains("tick the opt-in"), "{stderr}");
}

#[test]
fn a_refused_token_is_not_a_missing_one() {
    let _server = demo(18603, &[]);
    let url = "http://127.0.0.1:18603/mcp";
    let none = probe(&[url], &[]);
    let said = text(&none).0;
    assert_eq!(none.status.code(), Some(3));
    assert!(
        said.contains("The server needs a token (401) and this run sent none: pass one with --token-env VAR, or sign in with --oauth."),
        "{said}"
    );
    let wrong = probe(&[url, "--token-env", "T"], &[("T", "not-the-demo-token")]);
    let said = text(&wrong).0;
    assert_eq!(wrong.status.code(), Some(3));
    assert!(said.contains("The server refused the token (401"), "{said}");
    assert!(!said.contains("sent none"), "{said}");
}

#[test]
fn the_path_scrub_hides_the_path_never_our_identifiers() {
    let _server = hostile(18609);
    let out = probe(&["http://127.0.0.1:18609/redirect/mcp", "--json"], &[]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let connect = &report["records"][0];
    assert_eq!(connect["assessment"]["cause"], "redirect", "{connect}");
    assert_eq!(
        connect["assessment"]["advice"]["server"], "Serve MCP at a stable URL without redirects.",
        "our sentences stay whole"
    );
    assert_eq!(
        connect["exchange"]["transport_error"], "redirect_refused",
        "{connect}"
    );
    assert_eq!(report["endpoint"], "http://127.0.0.1:18609/[path hidden]");
}

#[test]
fn a_redirect_that_only_adds_a_slash_is_named_with_the_address_to_use() {
    let _server = hostile(18608);
    let hint =
        "it points to the same address with a trailing slash: use that address as the endpoint";
    let out = probe(&["http://127.0.0.1:18608/slash/mcp"], &[]);
    let stdout = text(&out).0;
    assert!(
        stdout.contains(&format!(
            "was not read: the server answered with a redirect, which is never followed; {hint}."
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("Location: /[path hidden]/ (not followed)"),
        "{stdout}"
    );
    // The control: a redirect to another place names no address to use.
    let out = probe(&["http://127.0.0.1:18608/redirect/mcp"], &[]);
    let stdout = text(&out).0;
    assert!(
        stdout.contains("redirect, which is never followed"),
        "{stdout}"
    );
    assert!(!stdout.contains(hint), "{stdout}");
}

#[test]
fn a_reader_that_closes_the_pipe_ends_the_run_quietly_with_its_status() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args(["probe", "http://127.0.0.1:18605/mcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `| true`: the reader is gone before anything is written.
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "the run's own status: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_text_report_and_the_markdown_open_with_what_to_change_first_on_live_peers() {
    let _demo = demo(18606, &[]);
    let _py = common::python_peer(18607);
    let token = [("T", "demo-token")];
    for (url, env, want) in [
        (
            "http://127.0.0.1:18606/mcp",
            &token[..],
            "Fix first (A · Unknown tool, by the server author): Answer an unknown tool with a JSON-RPC error (-32602), not an isError result, so clients can tell it from a failed run.",
        ),
        ("http://127.0.0.1:18607/mcp", &[][..], "Fix first ("),
    ] {
        let args: Vec<&str> = if env.is_empty() {
            vec![url]
        } else {
            vec![url, "--token-env", "T"]
        };
        let out = probe(&args, env);
        let stdout = text(&out).0;
        let first = stdout.lines().next().unwrap_or_default();
        assert!(first.starts_with(want), "{url}: {stdout}");
        let mut md_args = args.clone();
        md_args.push("--markdown");
        let md = text(&probe(&md_args, env)).0;
        let md_first = md.lines().next().unwrap_or_default().replace('\\', "");
        assert_eq!(md_first, format!("**{first}**"), "{url}");
    }
}
