//! The command line's HTTP shell: sends one request the core planned over a blocking client (ureq,
//! rustls on ring) that never follows a redirect, and reports what it sees to the core's
//! `RequestReader`, which decides how the request ends. The blocking reads run on a thread of their
//! own that sends each raw event over a bounded channel; this side waits on that channel until the
//! moment the core names, so a deadline is the core's even while a read is blocked (that read is
//! let go of, and its thread ends when the read returns). A signal (Ctrl-C, SIGTERM) wakes the wait
//! too: the request is then cancelled as the core's reader says, and handed back as interrupted.

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use mcp_triage::engine::Outgoing;
use mcp_triage::exchange::{Exchange, Vantage};
use mcp_triage::redact::Credentials;
use mcp_triage::{Limits, Next, ReadEvent, ReadFailure, RequestReader};
use serde_json::Value;

use crate::run::interrupt;

/// An agent that follows no redirect and treats every status as an answer. Deadlines are not set
/// here: each request's are the core's (see [`send`]).
pub(crate) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .build()
        .into()
}

/// The record of a request the run never sent because its time limit had passed.
pub(crate) fn not_sent(out: &Outgoing, creds: &Credentials) -> Exchange {
    RequestReader::not_sent(out, creds, Vantage::Direct)
}

/// What the reading thread saw, in order.
enum Seen {
    Head(u16, Vec<(String, String)>),
    Chunk(Vec<u8>),
    End,
    Failed(ReadFailure, String),
    /// A signal arrived (sent by the interrupt module's waker, not by the reading thread).
    Signal,
}

/// The kind of a failure, as ureq tells it.
fn failure(e: &ureq::Error) -> ReadFailure {
    match e {
        ureq::Error::Timeout(_) => ReadFailure::Timeout,
        ureq::Error::HostNotFound => ReadFailure::NotResolved,
        ureq::Error::Io(io) => io_failure(io),
        ureq::Error::Tls(_)
        | ureq::Error::Rustls(_)
        | ureq::Error::Pem(_)
        | ureq::Error::TlsRequired => ReadFailure::Tls,
        _ => ReadFailure::Other,
    }
}

/// The kind of an I/O failure; ureq wraps its own errors (a timeout, a protocol error) inside
/// the I/O errors its body reader returns.
fn io_failure(io: &std::io::Error) -> ReadFailure {
    use std::io::ErrorKind;
    if let Some(inner) = io.get_ref().and_then(|i| i.downcast_ref::<ureq::Error>()) {
        return failure(inner);
    }
    match io.kind() {
        ErrorKind::ConnectionRefused => ReadFailure::Refused,
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            ReadFailure::Reset
        }
        // The standard library's resolver failing (getaddrinfo), which has no kind of its own.
        _ if io.to_string().starts_with("failed to lookup address") => ReadFailure::NotResolved,
        ErrorKind::TimedOut | ErrorKind::WouldBlock => ReadFailure::Timeout,
        _ => ReadFailure::Other,
    }
}

/// The request as the thread sends it.
struct Wire {
    method: &'static str,
    url: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    /// A backstop for the blocked thread: the longest the core lets the request last.
    give_up: Duration,
    /// The core's phase backstops: for the head, and for the body once the head is in.
    head_limit: Duration,
    body_limit: Duration,
    /// Called when the thread lets go of the connection (its read ended or a backstop passed).
    released: Option<Box<dyn FnOnce() + Send>>,
}

/// Calls its closure when dropped: the reading thread's every way out.
struct Released(Option<Box<dyn FnOnce() + Send>>);

impl Drop for Released {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

/// A request with its headers and its backstop.
fn prepare<B>(req: ureq::RequestBuilder<B>, wire: &Wire) -> ureq::RequestBuilder<B> {
    let mut req = req
        .config()
        .timeout_global(Some(wire.give_up))
        .timeout_resolve(Some(wire.head_limit))
        .timeout_connect(Some(wire.head_limit))
        .timeout_send_request(Some(wire.head_limit))
        .timeout_recv_response(Some(wire.head_limit))
        .timeout_recv_body(Some(wire.body_limit))
        .build();
    for (k, v) in &wire.headers {
        req = req.header(k, v);
    }
    req
}

/// Sends the request and reports what it sees until the channel's other side lets go.
fn read(agent: &ureq::Agent, mut wire: Wire, tx: &SyncSender<Seen>) {
    let _released = Released(wire.released.take());
    let result = match wire.method {
        "GET" => prepare(agent.get(&wire.url), &wire).call(),
        "DELETE" => prepare(agent.delete(&wire.url), &wire).call(),
        _ => prepare(agent.post(&wire.url), &wire)
            .send(wire.body.as_deref().unwrap_or("").as_bytes()),
    };
    let mut response = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = tx.send(Seen::Failed(failure(&e), e.to_string()));
            return;
        }
    };
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            let v = String::from_utf8_lossy(v.as_bytes()).into_owned();
            (k.as_str().to_string(), v)
        })
        .collect();
    if tx
        .send(Seen::Head(response.status().as_u16(), headers))
        .is_err()
    {
        return;
    }
    let mut reader = response.body_mut().as_reader();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let seen = match reader.read(&mut buf) {
            Ok(0) => Seen::End,
            Ok(n) => Seen::Chunk(buf[..n].to_vec()),
            Err(e) => Seen::Failed(io_failure(&e), e.to_string()),
        };
        let last = !matches!(seen, Seen::Chunk(_));
        if tx.send(seen).is_err() || last {
            return;
        }
    }
}

