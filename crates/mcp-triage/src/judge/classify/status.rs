//! Answers that are not a JSON-RPC answer on a 2xx: no response at all, a GET stream, and a status
//! ≥ 300 (the status table, then our request, then the server's words).

use super::frame;
use super::prose::{self, Text};
use super::request::{self, RequestFacts};
use super::verdict::{Builder, Found, Verdict, pointer_for};
use crate::decode::body::{BodyKind, DecodedBody};
use crate::decode::jsonrpc::{self, ErrorCode, Message};
use crate::judge::rules::{self, Group, Place};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};
use crate::vocabulary::exchange::{BodyEnd, Exchange, Response, TransportError};
use crate::vocabulary::protocol::ProtocolVersion;

/// No response was read: the transport error says why.
pub(super) fn no_response(b: &mut Builder, ex: &Exchange) {
    let (cause, fact) = match ex.transport_error {
        Some(TransportError::Timeout) => {
            (Cause::Timeout, "no response headers before the deadline")
        }
        Some(TransportError::Aborted) => {
            (Cause::Aborted, "cancelled before response headers arrived")
        }
        Some(TransportError::Interrupted) => (
            Cause::Aborted,
            "the run was interrupted (a signal) before response headers arrived",
        ),
        Some(TransportError::RedirectRefused) => (
            Cause::Redirect,
            "the server answered with a redirect, which is never followed",
        ),
        Some(TransportError::Network) => (
            Cause::NetworkOrCors,
            crate::judge::unreached::Unreached::of(ex)
                .map_or("the request failed without a readable response", |u| {
                    u.fact()
                }),
        ),
        Some(TransportError::NotRecorded) => (
            Cause::Unknown,
            "replay: the recording holds no exchange that fits this request",
        ),
        None => (Cause::NetworkOrCors, "no response was recorded"),
    };
    b.decide(Channel::Network, cause, DecidedBy::Structure);
    b.structure(fact);
    b.client_said(ex);
    if cause == Cause::Redirect {
        redirect_target(b, ex);
    }
}

/// Where a redirect pointed (a direct client sees its `Location`; a browser does not), and the
/// endpoint to try when it only adds or drops a trailing slash.
fn redirect_target(b: &mut Builder, ex: &Exchange) {
    let Some(location) = ex.response.as_ref().and_then(|r| r.header("location")) else {
        return;
    };
    b.structure(format!("Location: {location} (not followed)"));
    if let Some(hint) = slash_hint(ex) {
        b.structure(hint);
    }
}

/// For a redirect whose `Location` is the request's own address with a trailing slash added or
/// dropped (same origin), the sentence that says which address to use.
pub(crate) fn slash_hint(ex: &Exchange) -> Option<&'static str> {
    if ex.transport_error != Some(TransportError::RedirectRefused) {
        return None;
    }
    let location = ex.response.as_ref()?.header("location")?;
    let url = ex.request.url.as_str();
    let after_scheme = url.find("://")? + 3;
    let origin_end = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |j| after_scheme + j);
    let (origin, path) = url.split_at(origin_end);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let target = location
        .strip_prefix(origin)
        .or_else(|| location.starts_with('/').then_some(location))?
        .split(['?', '#'])
        .next()
        .unwrap_or("");
    if target.len() == path.len() + 1 && target.starts_with(path) && target.ends_with('/') {
        Some(SLASH_HINTS[0])
    } else if path.len() == target.len() + 1 && path.starts_with(target) && path.ends_with('/') {
        Some(SLASH_HINTS[1])
    } else {
        None
    }
}

/// What a redirect that only adds or drops a trailing slash suggests (evidence, and the headline's
/// last words when the connect was redirected).
pub(super) const SLASH_HINTS: [&str; 2] = [
    "it points to the same address with a trailing slash: use that address as the endpoint",
    "it points to the same address without the trailing slash: use that address as the endpoint",
];

