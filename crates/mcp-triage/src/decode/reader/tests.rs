//! Unit tests of the request reader: every ending, the timer, the record, undecodable bodies.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use super::body_reader::BodyReader;
use super::*;
use crate::run::engine::Step;
use crate::secrets::redact::Credentials;
use crate::vocabulary::exchange::{BodyEnd, Exchange, TransportError, Vantage};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::step::Outgoing;

fn out(headers_only: bool) -> Outgoing {
    Outgoing {
        step: Step::Probe(crate::vocabulary::probe::ProbeName::C),
        method: if headers_only { "GET" } else { "POST" },
        url: "http://127.0.0.1:1/mcp".into(),
        headers: Vec::new(),
        body: Some("{}".into()),
        with_token: false,
        expect_id: Some(json!(5)),
        headers_only,
        intent: Some("C".into()),
        wave: 1,
    }
}

fn limits() -> Limits {
    Limits {
        headers_deadline_ms: 1_000,
        idle_gap_ms: 500,
        request_total_ms: 3_000,
        first_event_ms: 200,
        max_body_bytes: 64,
        ..Limits::default()
    }
}

fn head(ct: &str) -> ReadEvent<'static> {
    ReadEvent::Head {
        status: 200,
        headers: vec![("Content-Type".into(), ct.into())],
    }
}

fn reader(headers_only: bool) -> RequestReader {
    RequestReader::new(
        &out(headers_only),
        &Credentials::default(),
        Vantage::Direct,
        &limits(),
        0.0,
    )
}

/// Events at the shell's times.
type Events<'a> = Vec<(f64, ReadEvent<'a>)>;

