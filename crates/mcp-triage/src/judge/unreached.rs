//! A request that got no answer, worded by what its shell saw: a browser sees only that `fetch`
//! failed (CORS, the network or a permission, which it does not tell apart), while a direct client
//! sees the refused connection, the name that did not resolve, the TLS failure or the reset. Browser
//! and CORS words belong to the browser's vantage alone.

use crate::decode::reader::ReadFailure;
use crate::vocabulary::exchange::{Exchange, TransportError, Vantage};
use crate::vocabulary::seeded_bug::{SeededBug, is_on};

/// How a request failed before any answer, as observed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unreached {
    /// A browser's `fetch` failed: CORS, the network or a permission, not told apart.
    Browser,
    /// Nothing listens at that host and port.
    Refused,
    /// The host name did not resolve.
    NotResolved,
    /// The TLS handshake failed.
    Tls,
    /// The peer reset the connection before answering.
    Reset,
    /// Another failure the client named (quoted in the evidence).
    Other,
}

impl Unreached {
    /// How `ex` failed, when it failed before an answer (`transport_error: network`).
    pub(crate) fn of(ex: &Exchange) -> Option<Unreached> {
        if ex.transport_error != Some(TransportError::Network) {
            return None;
        }
        if ex.vantage == Vantage::Browser || is_on(SeededBug::BrowserWordsAnywhere) {
            return Some(Unreached::Browser);
        }
        // The reader writes the shell's kind of failure first (`ReadFailure::describe`).
        let detail = ex.transport_error_detail.as_deref().unwrap_or_default();
        let kinds = [
            (ReadFailure::Refused, Unreached::Refused),
            (ReadFailure::NotResolved, Unreached::NotResolved),
            (ReadFailure::Tls, Unreached::Tls),
            (ReadFailure::Reset, Unreached::Reset),
        ];
        Some(
            kinds
                .into_iter()
                .find(|(kind, _)| detail.starts_with(kind.describe()))
                .map_or(Unreached::Other, |(_, u)| u),
        )
    }

    /// The classifier's evidence: what was observed.
    pub(crate) fn fact(self) -> &'static str {
        match self {
            Unreached::Browser => {
                "the browser's fetch failed without a readable response (CORS, DNS, a refused connection or mixed content: a browser does not tell them apart)"
            }
            Unreached::Refused => "the connection was refused: nothing listens at that address",
            Unreached::NotResolved => "the host name did not resolve",
            Unreached::Tls => "the TLS handshake failed",
            Unreached::Reset => "the connection was reset before any answer",
            Unreached::Other => "the request failed before any answer",
        }
    }

    /// What happened, naming the place (`host:port`), and the likely fix: a sentence.
    pub(crate) fn sentence(self, ex: &Exchange, method: &str) -> String {
        let place = place(&ex.request.url);
        match self {
            Unreached::Browser => format!(
                "Your browser could not read the server's answer to {method}: its CORS settings or the network stopped it (the CORS doctor below names the step)."
            ),
            Unreached::Refused => format!(
                "Nothing answered at {place}: the connection was refused. Is the server running, and on that port?"
            ),
            Unreached::NotResolved => format!(
                "The host name in {place} did not resolve. Check its spelling, or this machine's DNS."
            ),
            Unreached::Tls => format!(
                "The TLS handshake with {place} failed before {method} was answered. Check the server's certificate, or use http:// for a server on this machine."
            ),
            Unreached::Reset => format!(
                "{place} reset the connection before it answered {method}. The server, or a proxy in front of it, dropped the request."
            ),
            Unreached::Other => format!(
                "The request to {place} failed before the server answered {method} (the evidence quotes the client)."
            ),
        }
    }

    /// What a card says instead of advice.
    pub(crate) fn not_answered(self, ex: &Exchange) -> String {
        let what = match self {
            Unreached::Browser => {
                "the browser could not read the answer (CORS, the network, or a refused permission)"
                    .to_string()
            }
            _ => {
                let fact = self.fact();
                format!("{} ({})", fact, place(&ex.request.url))
            }
        };
        format!(
            "Not answered: {what}. Nothing about how the server answers follows from it, so there is no advice."
        )
    }
}

/// `host:port` of a URL (the port its scheme implies when none is written); never its path.
fn place(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let has_port = match authority.rfind(']') {
        Some(close) => authority[close..].contains(':'),
        None => authority.contains(':'),
    };
    match (has_port, scheme) {
        (true, _) => authority.to_string(),
        (false, "https") => format!("{authority}:443"),
        (false, "http") => format!("{authority}:80"),
        _ => authority.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_place_is_host_and_port_never_the_path() {
        assert_eq!(place("http://127.0.0.1:9399/mcp/key"), "127.0.0.1:9399");
        assert_eq!(
            place("https://mcp.example.com/mcp?k=v"),
            "mcp.example.com:443"
        );
        assert_eq!(place("http://[::1]/mcp"), "[::1]:80");
        assert_eq!(place("http://[::1]:8787/mcp"), "[::1]:8787");
    }
}