/// A 2xx to our GET: a stream (or, oddly, a body).
pub(super) fn get_stream(mut b: Builder, resp: &Response, decoded: &DecodedBody) -> Verdict {
    if decoded.kind == BodyKind::EventStream
        || resp.media_type().as_deref() == Some(crate::vocabulary::header::EVENT_STREAM)
    {
        if decoded.events.first().and_then(|e| e.event.as_deref()) == Some("endpoint") {
            b.decide(
                Channel::StreamOpen,
                Cause::LegacySseTransport,
                DecidedBy::Structure,
            );
            b.structure(
                "the GET stream opens with an `endpoint` event: the 2024-11-05 HTTP+SSE transport",
            );
            return b.v;
        }
        b.decide(Channel::StreamOpen, Cause::None, DecidedBy::Structure);
        b.structure(format!(
            "GET answered with HTTP {} and an SSE stream",
            resp.status
        ));
        if resp.body_complete == Some(false)
            || resp.body_end.is_some_and(|e| e != BodyEnd::Complete)
        {
            b.structure("the stream stayed open until the client stopped reading");
        }
        return b.v;
    }
    b.decide(Channel::Success, Cause::None, DecidedBy::Structure);
    b.structure(format!(
        "GET answered with HTTP {} and a {} body",
        resp.status,
        decoded.kind.as_str()
    ));
    b.v
}

/// A status whose meaning needs nothing but the status (and what it says beside it).
struct StatusRow {
    from: u16,
    to: u16,
    cause: Cause,
    /// Evidence the status brings along (a `Location`, a challenge, a `Retry-After`).
    then: fn(&mut Builder, &Response),
}

/// The status table, asked first. 403 and the rest of 4xx and 5xx need more than the status.
const STATUS_TABLE: &[StatusRow] = &[
    StatusRow {
        from: 300,
        to: 399,
        cause: Cause::Redirect,
        then: location,
    },
    StatusRow {
        from: 401,
        to: 401,
        cause: Cause::Unauthenticated,
        then: |b, _| challenge_evidence(b),
    },
    StatusRow {
        from: 405,
        to: 405,
        cause: Cause::MethodNotAllowed,
        then: nothing,
    },
    StatusRow {
        from: 406,
        to: 406,
        cause: Cause::NotAcceptable,
        then: nothing,
    },
    StatusRow {
        from: 408,
        to: 408,
        cause: Cause::Timeout,
        then: nothing,
    },
    StatusRow {
        from: 413,
        to: 413,
        cause: Cause::BodyTooLarge,
        then: nothing,
    },
    StatusRow {
        from: 415,
        to: 415,
        cause: Cause::UnsupportedMediaType,
        then: nothing,
    },
    StatusRow {
        from: 429,
        to: 429,
        cause: Cause::RateLimited,
        then: retry_after,
    },
    StatusRow {
        from: 504,
        to: 504,
        cause: Cause::Timeout,
        then: nothing,
    },
];

fn nothing(_: &mut Builder, _: &Response) {}

fn location(b: &mut Builder, resp: &Response) {
    if let Some(loc) = resp.header("location") {
        b.structure(format!("Location: {loc} (not followed)"));
    }
}

fn retry_after(b: &mut Builder, resp: &Response) {
    if let Some(r) = resp.header("retry-after") {
        b.structure(format!("Retry-After: {r}"));
    }
}