/// Feeds `events` at their times; the ending (transport error or body end) and the record.
fn run(headers_only: bool, events: &[(f64, ReadEvent<'_>)]) -> (String, Exchange) {
    let mut r = reader(headers_only);
    for (now, event) in events {
        if r.on(*now, event.clone()) == Next::Stop {
            break;
        }
    }
    let ex = r.finish(events.last().map_or(0.0, |e| e.0));
    let ending = match (&ex.transport_error, &ex.response) {
        (Some(e), _) => format!("transport:{e}"),
        (None, Some(resp)) => format!("body:{}", resp.body_end.map_or("none", |e| e.as_str())),
        (None, None) => "nothing".into(),
    };
    (ending, ex)
}

const OURS: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\n";

#[test]
fn every_ending_is_decided_here_from_the_events_alone() {
    let reset = || ReadEvent::Failed {
        kind: ReadFailure::Reset,
        detail: "os error 104".into(),
    };
    let cases: Vec<(&str, bool, Events<'_>, &str)> = vec![
        (
            "a whole JSON body",
            false,
            vec![
                (1.0, head("application/json")),
                (2.0, ReadEvent::Chunk(b"{}")),
                (3.0, ReadEvent::End),
            ],
            "body:complete",
        ),
        (
            "a reset mid-body",
            false,
            vec![
                (1.0, head("application/json")),
                (2.0, ReadEvent::Chunk(b"{\"a\"")),
                (3.0, reset()),
            ],
            "body:connection_lost",
        ),
        (
            "a body cut short (other)",
            false,
            vec![
                (1.0, head("text/event-stream")),
                (2.0, ReadEvent::Chunk(b"data: {")),
                (
                    3.0,
                    ReadEvent::Failed {
                        kind: ReadFailure::Other,
                        detail: "incomplete chunked encoding".into(),
                    },
                ),
            ],
            "body:connection_lost",
        ),
        (
            "a reset before any answer",
            false,
            vec![(1.0, reset())],
            "transport:network",
        ),
        (
            "closed before any answer",
            false,
            vec![(1.0, ReadEvent::End)],
            "transport:network",
        ),
        (
            "no head by the deadline",
            false,
            vec![(1_000.0, ReadEvent::Timer)],
            "transport:timeout",
        ),
        (
            "a head after the deadline",
            false,
            vec![(1_000.5, head("application/json"))],
            "transport:timeout",
        ),
        (
            "the shell's own timeout",
            false,
            vec![(
                400.0,
                ReadEvent::Failed {
                    kind: ReadFailure::Timeout,
                    detail: "timed out".into(),
                },
            )],
            "transport:timeout",
        ),
        (
            "a stall after the head",
            false,
            vec![(1.0, head("text/event-stream")), (501.0, ReadEvent::Timer)],
            "body:deadline",
        ),
        (
            "a drip past the total",
            false,
            (0..40)
                .map(|i| {
                    (
                        1.0 + f64::from(i) * 100.0,
                        if i == 0 {
                            head("text/event-stream")
                        } else {
                            ReadEvent::Chunk(b":")
                        },
                    )
                })
                .collect(),
            "body:deadline",
        ),
        (
            "a redirect",
            false,
            vec![(
                1.0,
                ReadEvent::Head {
                    status: 307,
                    headers: vec![("Location".into(), "https://elsewhere.example/".into())],
                },
            )],
            "transport:redirect_refused",
        ),
        (
            "an opaque redirect",
            false,
            vec![(1.0, ReadEvent::OpaqueRedirect)],
            "transport:redirect_refused",
        ),
        (
            "a body over the cap",
            false,
            vec![
                (1.0, head("text/event-stream")),
                (2.0, ReadEvent::Chunk(&[b':'; 65])),
            ],
            "body:size_cap",
        ),
        (
            "a declared length over the cap",
            false,
            vec![(
                1.0,
                ReadEvent::Head {
                    status: 200,
                    headers: vec![("content-length".into(), "65".into())],
                },
            )],
            "body:size_cap",
        ),
        (
            "our response in a mixed-case stream type",
            false,
            vec![
                (1.0, head("Text/Event-Stream; charset=utf-8")),
                (2.0, ReadEvent::Chunk(OURS)),
            ],
            "body:stopped_after_response",
        ),
        (
            "our response under a repeated Content-Type",
            false,
            vec![
                (
                    1.0,
                    ReadEvent::Head {
                        status: 200,
                        headers: vec![
                            ("Content-Type".into(), "text/plain".into()),
                            ("Content-Type".into(), "text/event-stream".into()),
                        ],
                    },
                ),
                (2.0, ReadEvent::Chunk(OURS)),
            ],
            "body:stopped_after_response",
        ),
        (
            "cancel before the head",
            false,
            vec![(1.0, ReadEvent::Cancel)],
            "transport:aborted",
        ),
        (
            "cancel mid-body",
            false,
            vec![(1.0, head("text/event-stream")), (2.0, ReadEvent::Cancel)],
            "body:aborted",
        ),
        (
            "a GET answered 405",
            true,
            vec![(
                1.0,
                ReadEvent::Head {
                    status: 405,
                    headers: vec![],
                },
            )],
            "body:stopped_after_response",
        ),
        (
            "a GET stream's first event",
            true,
            vec![
                (1.0, head("text/event-stream")),
                (2.0, ReadEvent::Chunk(b"event: endpoint\ndata: /m")),
                (3.0, ReadEvent::Chunk(b"\n\n")),
            ],
            "body:stopped_after_response",
        ),
        (
            "a GET stream with no event",
            true,
            vec![(1.0, head("text/event-stream")), (201.0, ReadEvent::Timer)],
            "body:stopped_after_response",
        ),
        (
            "a GET stream that closes",
            true,
            vec![(1.0, head("text/event-stream")), (2.0, ReadEvent::End)],
            "body:complete",
        ),
    ];
    for (name, headers_only, events, want) in cases {
        let (got, ex) = run(headers_only, &events);
        assert_eq!(got, want, "{name}");
        if name == "a reset mid-body" {
            assert_eq!(
                ex.transport_error_detail.as_deref(),
                Some("the connection was reset: os error 104"),
                "what the shell saw of it"
            );
        }
    }
}

#[test]
fn a_timer_before_its_moment_rearms_and_events_after_the_end_change_nothing() {
    let mut r = reader(false);
    assert_eq!(r.until_ms(), 1_000.0, "the headers deadline first");
    assert_eq!(
        r.on(10.0, ReadEvent::Timer),
        Next::ReadOn { until_ms: 1_000.0 }
    );
    assert_eq!(
        r.on(20.0, head("text/event-stream")),
        Next::ReadOn { until_ms: 520.0 }
    );
    assert_eq!(
        r.on(100.0, ReadEvent::Chunk(b": x\n")),
        Next::ReadOn { until_ms: 600.0 }
    );
    assert_eq!(r.on(150.0, ReadEvent::Chunk(OURS)), Next::Stop);
    // The abort that follows a stop reports a failure: it is not the ending.
    let late = ReadEvent::Failed {
        kind: ReadFailure::Other,
        detail: "aborted".into(),
    };
    assert_eq!(r.on(160.0, late), Next::Stop);
    let ex = r.finish(170.0);
    let resp = ex.response.as_ref().unwrap();
    assert_eq!(resp.body_end, Some(BodyEnd::StoppedAfterResponse));
    assert_eq!(ex.elapsed_ms, Some(170.0));
    // The total bounds the idle gap, and the first event's moment bounds a GET stream.
    let mut drip = reader(false);
    drip.on(0.0, head("text/event-stream"));
    for t in (100..2_900).step_by(100) {
        drip.on(f64::from(t), ReadEvent::Chunk(b":"));
    }
    assert_eq!(drip.until_ms(), 3_000.0);
    let mut get = reader(true);
    get.on(50.0, head("text/event-stream"));
    assert_eq!(get.until_ms(), 250.0);
}

#[test]
fn the_record_keeps_the_head_as_received_and_hands_out_server_requests() {
    let mut r = reader(false);
    let headers = vec![
        ("content-type".to_string(), "text/plain".to_string()),
        ("Content-Type".to_string(), "text/event-stream".to_string()),
    ];
    r.on(
        1.0,
        ReadEvent::Head {
            status: 200,
            headers: headers.clone(),
        },
    );
    let stream = b"data: {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n\n";
    for chunk in stream.chunks(7) {
        assert!(matches!(
            r.on(2.0, ReadEvent::Chunk(chunk)),
            Next::ReadOn { .. }
        ));
    }
    let asks = r.take_server_requests();
    assert_eq!(asks.len(), 1);
    assert_eq!(
        reply_to_server_request(&asks[0]),
        Some(json!({"jsonrpc":"2.0","id":9,"result":{}}))
    );
    r.on(3.0, ReadEvent::End);
    let ex = r.finish(3.0);
    let resp = ex.response.unwrap();
    assert_eq!(
        resp.headers, headers,
        "as received, repeated header and all"
    );
    assert_eq!(resp.body_complete, Some(true));
    let other = json!({"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{}});
    assert_eq!(
        reply_to_server_request(&other).unwrap()["error"]["code"],
        -32601
    );
}

#[test]
fn invalid_utf8_is_kept_as_base64_and_a_request_given_up_on_is_cancelled() {
    let mut r = BodyReader::new(false, None, &Limits::default());
    r.push(b"ok\xff");
    let (text, b64) = r.into_body();
    assert_eq!(text, "ok\u{fffd}");
    assert_eq!(b64.as_deref(), Some("b2v/"));
    let mut cut = reader(false);
    cut.on(1.0, head("application/json"));
    let ex = cut.finish(2.0);
    assert_eq!(ex.response.unwrap().body_end, Some(BodyEnd::Aborted));
    assert_eq!(
        reader(false).finish(1.0).transport_error,
        Some(TransportError::Aborted)
    );
}

#[test]
fn a_get_refusal_is_read_to_its_end_and_a_get_success_that_is_no_stream_is_not() {
    let refusal = br#"{"error":"Unsupported protocol version"}"#;
    let mut r = reader(true);
    let head = |status| ReadEvent::Head {
        status,
        headers: vec![("Content-Type".into(), "application/json".into())],
    };
    assert!(matches!(r.on(10.0, head(400)), Next::ReadOn { .. }));
    r.on(20.0, ReadEvent::Chunk(refusal));
    r.on(30.0, ReadEvent::End);
    let ex = r.finish(40.0);
    let resp = ex.response.as_ref().unwrap();
    assert_eq!(resp.body_end, Some(BodyEnd::Complete));
    assert_eq!(resp.body.as_deref().map(str::as_bytes), Some(&refusal[..]));
    // The control: a 2xx that is not a stream is still left at its head.
    let mut ok = reader(true);
    assert_eq!(ok.on(10.0, head(200)), Next::Stop);
    let ex = ok.finish(20.0);
    assert_eq!(
        ex.response.as_ref().unwrap().body_end,
        Some(BodyEnd::StoppedAfterResponse)
    );
}

#[test]
fn a_redirect_is_not_followed_and_its_head_says_where_it_pointed() {
    let mut r = reader(false);
    let head = ReadEvent::Head {
        status: 307,
        headers: vec![("Location".into(), "/mcp/".into())],
    };
    assert_eq!(r.on(10.0, head), Next::Stop);
    let ex = r.finish(20.0);
    assert_eq!(ex.transport_error, Some(TransportError::RedirectRefused));
    assert_eq!(
        ex.stop_reason(),
        Some(crate::vocabulary::cause::StopReason::Redirect)
    );
    let resp = ex.response.as_ref().unwrap();
    assert_eq!((resp.status, resp.header("location")), (307, Some("/mcp/")));
    assert!(resp.body.is_none(), "nothing of it is read");
}
