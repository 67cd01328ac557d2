//! Words are output too: what a direct client (the command line) saw is said in its terms. A request
//! that got no answer names what was observed (a refused connection, a name that did not resolve,
//! TLS, a reset) with the place and the likely fix, and no output of a direct run speaks of a
//! browser or CORS. The control: with every failure worded as a browser saw it, the check fires.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::endpoint::parse_endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::export;
use mcp_triage::redact::Secrets;

const URL: &str = "http://127.0.0.1:9399/mcp";

/// An `initialize` a direct client sent and got no answer to, with what the client said.
fn unanswered(detail: &str) -> Exchange {
    serde_json::from_value(serde_json::json!({
        "format": "mcp-exchange/1",
        "vantage": "direct",
        "request": {
            "method": "POST",
            "url": URL,
            "headers": [["Content-Type", "application/json"]],
            "body": r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#
        },
        "response": null,
        "transport_error": "network",
        "transport_error_detail": detail,
        "intent": null
    }))
    .unwrap()
}

/// What the client said, by kind, as the reader writes it (its kind's words first).
const SAID: &[(&str, &str)] = &[
    (
        "the connection was refused: io: Connection refused (os error 111)",
        "Nothing answered at 127.0.0.1:9399: the connection was refused. Is the server running",
    ),
    (
        "the host name did not resolve: io: failed to lookup address information",
        "The host name in 127.0.0.1:9399 did not resolve",
    ),
    (
        "TLS failed: invalid peer certificate",
        "The TLS handshake with 127.0.0.1:9399 failed",
    ),
    (
        "the connection was reset: io: Connection reset by peer",
        "127.0.0.1:9399 reset the connection before it answered initialize",
    ),
    (
        "the request failed: io: something else",
        "The request to 127.0.0.1:9399 failed before the server answered initialize",
    ),
];

/// Every output a direct run makes, for one failure.
fn outputs(detail: &str) -> (String, Vec<String>) {
    let report = RunReport::from_exchanges(URL, vec![unanswered(detail)]);
    let ep = parse_endpoint(URL).unwrap();
    let none = Secrets::default();
    let all = vec![
        export::text(&report, &ep, false),
        export::report_json(&report, &ep, false, &none),
        export::markdown(&report, &ep, false, &none),
        export::junit(&report, &ep, false, &none, None, &[]),
    ];
    (report.headline.clone(), all)
}

fn browser_words(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.contains("browser") || lower.contains("cors doctor") || lower.contains("cors settings")
}

#[test]
fn a_direct_clients_failure_says_what_it_saw_and_never_blames_a_browser() {
    for (detail, headline) in SAID {
        let (said, all) = outputs(detail);
        assert!(said.starts_with(headline), "{detail}: {said}");
        for out in &all {
            assert!(!browser_words(out), "{detail}: browser words in\n{out}");
        }
    }
}

#[test]
fn the_no_browser_words_check_fires_on_its_seeded_bug() {
    mcp_triage::testing::with_browser_words_anywhere(|| {
        let (said, all) = outputs(SAID[0].0);
        assert!(said.starts_with("Your browser could not read"), "{said}");
        assert!(all.iter().any(|o| browser_words(o)));
    });
}