/// Sends `out` and records it. Never fails: a request that got no answer becomes an exchange with
/// a transport error. `run_left` is what remains of the run's time limit: at that moment the
/// request is let go of as the page lets go of it, and the record says the run's deadline stopped
/// it. `on_server_request` receives each server-to-client request as it is read.
pub(crate) fn send(
    agent: &ureq::Agent,
    out: &Outgoing,
    creds: &Credentials,
    origin: Option<&str>,
    limits: &Limits,
    run_left: Option<Duration>,
    on_server_request: &mut dyn FnMut(Value),
) -> Exchange {
    send_released(
        agent,
        out,
        creds,
        origin,
        limits,
        run_left,
        on_server_request,
        None,
    )
}

/// [`send`], calling `released` once the connection is let go of: at once when nothing was sent,
/// else when the reading thread ends (which may be after the exchange is handed back).
#[allow(clippy::too_many_arguments)]
pub(crate) fn send_released(
    agent: &ureq::Agent,
    out: &Outgoing,
    creds: &Credentials,
    origin: Option<&str>,
    limits: &Limits,
    run_left: Option<Duration>,
    on_server_request: &mut dyn FnMut(Value),
    released: Option<Box<dyn FnOnce() + Send>>,
) -> Exchange {
    let released = Released(released);
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    let mut reader = RequestReader::new(out, creds, Vantage::Direct, limits, 0.0);
    if interrupt::caught().is_some() {
        // Not sent: a signal interrupted the run before this request's turn.
        let _ = reader.on(0.0, ReadEvent::Cancel);
        return reader.finish(0.0);
    }
    let mut headers = out.headers.clone();
    if out.with_token {
        headers.extend(creds.request_headers());
    }
    if let Some(o) = origin {
        headers.push(("Origin".into(), o.into()));
    }
    let (head_ms, body_ms) = reader.backstops_ms();
    let ms = |v: f64| Duration::from_secs_f64(v.max(0.0) / 1000.0);
    let mut released = released;
    let wire = Wire {
        method: out.method,
        url: out.url.clone(),
        headers,
        body: out.body.clone(),
        give_up: ms(reader.give_up_ms()),
        head_limit: ms(head_ms),
        body_limit: ms(body_ms),
        released: released.0.take(),
    };
    let (tx, rx) = mpsc::sync_channel(8);
    // The reading thread holds the only strong sender, so its end still disconnects the channel;
    // the waker reaches it while it lives. A full channel wakes the wait anyway: the signal is
    // read from `interrupt::caught` after it.
    let tx = Arc::new(tx);
    let signal_tx = Arc::downgrade(&tx);
    let _woken = interrupt::on_signal(move || {
        if let Some(tx) = signal_tx.upgrade() {
            let _ = tx.try_send(Seen::Signal);
        }
    });
    let thread_agent = agent.clone();
    std::thread::spawn(move || read(&thread_agent, wire, &tx));
    let run_end = run_left.map(|left| left.as_secs_f64() * 1000.0);
    let mut until = reader.until_ms();
    let mut run_deadline = false;
    loop {
        let wake = run_end.map_or(until, |end| until.min(end));
        let wait = Duration::from_secs_f64((wake - now()).max(0.0) / 1000.0);
        let seen = rx.recv_timeout(wait);
        let at = now();
        // A signal stops the read at once, whatever else arrived with it: the engine hears of
        // the interrupt before it gets this record, and says so in it.
        let seen = match interrupt::caught() {
            Some(_) => Ok(Seen::Signal),
            None => seen,
        };
        let next = match seen {
            Ok(Seen::Signal) => reader.on(at, ReadEvent::Cancel),
            Ok(Seen::Head(status, headers)) => reader.on(at, ReadEvent::Head { status, headers }),
            Ok(Seen::Chunk(bytes)) => reader.on(at, ReadEvent::Chunk(&bytes)),
            Ok(Seen::End) => reader.on(at, ReadEvent::End),
            Ok(Seen::Failed(kind, detail)) => reader.on(at, ReadEvent::Failed { kind, detail }),
            Err(RecvTimeoutError::Timeout) if run_end.is_some_and(|end| at >= end) => {
                run_deadline = true;
                reader.on(at, ReadEvent::Cancel)
            }
            Err(RecvTimeoutError::Timeout) => reader.on(at, ReadEvent::Timer),
            Err(RecvTimeoutError::Disconnected) => reader.on(
                at,
                ReadEvent::Failed {
                    kind: ReadFailure::Other,
                    detail: "the reading thread ended without a word".into(),
                },
            ),
        };
        for request in reader.take_server_requests() {
            on_server_request(request);
        }
        match next {
            Next::ReadOn { until_ms } => until = until_ms,
            Next::Stop => break,
        }
    }
    // Letting go of the channel ends the reading thread at its next event.
    drop(rx);
    let mut exchange = reader.finish(now());
    if run_deadline {
        exchange.abort_was_deadline();
    }
    exchange
}
