//! Exports that cannot be turned against the user: the copied `curl` run by a real shell against a
//! stub `curl` that prints its arguments, and Markdown that shows server text as text.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::endpoint::parse_endpoint;
use mcp_triage::engine::{Engine, EngineConfig, Era, Mode};
use mcp_triage::exchange::Request;
use mcp_triage::export;
use mcp_triage::limits::Limits;
use mcp_triage::redact::Secrets;

/// Runs `command` with `sh -c` where `curl` is a stub printing one argument per line.
fn run_with_stub_curl(command: &str, env: &[(&str, &str)]) -> Vec<String> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-curl-stub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stub = dir.join("curl");
    std::fs::write(
        &stub,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&stub)
        .status()
        .unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .env_clear()
        .env("PATH", path)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_copied_curl_passes_names_and_values_literally_and_expands_only_the_secret_variables() {
    // Header names a hostile catalogue or a user could write: `$`, a backtick, a quote.
    let weird = "X-$(touch pwned)-`id`-'q'";
    let req = Request {
        method: "POST".into(),
        url: "https://mcp.example.com/mcp?a=1&b=$HOME".into(),
        headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("Authorization".into(), "Bearer [REDACTED]".into()),
            ("X-Key".into(), "[REDACTED]".into()),
            (weird.into(), "[REDACTED]".into()),
            ("X-Plain".into(), "it's $PATH `x`".into()),
        ],
        body: Some(r#"{"a":"it's $(whoami) `id`"}"#.into()),
    };
    let command = export::curl(&req, &["X-Key".into(), weird.into()]);
    let weird_var = export::header_env_name(weird);
    let args = run_with_stub_curl(
        &command,
        &[
            ("MCP_TOKEN", "tok'en$1"),
            ("MCP_HEADER_X_KEY", "key value"),
            (weird_var.as_str(), "weird-secret"),
        ],
    );
    let expect = |s: &str| assert!(args.iter().any(|a| a == s), "{s:?} not in {args:#?}");
    expect("https://mcp.example.com/mcp?a=1&b=$HOME");
    expect("Authorization: Bearer tok'en$1");
    expect("X-Key: key value");
    expect(&format!("{weird}: weird-secret"));
    expect("X-Plain: it's $PATH `x`");
    expect(r#"{"a":"it's $(whoami) `id`"}"#);
    assert!(!std::path::Path::new("pwned").exists());
}

#[test]
fn markdown_shows_server_text_as_text_and_redacts_once_more() {
    let cfg = EngineConfig {
        endpoint: parse_endpoint("https://mcp.example.com/mcp").unwrap(),
        era: Era::Legacy("2025-11-25".into()),
        mode: Mode::Quick,
        has_token: true,
        random: 1,
        limits: Limits::default(),
        client_version: "test".into(),
        secrets: Secrets::default(),
        transport: mcp_triage::exchange::Transport::Http,
    };
    let mut report = Engine::new(cfg).report();
    let evil = "<img src=x onerror=alert(1)> **bold** [link](javascript:alert(1)) &amp; # h | x";
    report.server_info = Some(serde_json::json!({"name": evil, "version": "1"}));
    report.summary.finding = format!("finding {evil}");
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    // Underscores would be escaped: the secret must be redacted before Markdown escaping.
    let secret = "a_secret_value_0123456789";
    report.notes.push(format!("note {secret}"));
    report
        .summary
        .finding
        .push_str(&format!(" echoed {secret}"));
    let md = export::markdown(&report, &ep, false, &Secrets::new([secret]));
    // Every markup character of the server's text stands escaped.
    for line in md
        .lines()
        .filter(|l| l.starts_with("- Server") || l.starts_with("- Distinguishability"))
    {
        let line = line.replace("[REDACTED]", "");
        let b = line.as_bytes();
        for (i, c) in b.iter().enumerate() {
            if b"<>*[]()&#|".contains(c) {
                assert_eq!(
                    b[i.saturating_sub(1)],
                    b'\\',
                    "unescaped {:?} at {i} in {line}",
                    *c as char
                );
            }
        }
    }
    assert!(md.contains("- Endpoint: `https://mcp.example.com`"), "{md}");
    assert!(
        md.contains(r"\<img src=x onerror=alert\(1\)\> \*\*bold\*\*"),
        "{md}"
    );
    assert!(!md.contains(secret), "{md}");
}

fn fixture(name: &str, intent: &str) -> mcp_triage::Exchange {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/exchanges/ts-1.29.0-stateless")
        .join(name);
    let mut ex = mcp_triage::Exchange::from_json(&std::fs::read(path).unwrap()).unwrap();
    ex.intent = Some(intent.into());
    ex
}

#[test]
fn markdown_rows_follow_the_cards_order_and_an_unanswered_probe_gets_no_advice() {
    // Answers in arrival order B, A, C, D, with C cut by a deadline.
    let mut c = fixture("C_tool_throws.pv2025-06-18.json", "C");
    c.response = None;
    c.transport_error = Some(mcp_triage::exchange::TransportError::Timeout);
    let report = mcp_triage::engine::RunReport::from_exchanges(
        "https://mcp.example.com/mcp",
        vec![
            fixture("B_missing_required_arg.pv2025-06-18.json", "B"),
            fixture("A_unknown_tool.pv2025-06-18.json", "A"),
            c,
            fixture("D_success.pv2025-06-18.json", "D"),
        ],
    );
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let md = export::markdown(&report, &ep, false, &Secrets::default());
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Probe"))
        .collect();
    let firsts: Vec<&str> = rows
        .iter()
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .split(' ')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(firsts, ["A", "B", "C", "D"], "{md}");
    assert!(
        rows[2].contains("— (Not answered: the deadline passed before the answer was read."),
        "{}",
        rows[2]
    );
    assert!(!rows[2].contains("retry"), "no advice for C: {}", rows[2]);
    assert!(rows[0].contains("pick another tool"), "{}", rows[0]);
    // Identifiers show as their table's words, never with underscores.
    assert!(md.contains("not applicable"), "{md}");
    assert!(!md.contains("not_applicable"), "{md}");
}

#[test]
fn junit_carries_server_text_as_escaped_xml_text_never_as_markup() {
    // A 401 whose challenge (which the evidence quotes) tries to close the element, open a script,
    // and carries characters XML 1.0 cannot hold; the endpoint's path is a key.
    let mut c = fixture("C_tool_throws.pv2025-06-18.json", "C");
    let hostile = "</system-out><script>alert(1)</script>&amp;]]>\u{1}\u{fffe}'\"";
    let resp = c.response.as_mut().unwrap();
    resp.status = 401;
    resp.headers = vec![(
        "WWW-Authenticate".into(),
        format!("Bearer error=\"{}\"", hostile.replace('"', "\\\"")),
    )];
    resp.body = None;
    let report = mcp_triage::engine::RunReport::from_exchanges(
        "https://mcp.example.com/k3y-in-path/mcp",
        vec![fixture("A_unknown_tool.pv2025-06-18.json", "A"), c],
    );
    let ep = parse_endpoint("https://mcp.example.com/k3y-in-path/mcp").unwrap();
    let xml = export::junit(&report, &ep, false, &Secrets::default(), None, &[]);
    assert!(
        !xml.contains("<script>") && !xml.contains("</system-out><"),
        "{xml}"
    );
    // Not vacuous: the server's text is there, as text.
    assert!(
        xml.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{xml}"
    );
    assert!(!xml.contains('\u{1}') && !xml.contains('\u{fffe}'), "{xml}");
    assert!(!xml.contains("k3y-in-path"), "the path is hidden: {xml}");
    // Every element opened is closed, in order: a tiny well-formedness check on the tag stream.
    let mut stack: Vec<String> = Vec::new();
    for tag in xml.split('<').skip(1).map(|t| t.split('>').next().unwrap()) {
        if tag.starts_with('?') || tag.ends_with('/') {
            continue;
        }
        let name = tag
            .trim_start_matches('/')
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        if tag.starts_with('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "{xml}");
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "{xml}");
    // The probes that did not run are skipped, and A's deviation fails.
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(xml.contains("<skipped message=\"Probe B"), "{xml}");
}

#[test]
/// The page's CORS doctor after an Auto run that fell back from 2026-07-28: it asks about the
/// request that was blocked, says the fallback first, draws nothing when nothing is left blocked, and
/// the JSON download carries its conclusion.
fn a_run_that_fell_back_is_diagnosed_for_the_blocked_era_and_only_while_something_is_blocked() {
    use mcp_triage::cors::{DiagOutcome, Doctor};
    use mcp_triage::engine::RunReport;
    use mcp_triage::exchange::Exchange;
    let exchange =
        |doc: serde_json::Value| Exchange::from_json(doc.to_string().as_bytes()).unwrap();
    let blocked = exchange(serde_json::json!({
        "format": "mcp-exchange/1", "vantage": "browser",
        "request": {"method": "POST", "url": "https://mcp.example.com/mcp",
            "headers": [["Content-Type", "application/json"], ["Mcp-Method", "server/discover"]],
            "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}"},
        "response": null, "transport_error": "network"
    }));
    let init = exchange(serde_json::json!({
        "format": "mcp-exchange/1", "vantage": "browser", "negotiated_version": "2025-11-25",
        "request": {"method": "POST", "url": "https://mcp.example.com/mcp",
            "headers": [["Content-Type", "application/json"]],
            "body": "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\"}"},
        "response": {"status": 200, "headers": [["content-type", "application/json"]],
            "body": "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":\"2025-11-25\"}}"}
    }));
    let report = RunReport::from_exchanges("https://mcp.example.com/mcp", vec![blocked, init]);
    // The origin line reads the connect the run went on with, not the blocked one.
    let origin = report.origin.as_ref().map(|o| o.reason.as_str());
    assert!(
        origin.is_some_and(|r| r.contains("was accepted")),
        "{origin:?}"
    );
    let call = report.cors_doctor().unwrap();
    assert!(call.modern, "the blocked request was 2026-07-28's");
    assert_eq!(call.fell_back_to.as_deref(), Some("2025-11-25"));
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let run = |refuse: &str| {
        let mut doctor = Doctor::new(call.modern, &[]);
        while let Some(r) = doctor.next_request().cloned() {
            doctor.record(if r.step == refuse {
                DiagOutcome::Rejected {
                    detail: "blocked".into(),
                }
            } else {
                DiagOutcome::Answered { status: 200 }
            });
        }
        doctor.diagnosis_of_run("https://page.example", &ep, &call)
    };
    // Every diagnostic request got through: nothing is left blocked, so no doctor box.
    assert_eq!(run("none"), None);
    // The preflight refuses Mcp-Method: that step, with the fallback said first.
    let d = run("allow_method_name").unwrap();
    assert_eq!(d.blocked_step, Some("allow_method_name"));
    // The page's JSON download carries it; without a diagnosis there is no such field.
    let secrets = Secrets::default();
    let json = |doctor| {
        let text = export::report_json_with_doctor(&report, &ep, false, &secrets, doctor);
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    assert_eq!(
        json(Some(&d))["cors_doctor"]["blocked_step"],
        "allow_method_name"
    );
    assert!(json(None).get("cors_doctor").is_none());
    assert!(
        d.conclusion.starts_with(
            "The browser blocked 2026-07-28, so the run fell back and ran in 2025-11-25. Most likely"
        ),
        "{}",
        d.conclusion
    );
}
