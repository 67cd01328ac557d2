//! The fetch module against a real local server that misbehaves on purpose (e2e/slow.mjs, started by
//! the test command): caps, deadlines, redirect refused, SSE split across chunks, abort. Limits are
//! inputs, so small ones keep these tests fast.

#![cfg(target_arch = "wasm32")]
// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mcp_triage::cause::{Cause, Channel};
use mcp_triage::engine::{Outgoing, Step};
use mcp_triage::exchange::{BodyEnd, TransportError};
use mcp_triage::{Limits, Options, classify};
use mcp_triage_web::net::{self, Credentials, FlightEvent, Flights};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn server() -> &'static str {
    option_env!("MCP_TRIAGE_SLOW_SERVER").unwrap_or("http://127.0.0.1:18820")
}

fn limits() -> Limits {
    Limits {
        max_body_bytes: 256 * 1024,
        max_sse_line_bytes: 64 * 1024,
        headers_deadline_ms: 2_000,
        idle_gap_ms: 500,
        request_total_ms: 2_500,
        ..Limits::default()
    }
}

fn request(path: &str) -> Outgoing {
    Outgoing {
        step: Step::Reply(1),
        method: "POST",
        url: format!("{}{path}", server()),
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: Some(
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}"#.into(),
        ),
        with_token: false,
        expect_id: Some(serde_json::json!(7)),
        headers_only: false,
        intent: None,
        wave: 1,
    }
}

/// The size tests' limits: deadlines far beyond any load a test machine has, so only a cap can end
/// these bodies (under a loaded CI, a 2.5 s total once ended the gzip bomb before its cap).
fn cap_limits() -> Limits {
    Limits {
        headers_deadline_ms: 60_000,
        idle_gap_ms: 60_000,
        request_total_ms: 60_000,
        ..limits()
    }
}

async fn send(path: &str) -> mcp_triage::Exchange {
    net::send(
        &request(path),
        &Credentials::default(),
        &cap_limits(),
        &Flights::default(),
        &|_| {},
        &|_| {},
    )
    .await
}

fn end(ex: &mcp_triage::Exchange) -> Option<BodyEnd> {
    ex.response.as_ref().and_then(|r| r.body_end)
}

#[wasm_bindgen_test]
async fn a_50_mib_body_stops_at_the_cap() {
    for path in ["/big", "/big-chunked", "/gzip-bomb"] {
        let ex = send(path).await;
        assert_eq!(end(&ex), Some(BodyEnd::SizeCap), "{path}");
        assert!(
            ex.response.as_ref().unwrap().body.as_ref().unwrap().len()
                <= cap_limits().max_body_bytes
        );
        let v = classify(
            &ex,
            &Options {
                limits: cap_limits(),
                ..Options::default()
            },
        );
        assert_eq!(
            (v.channel, v.cause),
            (Channel::Malformed, Cause::BodyTooLarge),
            "{path}"
        );
    }
}

#[wasm_bindgen_test]
async fn slow_and_endless_streams_end_at_a_deadline() {
    // These streams never end on their own, so returning at all means a deadline ended them; how
    // long that takes is not asserted here (timings belong to a benchmark).
    for path in ["/comments", "/drip", "/silent"] {
        let flights = Flights::default();
        let ex = net::send(
            &request(path),
            &Credentials::default(),
            &limits(),
            &flights,
            &|_| {},
            &|_| {},
        )
        .await;
        assert_eq!(end(&ex), Some(BodyEnd::Deadline), "{path}");
        assert_eq!(
            ex.response.as_ref().unwrap().body_complete,
            Some(false),
            "{path}"
        );
        assert_eq!(flights.abort_all(), 0, "{path}: still in flight");
        if path == "/comments" {
            // Keepalives arrived every 50 ms, under the idle gap, before the total deadline cut them.
            assert!(
                ex.response
                    .as_ref()
                    .unwrap()
                    .body
                    .as_ref()
                    .unwrap()
                    .contains(": keepalive"),
                "{path}"
            );
        }
        let v = classify(&ex, &Options::default());
        assert_eq!(
            (v.channel, v.cause),
            (Channel::Malformed, Cause::Timeout),
            "{path}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_10_mib_line_hits_the_line_cap() {
    let ex = send("/long-line").await;
    assert_eq!(end(&ex), Some(BodyEnd::SizeCap));
    assert!(
        ex.response.as_ref().unwrap().body.as_ref().unwrap().len() <= cap_limits().max_body_bytes
    );
    let v = classify(
        &ex,
        &Options {
            limits: cap_limits(),
            ..Options::default()
        },
    );
    assert!(
        v.problems
            .iter()
            .any(|p| p.contains("exceeds the line cap")),
        "{:?}",
        v.problems
    );
}

#[wasm_bindgen_test]
async fn a_redirect_is_refused_not_followed() {
    let ex = send("/redirect").await;
    assert!(ex.response.is_none());
    assert_eq!(ex.transport_error, Some(TransportError::RedirectRefused));
    assert_eq!(classify(&ex, &Options::default()).cause, Cause::Redirect);
}

#[wasm_bindgen_test]
async fn sse_split_across_chunks_still_finds_our_response_and_the_server_request() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let asked2 = asked.clone();
    let ex = net::send(
        &request("/split"),
        &Credentials::default(),
        &limits(),
        &Flights::default(),
        &|_| {},
        &move |v| asked2.borrow_mut().push(v),
    )
    .await;
    assert_eq!(end(&ex), Some(BodyEnd::StoppedAfterResponse));
    assert_eq!(
        asked.borrow().len(),
        1,
        "the ping was handed over to be answered"
    );
    let v = classify(&ex, &Options::default());
    assert_eq!(v.channel, Channel::ToolError);
    assert_eq!(v.server_requests, ["ping"]);
}

#[wasm_bindgen_test]
async fn abort_stops_a_request_in_flight() {
    let flights = Flights::default();
    let f2 = flights.clone();
    let out = request("/slow");
    let (creds, wide) = (Credentials::default(), Limits::default());
    // Cancel once the request is in flight: its headers are in and its endless body is being read.
    let aborted = Rc::new(Cell::new(None));
    let seen = aborted.clone();
    let on_event = move |e: FlightEvent| {
        if e == FlightEvent::Headers && seen.get().is_none() {
            seen.set(Some(f2.abort_all()));
        }
    };
    let ex = net::send(&out, &creds, &wide, &flights, &on_event, &|_| {}).await;
    assert_eq!(aborted.get(), Some(1), "aborted after the headers arrived");
    assert_eq!(flights.abort_all(), 0, "nothing left in flight");
    assert_eq!(end(&ex), Some(BodyEnd::Aborted));
    assert_eq!(classify(&ex, &Options::default()).cause, Cause::Aborted);
}
