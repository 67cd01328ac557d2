//! The command line's HTTP shell: sends one request the core planned, over a blocking client (ureq,
//! rustls on ring), never following a redirect, and records what happened as an `mcp-exchange/1`
//! exchange with `vantage: "direct"`. Deadlines come from the core (`RequestClock`, `Limits`); the
//! body goes through the core's `BodyReader`, which also hands out server-to-client requests.

use std::io::Read;
use std::time::{Duration, Instant};

use mcp_triage::engine::{Outgoing, unanswered_exchange};
use mcp_triage::exchange::{BodyEnd, Exchange, TransportError, Vantage};
use mcp_triage::redact::Credentials;
use mcp_triage::{BodyReader, Limits, ReadStep, RequestClock};
use serde_json::Value;

/// An agent whose timeouts are the core's: headers within the headers deadline, silence between
/// body chunks within the idle gap, the whole call within the request total; no redirect followed.
pub(crate) fn agent(limits: &Limits) -> ureq::Agent {
    let clock = RequestClock::start(0.0);
    let ms = |v: f64| Duration::from_millis(v.max(0.0) as u64);
    ureq::Agent::config_builder()
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .timeout_recv_response(Some(ms(clock.next_deadline_ms(limits))))
        .timeout_per_read(Some(ms(limits.idle_gap_ms as f64)))
        .timeout_global(Some(ms(limits.request_total_ms as f64)))
        .build()
        .into()
}

fn is_timeout(e: &ureq::Error) -> bool {
    matches!(e, ureq::Error::Timeout(_))
        || matches!(e, ureq::Error::Io(io) if matches!(io.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock))
}

/// The record of a request the run never sent because its deadline had passed (the engine counts it
/// as in flight until it is handed back).
pub(crate) fn not_sent(out: &Outgoing, creds: &Credentials) -> Exchange {
    let mut ex = empty(out, creds);
    // The run's deadline, not a Cancel (the command line has none): a deadline stop.
    ex.transport_error = Some(TransportError::Timeout);
    ex.transport_error_detail = Some("not sent: the run's time limit had passed".into());
    ex
}

fn empty(out: &Outgoing, creds: &Credentials) -> Exchange {
    unanswered_exchange(out, creds, Vantage::Direct)
}

/// A request with its headers and this request's timeouts.
fn prepare<B>(
    req: ureq::RequestBuilder<B>,
    headers: &[(String, String)],
    total: Duration,
    per_read: Duration,
) -> ureq::RequestBuilder<B> {
    let mut req = req
        .config()
        .timeout_global(Some(total))
        .timeout_per_read(Some(per_read))
        .build();
    for (k, v) in headers {
        req = req.header(k, v);
    }
    req
}

/// Sends `out` and records it. Never fails: a request that got no answer becomes an exchange with
/// a transport error. `run_left` is what remains of the run's time limit: the request gives up
/// then too (a blocking client cannot be aborted from outside). `on_server_request` receives each
/// server-to-client request as it is read.
pub(crate) fn send(
    agent: &ureq::Agent,
    out: &Outgoing,
    creds: &Credentials,
    origin: Option<&str>,
    limits: &Limits,
    run_left: Option<Duration>,
    on_server_request: &mut dyn FnMut(Value),
) -> Exchange {
    let mut exchange = empty(out, creds);
    let started = Instant::now();
    let total = Duration::from_millis(limits.request_total_ms);
    let total = run_left.map_or(total, |left| left.min(total));
    // A GET stream is read only for its first event: no read may wait longer than that moment.
    let per_read = Duration::from_millis(if out.headers_only {
        limits.first_event_ms
    } else {
        limits.idle_gap_ms
    });
    let mut headers: Vec<(String, String)> = out.headers.clone();
    if out.with_token {
        headers.extend(creds.request_headers());
    }
    if let Some(o) = origin {
        headers.push(("Origin".into(), o.into()));
    }
    let result = match out.method {
        "GET" => prepare(agent.get(&out.url), &headers, total, per_read).call(),
        "DELETE" => prepare(agent.delete(&out.url), &headers, total, per_read).call(),
        _ => prepare(agent.post(&out.url), &headers, total, per_read)
            .send(out.body.as_deref().unwrap_or("").as_bytes()),
    };
    let elapsed = |s: &Instant| s.elapsed().as_secs_f64() * 1000.0;
    let mut response = match result {
        Ok(r) => r,
        Err(e) => {
            exchange.transport_error = Some(if is_timeout(&e) {
                TransportError::Timeout
            } else {
                TransportError::Network
            });
            exchange.transport_error_detail = Some(e.to_string());
            exchange.elapsed_ms = Some(elapsed(&started));
            return exchange;
        }
    };
    let status = response.status().as_u16();
    if (300..400).contains(&status) {
        exchange.transport_error = Some(TransportError::RedirectRefused);
        exchange.transport_error_detail = Some(format!(
            "the server answered with a redirect (HTTP {status}); it was not followed"
        ));
        exchange.elapsed_ms = Some(elapsed(&started));
        return exchange;
    }
    let resp_headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let header = |name: &str| {
        resp_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let content_type = header("content-type");
    let is_sse = content_type
        .as_deref()
        .is_some_and(|c| c.contains("text/event-stream"));
    let mut body_reader = BodyReader::new(content_type.as_deref(), out.expect_id.clone(), limits);
    let mut end = BodyEnd::Complete;
    if out.headers_only && !is_sse {
        end = BodyEnd::StoppedAfterResponse;
    } else if body_reader.declared_length_too_large(header("content-length").as_deref()) {
        end = BodyEnd::SizeCap;
    } else {
        // A GET stream is read only until its first event (or the core's first-event deadline).
        let mut clock = RequestClock::start(0.0);
        clock.headers(elapsed(&started));
        let first_event_by = out
            .headers_only
            .then(|| clock.first_event_deadline_ms(limits));
        let mut reader = response.body_mut().as_reader();
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            if first_event_by.is_some_and(|by| elapsed(&started) > by) {
                end = BodyEnd::StoppedAfterResponse;
                break;
            }
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let step = body_reader.push(&buf[..n]);
                    for request in body_reader.take_server_requests() {
                        on_server_request(request);
                    }
                    if let ReadStep::Stop(why) = step {
                        end = why;
                        break;
                    }
                    if out.headers_only && !body_reader.bytes().is_empty() {
                        end = BodyEnd::StoppedAfterResponse;
                        break;
                    }
                }
                Err(e) => {
                    // ureq reports its own timeouts inside the I/O error it returns.
                    let timed_out = matches!(
                        e.kind(),
                        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                    ) || e
                        .get_ref()
                        .and_then(|inner| inner.downcast_ref::<ureq::Error>())
                        .is_some_and(is_timeout);
                    end = if timed_out {
                        if out.headers_only {
                            BodyEnd::StoppedAfterResponse
                        } else {
                            BodyEnd::Deadline
                        }
                    } else {
                        BodyEnd::Complete
                    };
                    break;
                }
            }
        }
    }
    exchange.response = Some(body_reader.into_response(status, resp_headers, end));
    exchange.elapsed_ms = Some(elapsed(&started));
    exchange
}