/// Status ≥ 300: the channel is `http`; the cause comes from the status, the challenge, the frame,
/// our request, and last the prose.
pub(super) fn refusal(
    b: &mut Builder,
    resp: &Response,
    req: &RequestFacts,
    frame: Option<&Found>,
    decoded: &DecodedBody,
) {
    let status = resp.status;
    b.v.channel = Channel::Http;
    b.structure(format!("HTTP status {status}"));
    let frame_msg = frame.map(|f| (jsonrpc::view(&f.value), f.origin));
    let (frame_code, frame_text, frame_ptr) = match &frame_msg {
        Some((Message::Error { code, message, .. }, origin)) => (
            Some(*code),
            Some(*message),
            pointer_for(*origin, "/error/message"),
        ),
        _ => (None, None, "/body".to_string()),
    };
    if let Some(code) = frame_code {
        b.structure(format!("JSON-RPC error code {}", code.label()));
    }
    // The prose to search: the frame's message, else a text/HTML/JSON body.
    let prose: Option<Text<'_>> = match frame_text {
        Some(t) => Some(Text {
            place: Place::HttpBody,
            pointer: frame_ptr.clone(),
            text: t,
        }),
        None if matches!(
            decoded.kind,
            BodyKind::Text | BodyKind::Html | BodyKind::Json
        ) =>
        {
            Some(Text {
                place: Place::HttpBody,
                pointer: "/body".to_string(),
                text: decoded.text.as_str(),
            })
        }
        None => None,
    };
    let set = |b: &mut Builder, cause: Cause| b.decide(Channel::Http, cause, DecidedBy::Structure);
    let transport = |p: &Text<'_>| rules::first(Group::Transport, p.place, p.text, None);

    if let Some(row) = STATUS_TABLE
        .iter()
        .find(|r| (r.from..=r.to).contains(&status))
    {
        set(b, row.cause);
        (row.then)(b, resp);
        let misread = match row.cause {
            Cause::NotAcceptable if req.accept_ok == Some(true) => Some(
                "our Accept lists both application/json and text/event-stream: the server misread it",
            ),
            Cause::UnsupportedMediaType if req.content_type_json == Some(true) => {
                Some("our Content-Type is application/json: the server misread it")
            }
            _ => None,
        };
        if let Some(why) = misread {
            mislabelled(b, why);
            // What really happened: whatever else our request did wrong (a body that is not JSON,
            // say), else the refusal as it stands.
            if let Some((cause, fact)) = request::first_wrong(request::BEFORE_PROSE, req) {
                set(b, cause);
                b.structure(fact);
            }
        }
        return;
    }
    if status == 403 {
        // RFC 6750 says error="insufficient_scope"; some servers only name the scope they need.
        let scope = b.v.challenge.as_ref().is_some_and(|c| {
            c.param("error") == Some("insufficient_scope")
                || (c.param("error").is_none() && c.param("scope").is_some())
        });
        if scope {
            set(b, Cause::InsufficientScope);
            challenge_evidence(b);
            return;
        }
        if let Some(p) = &prose
            && let Some(m) = transport(p)
                .filter(|m| matches!(m.cause, Cause::OriginRejected | Cause::InsufficientScope))
        {
            return says_why(b, p, &m);
        }
        set(b, Cause::Forbidden);
        challenge_evidence(b);
        return;
    }

    // Our nameless tools/call answered "method not found" (rmcp 3.11.0 in the 2026-07-28 era: 404
    // -32601 "tools/call"): our request decides, the label is flagged.
    if frame_code == Some(ErrorCode::METHOD_NOT_FOUND) && req.tools_call_without_name {
        set(b, Cause::InvalidRequest);
        b.structure("our tools/call had no string `name`: the request itself was invalid");
        mislabelled(
            b,
            "the server answered \"method not found\" for tools/call, which it serves",
        );
        return;
    }
    // Reserved codes that mean one thing whatever the status (a parse error only when our body
    // could be one).
    if let Some(code) = frame_code
        && let Some(cause) = frame::reserved_code_cause(code)
        && (cause != Cause::ParseError
            || req.body_parse_error.is_some()
            || req.body_not_jsonrpc.is_none())
    {
        return set(b, cause);
    }

    // Explicit statements outrank what the status alone would suggest (ARCHITECTURE.md, "Words
    // over inference"): the versions `error.data` lists, then a transport refusal in words.
    if let Some(versions) = frame
        .and_then(|f| {
            f.value
                .pointer(&frame_ptr.replace("/error/message", "/error/data"))
        })
        .and_then(frame::supported_versions)
    {
        set(b, Cause::ProtocolVersionUnsupported);
        b.structure(format!(
            "error.data.supported lists the protocol versions the server accepts: {versions}"
        ));
        if status == 404 && req.has_session {
            mislabelled(
                b,
                "HTTP 404 answers an unknown session, yet the answer names another refusal: the answer decides",
            );
        }
        return;
    }
    if status == 404 {
        // "An unknown session gets 404" is an inference from the status: words that name another
        // refusal (a version, an origin, the envelope) outrank it, and the status is flagged.
        if req.has_session
            && let Some(p) = &prose
            && let Some(m) = transport(p)
                .filter(|m| !matches!(m.cause, Cause::SessionRequired | Cause::SessionNotFound))
        {
            mislabelled(
                b,
                "HTTP 404 answers an unknown session, yet the words name another refusal: the words decide",
            );
            return says_why(b, p, &m);
        }
        if req.has_session {
            set(b, Cause::SessionNotFound);
            b.structure("we sent an Mcp-Session-Id; an unknown or ended session MUST get 404");
            return;
        }
        if let Some(p) = &prose
            && let Some(m) = transport(p)
        {
            let m = rules::Match {
                cause: rules::session_cause(m.cause, req.has_session),
                ..m
            };
            return says_why(b, p, &m);
        }
        if let (Some(code), Some(text)) = (frame_code, frame_text) {
            frame::cause(b, Channel::Http, code, text, &frame_ptr, req, None);
            return;
        }
        if tool_refusal(b, req, prose.as_ref()) {
            return;
        }
        return set(b, Cause::EndpointNotFound);
    }

    if status >= 500 {
        set(b, Cause::ServerError);
        return;
    }

    // 400 and other 4xx: what our own request did wrong comes first.
    if let Some((cause, fact)) = request::first_wrong(request::BEFORE_PROSE, req) {
        set(b, cause);
        b.structure(fact);
        return;
    }
    if let Some(p) = &prose
        && let Some(m) = transport(p)
    {
        let cause = rules::session_cause(m.cause, req.has_session);
        let fact = match (m.cause, cause) {
            (Cause::SessionRequired, Cause::SessionNotFound) => {
                if m.says_missing {
                    mislabelled(
                        b,
                        "we sent an Mcp-Session-Id, yet the refusal says there was none (an unknown session is a 404)",
                    );
                }
                "the refusal is about the session, and we sent one: it is not usable"
            }
            (Cause::SessionNotFound, Cause::SessionRequired) => {
                "the refusal is about the session, and we sent none: one is required"
            }
            _ => "the refusal says why",
        };
        let m = rules::Match { cause, ..m };
        b.decide_text(Channel::Http, fact, &p.pointer, p.text, &m);
        return;
    }
    if let Some((cause, fact)) = request::first_wrong(request::AFTER_PROSE, req) {
        set(b, cause);
        b.structure(fact);
        return;
    }
    // A standard code addressed to our id on a 4xx (the 2026-07-28 era sends protocol errors so);
    // implementation codes like -32000 on a 4xx are transport refusals, not the tool's doing.
    if let (Some(code), Some(text)) = (frame_code, frame_text)
        && code.is_standard()
        && frame.is_some_and(|f| {
            jsonrpc::view(&f.value)
                .response_id()
                .is_some_and(|id| Some(id) == req.id.as_ref())
        })
    {
        frame::cause(b, Channel::Http, code, text, &frame_ptr, req, None);
        return;
    }
    if tool_refusal(b, req, prose.as_ref()) {
        return;
    }
    set(b, Cause::InvalidRequest);
    b.structure("a 4xx refusal of the request without a more specific sign");
}

