//! `probe --oauth` against real authorization servers: the TypeScript SDK 1.32.2 OAuth example
//! (`--oauth`, `--oauth-strict`), signed in with `--no-browser` by following the printed URL as a
//! browser would (its demo authorization server approves at once and sends the browser back to
//! the loopback listener), then the four probes with the token; and the hostile metadata server
//! (`e2e/auth-hostile.mjs`) for what no real server does on purpose, with the leak checker over
//! every output and the sign-in's secrets as sentinels.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use common::{Server, leak_control_command, log_of, sdk_oauth, start};
use mcp_triage::testing::leak;
use serde_json::Value;

/// What a signed-in run left: its exit status, standard output and standard error.
struct Ran {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Runs `probe URL --oauth --no-browser ARGS…` and plays the browser: the authorization URL the
/// command prints is fetched without following redirects, and its `Location` (the loopback
/// callback) is fetched in turn. `browse` false: only the command's own refusal is awaited.
fn sign_in(url: &str, extra: &[&str], browse: bool) -> Ran {
    sign_in_with(
        env!("CARGO_BIN_EXE_mcp-triage").as_ref(),
        url,
        extra,
        browse,
    )
}

/// [`sign_in`] with the command at `program`.
fn sign_in_with(program: &Path, url: &str, extra: &[&str], browse: bool) -> Ran {
    let mut child = Command::new(program)
        .arg("probe")
        .args([url, "--oauth", "--no-browser"])
        .args(extra)
        .env_remove("MCP_TRIAGE_PAGE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut err = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        err.push_str(&line);
        let shown = line.trim().to_string();
        line.clear();
        if browse && shown.starts_with("http") && shown.contains("code_challenge=") {
            let agent = ureq::Agent::config_builder()
                .max_redirects(0)
                .http_status_as_error(false)
                .build()
                .new_agent();
            let answer = agent.get(&shown).call().unwrap();
            assert_eq!(
                answer.status(),
                302,
                "the authorization server sends the browser back"
            );
            let back = answer
                .headers()
                .get("location")
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            assert!(back.starts_with("http://127.0.0.1:"), "{back}");
            let page = agent.get(&back).call().unwrap();
            assert_eq!(page.status(), 200);
        }
    }
    let status = child.wait().unwrap().code().unwrap_or(-1);
    Ran {
        status,
        stdout: out.join().unwrap(),
        stderr: err,
    }
}

#[test]
fn the_sdk_oauth_example_is_signed_in_and_checked_with_its_token() {
    for (port, strict) in [(18920, false), (18922, true)] {
        let _server = sdk_oauth(port, strict);
        let url = format!("http://localhost:{port}/mcp");
        let ran = sign_in(&url, &["--json"], true);
        let report: Value =
            serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.stderr));
        // The run went on with the token: the probes it sent were answered (the example declares
        // which tools are read-only; the others are skipped, as in every run).
        let records = report["records"].as_array().unwrap();
        let probes = records
            .iter()
            .filter(|r| {
                ["A", "B", "C", "D"].contains(&r["exchange"]["intent"].as_str().unwrap_or(""))
            })
            .count();
        assert!(probes >= 2, "strict {strict}: {}", ran.stderr);
        // Only the check that leaves the token out on purpose got a 401.
        let refused: Vec<&Value> = records
            .iter()
            .filter(|r| r["exchange"]["response"]["status"] == 401)
            .map(|r| &r["exchange"]["intent"])
            .collect();
        assert_eq!(refused.len(), 1, "strict {strict}: {refused:?}");
        let notes = report["notes"].to_string();
        assert!(
            notes.contains("Signed in with OAuth at") && notes.contains("registered dynamically"),
            "{notes}"
        );
        assert_eq!(report["auth"]["cards"][0]["step"], "challenge");
        assert!(
            ran.stderr.contains("sign-in: Auth · client registration"),
            "{}",
            ran.stderr
        );
        assert_eq!(ran.status, 0, "strict {strict}: {}", ran.stderr);
    }
}

