//! `probe --auth-check` against real authorization setups: the TypeScript SDK 1.32.2 example server
//! with its demo OAuth server (`--oauth`, `--oauth-strict`), and a hostile metadata server of ours
//! (`e2e/auth-hostile.mjs`) for what no real server does on purpose. Every answer is read from the
//! JSON report; what the servers received is read from their own logs.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{log_of, probe, sdk_oauth, start, start_with};
use serde_json::Value;

/// The report's auth cards: (step, [(check, conformance)]).
fn auth_cards(report: &Value) -> Vec<(String, Vec<(String, String)>)> {
    report["auth"]["cards"]
        .as_array()
        .unwrap_or_else(|| panic!("no auth cards: {report:#}"))
        .iter()
        .map(|c| {
            let findings = c["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    (
                        f["check"].as_str().unwrap().to_string(),
                        f["conformance"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            (c["step"].as_str().unwrap().to_string(), findings)
        })
        .collect()
}

fn verdict_of(report: &Value, check: &str) -> String {
    auth_cards(report)
        .into_iter()
        .flat_map(|(_, f)| f)
        .find(|(c, _)| c == check)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no {check}: {report:#}"))
}

/// The doctor walked the five cards a conforming setup gives (no call of the registration or token
/// endpoint: that is the page's), and nothing deviates.
fn walked_to_the_end_and_conforms(report: &Value, what: &str) {
    let cards = auth_cards(report);
    let steps: Vec<&str> = cards.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        steps,
        [
            "challenge",
            "prm_from_challenge",
            "as_oauth",
            "registration",
            "authorization_url"
        ],
        "{what}"
    );
    for (step, findings) in &cards {
        for (check, v) in findings {
            assert_ne!(v, "deviates", "{what}: {step} {check}");
        }
    }
}

fn check_json(url: &str, extra: &[&str], env: &[(&str, &str)]) -> Value {
    let mut args = vec![url, "--auth-check", "--json"];
    args.extend_from_slice(extra);
    let out = probe(&args, env);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn the_sdk_oauth_example_is_walked_to_its_authorization_url_and_conforms() {
    for (port, strict) in [(18942, false), (18944, true)] {
        let _server = sdk_oauth(port, strict);
        let url = format!("http://localhost:{port}/mcp");
        let report = check_json(&url, &["--era", "2025-11-25"], &[]);
        walked_to_the_end_and_conforms(&report, &format!("strict {strict}"));
        assert_eq!(verdict_of(&report, "as_pkce_s256"), "conforms");
        assert_eq!(verdict_of(&report, "prm_resource_matches"), "conforms");
        assert_eq!(report["auth"]["fetches"], 2);
        // Judged against 2026-07-28, the example's dynamic-registration-only offer is deprecated.
        let modern = check_json(&url, &["--era", "2026-07-28"], &[]);
        assert_eq!(verdict_of(&modern, "registration_not_dcr_only"), "deviates");
    }
}

#[test]
fn the_auth_cards_reach_every_output() {
    let _server = sdk_oauth(18946, false);
    let url = "http://localhost:18946/mcp";
    let junit = common::temp("auth.xml");
    let out = probe(
        &[
            url,
            "--auth-check",
            "--markdown",
            "--junit",
            junit.to_str().unwrap(),
        ],
        &[],
    );
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("#### Authorization discovery"), "{md}");
    assert!(md.contains("| as pkce s256 | conforms (must)"), "{md}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("classname=\"mcp-triage.auth\""),
        "one JUnit case per finding: {xml}"
    );
    let text = probe(&[url, "--auth-check"], &[]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Authorization discovery · Judged against 2025-11-25"),
        "{text}"
    );
    // A share link carries the verdicts (payload v11), checked by the core's own decoder.
    let linked = probe(&[url, "--auth-check", "--json", "--share"], &[]);
    let linked: Value = serde_json::from_slice(&linked.stdout).unwrap();
    let link = linked["share"].as_str().unwrap();
    let fragment = &link[link.find('#').unwrap()..];
    assert!(fragment.starts_with("#r=v14."), "{fragment}");
    let payload = mcp_triage::share::decode(fragment).unwrap();
    let (revision, cards) = payload.auth.expect("the doctor's cards in the link");
    assert_eq!((revision.as_str(), cards.len()), ("2025-11-25", 5));
    // v12: the CORS verdicts, here only that the command line judges none.
    let (conclusion, verdicts) = payload.browser.expect("the CORS verdicts in the link");
    assert!(conclusion.starts_with("CORS not judged"), "{conclusion}");
    assert_eq!(
        verdicts,
        [(
            "registration".to_string(),
            "not_judged".to_string(),
            verdicts[0].2.clone()
        )]
    );
    // Without the flag nothing changes: no auth section, no discovery fetch.
    let plain = probe(&[url, "--json"], &[]);
    let plain: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain.get("auth").is_none());
}