/// The first revision without sessions (no `initialize`, no `Mcp-Session-Id`).
const SESSIONLESS_SINCE: ProtocolVersion = ProtocolVersion::MODERN;

/// A refusal that asks for a session, of a request in a revision that has none: the server does not
/// serve that revision (it answers as an older one would), which is what the verdict says.
pub(super) fn sessions_in_a_sessionless_era(b: &mut Builder, req: &RequestFacts) {
    let Some(version) = req.protocol_header.as_deref() else {
        return;
    };
    if b.v.cause != Cause::SessionRequired
        || !ProtocolVersion::names_from(version, SESSIONLESS_SINCE)
    {
        return;
    }
    b.v.cause = Cause::ProtocolVersionUnsupported;
    b.structure(format!(
        "our request named protocol revision {version}, which has no sessions: a server that asks for one does not serve it"
    ));
}

/// The refusal's words decide, on the `http` channel.
fn says_why(b: &mut Builder, p: &Text<'_>, m: &rules::Match) {
    b.decide_text(Channel::Http, "the refusal says why", &p.pointer, p.text, m);
}

/// A refusal that blames what our request did right: the flag, and the fact that shows it.
fn mislabelled(b: &mut Builder, why: &str) {
    b.flag(Flag::RefusalMislabelled);
    b.structure(why);
}

/// A refused tools/call whose error body names an unknown tool or refused arguments (a 400
/// `text/plain` "Unknown tool: x", say): the words decide, on the `http` channel.
fn tool_refusal(b: &mut Builder, req: &RequestFacts, prose: Option<&Text<'_>>) -> bool {
    let Some(p) = prose.filter(|_| req.method.as_deref() == Some("tools/call")) else {
        return false;
    };
    prose::refusal_cause(b, Channel::Http, std::slice::from_ref(p), req)
}

/// The `WWW-Authenticate` challenge as evidence (and its absence on a 401).
fn challenge_evidence(b: &mut Builder) {
    let Some(c) = b.v.challenge.clone() else {
        if matches!(b.v.http_status, Some(401)) {
            b.structure("no WWW-Authenticate challenge (MUST be sent with 401)");
        }
        return;
    };
    let mut fact = format!("WWW-Authenticate: {}", c.scheme);
    for key in ["error", "scope", "resource_metadata"] {
        if let Some(v) = c.param(key) {
            fact.push_str(&format!(" {key}={v}"));
        }
    }
    b.structure(fact);
}