/// The hostile server on `port` with `sentinel`, its other origin on `port + 1`.
fn hostile(port: u16, sentinel: &str) -> Server {
    let p = port.to_string();
    start(
        "node",
        &["e2e/auth-hostile.mjs", "--port", &p, "--sentinel", sentinel],
        port,
    )
}

#[test]
fn a_hostile_authorization_server_is_refused_and_nothing_is_sent_where_it_must_not_go() {
    let sentinel = format!("mcptriageSENTINEL_{}", std::process::id());
    let _server = hostile(18994, &sentinel);
    for (case, browse, refusal) in [
        ("iss-mismatch", true, "is not the expected issuer"),
        ("no-state", true, "carries no state"),
        (
            "bad-endpoints",
            false,
            "no token endpoint on the issuer's origin",
        ),
        (
            "js-authorize",
            false,
            "no authorization endpoint that may be opened",
        ),
        ("no-pkce", false, "does not advertise PKCE with S256"),
    ] {
        let url = format!("http://localhost:18994/{case}/mcp");
        let ran = sign_in(&url, &[], browse);
        assert_eq!(ran.status, 3, "{case}: refused, exit 3: {}", ran.stderr);
        assert!(
            ran.stderr.contains("sign-in refused") && ran.stderr.contains(refusal),
            "{case}: {}",
            ran.stderr
        );
        assert!(
            !ran.stderr.contains("javascript:"),
            "{case}: a javascript: URL is never shown as one to open"
        );
        assert!(
            ran.stdout.contains("sign-in refused"),
            "{case}: the report says so"
        );
    }
    // No token request of a refused sign-in was made, and the other origin heard nothing.
    let log = log_of(18994);
    assert!(
        log.iter()
            .all(|r| !r["path"].as_str().unwrap().ends_with("/token")),
        "{log:#?}"
    );
    assert!(log_of(18995).is_empty(), "nothing went to the other origin");
}

#[test]
fn the_sign_ins_secrets_reach_no_output() {
    let sentinel = format!("mcptriageSENTINEL_{}x", std::process::id());
    let _server = hostile(18924, &sentinel);
    let url = "http://localhost:18924/good/mcp";
    let junit = common::temp("signin.xml");
    let ran = sign_in(
        url,
        &["--json", "--share", "--junit", junit.to_str().unwrap()],
        true,
    );
    let markdown = sign_in(url, &["--markdown"], true);
    let text = sign_in(url, &[], true);
    // The secrets, as the server gave them and as the command sent them.
    let log = log_of(18924);
    let token_request = log
        .iter()
        .find(|r| r["path"] == "/good/token")
        .and_then(|r| r["body"].as_str())
        .expect("the token request")
        .to_string();
    let verifier = token_request
        .split('&')
        .find_map(|p| p.strip_prefix("code_verifier="))
        .unwrap()
        .to_string();
    let secrets = [
        format!("{sentinel}-access"),
        format!("{sentinel}-refresh"),
        format!("{sentinel}-code"),
        verifier,
    ];
    // The run sent the token where it belongs: the endpoint's own requests.
    assert!(
        log.iter()
            .any(|r| r["authorization"] == format!("Bearer {sentinel}-access"))
    );
    let outputs = [
        ("stdout --json --share", ran.stdout.clone()),
        ("stderr", ran.stderr.clone()),
        ("junit", std::fs::read_to_string(&junit).unwrap()),
        ("markdown", markdown.stdout.clone()),
        ("text", text.stdout.clone()),
        ("text stderr", text.stderr.clone()),
    ];
    for secret in &secrets {
        for (name, out) in &outputs {
            assert!(
                !leak::leaks(out, secret),
                "{name}: {:?}",
                leak::found(out, secret)
            );
        }
        // Control: the checker finds each secret where it was sent (the server's own log).
        assert!(leak::leaks(&serde_json::to_string(&log).unwrap(), secret));
    }
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    assert!(report["share"].as_str().unwrap().contains("#r=v14."));
    // The control: the same sign-in by the command with redaction switched off shows the token
    // the server echoed, so the checks above can fail.
    let control = sign_in_with(&leak_control_command(), url, &["--json", "--share"], true);
    let echoed = format!("{sentinel}-access");
    assert!(
        leak::leaks(&control.stdout, &echoed),
        "the control must leak: {}",
        control.stderr
    );
}