#[test]
fn oidc_provider_without_cors_on_registration_is_not_judged_from_the_command_line() {
    // oidc-provider 9 in front of our MCP server: the page names its registration endpoint as the
    // stop (e2e/tests/signin.mjs); a command-line client has no CORS, and the card says so.
    let _server = start_with(
        "node",
        &[
            "e2e/peers/oauth/server.mjs",
            "--as",
            "oidc",
            "--port",
            "18948",
        ],
        &[],
        18948,
    );
    let report = check_json("http://localhost:18948/mcp", &[], &[]);
    // No call of the registration or token endpoint from the command line.
    walked_to_the_end_and_conforms(&report, "oidc-provider");
    let registration = report["auth"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["step"] == "registration")
        .unwrap();
    assert_eq!(registration["url"], "http://localhost:18949/reg");
    assert_eq!(
        registration["browser"]["access"], "not_judged",
        "{registration:#}"
    );
    assert!(
        report["auth"]["browser"]
            .as_str()
            .unwrap()
            .starts_with("CORS not judged: a command-line client has none"),
        "{report:#}"
    );
    assert_eq!(report["auth"]["fetches"], 2);
}

#[test]
fn a_hostile_metadata_server_is_bounded_and_flagged_and_nothing_goes_where_it_must_not() {
    let port = 18940;
    let _server = start(
        "node",
        &["e2e/auth-hostile.mjs", "--port", &port.to_string()],
        port,
    );
    let secret = "mcptriageSENTINELauthdoctorAbCdEfGhIjKlMnOp";
    let env = [("AUTH_TEST_TOKEN", secret)];
    let url = |case: &str| format!("http://localhost:{port}/{case}/mcp");
    let run = |case: &str| {
        check_json(
            &url(case),
            // The path shown: the cases' names are words the path scrub would hide.
            &[
                "--era",
                "2025-11-25",
                "--token-env",
                "AUTH_TEST_TOKEN",
                "--include-path",
            ],
            &env,
        )
    };
    // The baseline conforms: what deviates below deviates for its case alone.
    let good = run("good");
    assert!(
        !good.to_string().contains(secret),
        "the token is in the report"
    );
    for (step, findings) in auth_cards(&good) {
        for (check, v) in findings {
            assert_ne!(v, "deviates", "good: {step} {check}");
        }
    }
    for (case, check) in [
        ("issuer-mismatch", "as_issuer_matches"),
        ("no-pkce", "as_pkce_s256"),
        ("bad-endpoints", "as_endpoints_https"),
        ("bad-endpoints", "as_endpoints_on_issuer_origin"),
        ("prm-huge", "prm_found"),
        ("prm-redirect", "prm_found"),
        ("prm-loop", "prm_found"),
        ("prm-not-json", "prm_found"),
        ("private-as", "as_metadata_found"),
        ("loopback-as", "as_metadata_found"),
    ] {
        let report = run(case);
        assert_eq!(verdict_of(&report, check), "deviates", "{case}: {check}");
        let n = report["auth"]["fetches"].as_u64().unwrap();
        assert!(n <= 12, "{case}: {n} fetches");
    }
    let bad = run("bad-endpoints");
    let last = auth_cards(&bad).pop().unwrap();
    assert_eq!(last.0, "authorization_url");
    assert!(
        bad["auth"]["cards"].as_array().unwrap().last().unwrap()["url"].is_null(),
        "a javascript: authorization endpoint is never offered to open"
    );
    // What the servers received: the token only on the MCP endpoint; no discovery fetch carried
    // it; the other origin (redirect target, off-origin token endpoint, loopback literal) and the
    // private address got nothing.
    let log = log_of(port);
    for entry in &log {
        let path = entry["path"].as_str().unwrap();
        let auth = entry["authorization"].as_str();
        if path.starts_with("/.well-known/") {
            assert_eq!(
                auth, None,
                "a discovery fetch carried a credential: {entry}"
            );
        }
    }
    assert!(log.iter().any(|e| {
        e["path"]
            .as_str()
            .unwrap()
            .starts_with("/.well-known/oauth-authorization-server/")
    }));
    let elsewhere = log_of(port + 1);
    assert!(
        elsewhere.is_empty(),
        "the other origin was reached: {elsewhere:?}"
    );
}
