//! A request as it is recorded: the credentials a shell adds are marked, never written. Both shells,
//! the reader and replays start a record here.

use crate::secrets::redact::{Credentials, MARK};
use crate::vocabulary::exchange::{Exchange, Request, Transport, Vantage};
use crate::vocabulary::step::Outgoing;

/// A planned request as a shell starts recording it, before anything came back: the request as
/// sent (credentials marked, never their values), seen from `vantage`. Both shells start here.
pub(crate) fn unanswered_exchange(
    out: &Outgoing,
    creds: &Credentials,
    vantage: Vantage,
) -> Exchange {
    let token_sent = out.with_token && creds.has_token();
    let mut ex = Exchange::sent(
        vantage,
        recorded_request(out, &creds.header_names(), creds.plain(), token_sent),
    );
    ex.intent = out.intent.clone();
    ex.transport = (out.method == "STDIO").then_some(Transport::Stdio);
    ex
}

/// Builds the recorded request of an outgoing request as the shell sent it, with the token shown as
/// `Bearer [REDACTED]` (the only form in which requests are ever stored).
pub(crate) fn recorded_request(
    out: &Outgoing,
    secret_header_names: &[String],
    plain_headers: &[(String, String)],
    token_sent: bool,
) -> Request {
    let mut headers = out.headers.clone();
    if out.with_token && token_sent {
        headers.push(("Authorization".into(), "Bearer [REDACTED]".into()));
    }
    if out.with_token {
        for name in secret_header_names {
            headers.push((name.clone(), MARK.into()));
        }
        // Headers the user marked as not secret (`X-Tenant: acme`) are recorded as sent.
        headers.extend(plain_headers.iter().cloned());
    }
    Request {
        method: out.method.to_string(),
        url: out.url.clone(),
        headers,
        body: out.body.clone(),
    }
}