/// Our SDK-router peer with refresh tokens (`--as renew`) on `port`, its authorization server on
/// `port + 1`, with `flags`.
fn renewing(port: u16, flags: &[&str]) -> Server {
    let p = port.to_string();
    let mut args = vec!["e2e/peers/oauth/server.mjs", "--as", "renew", "--port", &p];
    args.extend(flags);
    start("node", &args, port)
}

/// The grants the peer's authorization server on `port` answered, each with the tokens it gave.
fn grants_of(port: u16) -> Vec<Value> {
    let body = ureq::get(&format!("http://127.0.0.1:{port}/__grants"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    serde_json::from_str::<Value>(&body)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// What a renewed run must show: exit 0, no refusal left in the records but the token-less
/// check's 401, the note, and none of the tokens the server gave in any output (the control: the
/// checker finds each in the server's own list).
fn assert_renewed(ran: &Ran, grants: &[Value], note: &str) {
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    let refused: Vec<&Value> = report["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| [401, 403].contains(&r["exchange"]["response"]["status"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(refused.len(), 1, "only the token-less check: {refused:#?}");
    let notes = report["notes"].to_string();
    assert!(notes.contains(note), "{notes}");
    let log = serde_json::to_string(grants).unwrap();
    for g in grants {
        for secret in [&g["access_token"], &g["refresh_token"]] {
            let secret = secret.as_str().unwrap();
            for (name, out) in [("stdout", &ran.stdout), ("stderr", &ran.stderr)] {
                assert!(
                    !leak::leaks(out, secret),
                    "{name}: {:?}",
                    leak::found(out, secret)
                );
            }
            assert!(leak::leaks(&log, secret), "control");
        }
    }
}

#[test]
fn a_token_that_expires_during_the_run_is_refreshed_once() {
    let _server = renewing(18984, &["--expire-after", "3"]);
    let ran = sign_in("http://localhost:18984/mcp", &["--json", "--share"], true);
    let grants = grants_of(18985);
    // One sign-in, then one refresh, with the refresh token the sign-in got.
    let kinds: Vec<&str> = grants
        .iter()
        .map(|g| g["grant"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["authorization_code", "refresh_token"],
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("refreshing it once"), "{}", ran.stderr);
    assert_renewed(
        &ran,
        &grants,
        "got HTTP 401 (error \\\"invalid_token\\\"); the token was refreshed once and the request sent again",
    );
}

#[test]
fn a_call_that_needs_more_scope_steps_up_once() {
    let _server = renewing(18986, &["--step-up"]);
    let ran = sign_in("http://localhost:18986/mcp", &["--json", "--share"], true);
    let grants = grants_of(18987);
    // Two authorizations: the challenge's scope, then the larger one the 403 named.
    let scopes: Vec<(&str, &str)> = grants
        .iter()
        .map(|g| (g["grant"].as_str().unwrap(), g["scope"].as_str().unwrap()))
        .collect();
    assert_eq!(
        scopes,
        [
            ("authorization_code", "mcp:tools"),
            ("authorization_code", "mcp:tools mcp:call")
        ],
        "{}",
        ran.stderr
    );
    // Each authorization URL was opened with its own PKCE challenge and state.
    let urls: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|l| l.contains("code_challenge="))
        .collect();
    assert_eq!(urls.len(), 2, "{}", ran.stderr);
    let param = |u: &str, k: &str| {
        u.split(['?', '&'])
            .find_map(|p| p.strip_prefix(&format!("{k}=")))
            .unwrap()
            .to_string()
    };
    for k in ["code_challenge", "state"] {
        assert_ne!(param(urls[0], k), param(urls[1], k), "{k}");
    }
    assert_eq!(
        param(urls[0], "redirect_uri"),
        param(urls[1], "redirect_uri")
    );
    assert_renewed(&ran, &grants, "(step-up) and the request sent again");
}
