//! What went over the wire for an HTTP exchange, as every card shows it.

use super::model::WireView;
use crate::output::curl::curl;
use crate::vocabulary::exchange::Exchange;

/// The wire of an HTTP exchange; `status` is the status as decided (none: no answer).
/// `secret_header_names` are the extra headers its `curl` names as environment variables.
pub(super) fn http_wire(
    ex: &Exchange,
    status: Option<u16>,
    secret_header_names: &[String],
) -> WireView {
    WireView::Http {
        status: format!(
            "Status {}",
            status.map(|s| s.to_string()).unwrap_or_else(|| "—".into())
        ),
        elapsed: elapsed(ex),
        body_end: ex
            .response
            .as_ref()
            .and_then(|r| r.body_end)
            .map(|e| e.label())
            .unwrap_or_default(),
        response_headers: ex
            .response
            .as_ref()
            .map(|r| r.headers.clone())
            .unwrap_or_default(),
        body: ex
            .response
            .as_ref()
            .and_then(|r| r.body.clone())
            .unwrap_or_default(),
        method: ex.request.method.clone(),
        url: ex.request.url.clone(),
        request_headers: ex.request.headers.clone(),
        request_body: ex.request.body.clone().unwrap_or_default(),
        curl: curl(&ex.request, secret_header_names),
    }
}

/// How long the exchange took, in words.
pub(super) fn elapsed(ex: &Exchange) -> String {
    ex.elapsed_ms
        .map(|ms| format!("{} ms", ms.max(0.0).round() as u64))
        .unwrap_or_else(|| "—".into())
}
