//! Endpoint and secret rules: which URLs the page may send a token to, and which tokens are sendable.
//!
//! The page: `https:` anywhere, or `http:` only to `localhost` or `127.0.0.1` (exactly what the
//! page's CSP `connect-src` allows: a CSP source cannot name an IPv6 literal, so `http://[::1]` is
//! refused with that reason; `https://[::1]` is fine). A native shell: `http:` anywhere, but a
//! secret goes over it only to a loopback host (`localhost`, 127.0.0.0/8, `[::1]`). A token is printable ASCII without CR/LF, at most
//! the token cap.

use crate::vocabulary::limits::MIN_SECRET_RUN;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A checked endpoint URL, split into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    /// The URL as typed, trimmed.
    pub url: String,
    /// `https` or `http`.
    pub scheme: String,
    /// Host as written (IPv6 with brackets), lower-cased.
    pub host: String,
    /// Explicit port, if any.
    pub port: Option<u16>,
    /// Path and query (and nothing else: fragments are refused).
    pub path_and_query: String,
}

impl Endpoint {
    /// A stdio server started from `command`: `stdio:` and the program's name (never its arguments,
    /// which are not kept at all). It has no path to hide: its origin is all of it.
    pub fn stdio(command: &str) -> Endpoint {
        let url = crate::decode::stdio::endpoint_of(command);
        Endpoint {
            host: url["stdio:".len()..].to_string(),
            url,
            scheme: "stdio".into(),
            port: None,
            path_and_query: String::new(),
        }
    }

    /// The endpoint a recorded `stdio:NAME` stands for (a report or a link of a stdio run); `None`
    /// for anything else (then it is a URL, read by the shell's URL parser).
    pub fn recorded_stdio(recorded: &str) -> Option<Endpoint> {
        recorded.strip_prefix("stdio:").map(Endpoint::stdio)
    }

    /// The endpoint a recorded run spoke to, its URL kept exactly as recorded (a replay sends
    /// nothing: it only matches what was recorded). Its parts are read where they can be.
    pub(crate) fn as_recorded(recorded: &str) -> Endpoint {
        if let Some(ep) = Endpoint::recorded_stdio(recorded) {
            return ep;
        }
        match parse_parts(recorded) {
            Ok(ep) if ep.url == recorded => ep,
            _ => Endpoint {
                url: recorded.to_string(),
                scheme: String::new(),
                host: String::new(),
                port: None,
                path_and_query: String::new(),
            },
        }
    }

    /// `scheme://host[:port]`, the part that is safe to share by default (`stdio:NAME` for stdio).
    pub fn origin(&self) -> String {
        if self.scheme == "stdio" {
            return self.url.clone();
        }
        match self.port {
            Some(p) => format!("{}://{}:{p}", self.scheme, self.host),
            None => format!("{}://{}", self.scheme, self.host),
        }
    }

    /// True for a loopback host: `localhost`, an IPv4 literal in 127.0.0.0/8, or the IPv6
    /// loopback (`[::1]`, in any spelling). What the command line and the OAuth judge call
    /// loopback; the page's own list is narrower ([`Endpoint::is_page_loopback`]).
    pub fn is_loopback(&self) -> bool {
        if self.host == "localhost" {
            return true;
        }
        if let Ok(v4) = self.host.parse::<std::net::Ipv4Addr>() {
            return v4.is_loopback();
        }
        self.host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .and_then(|h| h.parse::<std::net::Ipv6Addr>().ok())
            .is_some_and(|v6| v6.is_loopback())
    }

    /// True for the loopback hosts the page's CSP admits over http, `localhost` and `127.0.0.1`
    /// (SECURITY.md rule 4): the browser's list, for the page's cleartext rule and its hints.
    pub fn is_page_loopback(&self) -> bool {
        matches!(self.host.as_str(), "localhost" | "127.0.0.1")
    }

    /// True when the host is a private or loopback address a public page needs permission to reach
    /// (Chrome's Local Network Access).
    pub fn is_local_network(&self) -> bool {
        if self.is_loopback() || self.host.ends_with(".local") {
            return true;
        }
        let octets: Vec<u8> = self
            .host
            .split('.')
            .filter_map(|p| p.parse().ok())
            .collect();
        if octets.len() == 4 && self.host.split('.').count() == 4 {
            return matches!(
                (octets[0], octets[1]),
                (10, _) | (127, _) | (192, 168) | (169, 254)
            ) || (octets[0] == 172 && (16..=31).contains(&octets[1]));
        }
        self.host.starts_with("[fc")
            || self.host.starts_with("[fd")
            || self.host.starts_with("[fe80")
    }
}

/// Why an endpoint cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum EndpointProblem {
    /// Nothing typed.
    Empty,
    /// Not an absolute http(s) URL.
    NotAUrl,
    /// A scheme other than http and https.
    UnsupportedScheme { scheme: String },
    /// The page: `http:` to a host other than `localhost` and `127.0.0.1`, which its
    /// Content-Security-Policy does not allow (and a page served over https may not call http:
    /// at all: mixed content).
    CleartextToRemoteHost { host: String },
    /// A native shell: a token or secret header over `http:` to a host that is not loopback
    /// would cross the network in clear text.
    CleartextWithSecret { host: String },
    /// `http://[::1]`: the page's CSP cannot name an IPv6 literal, so the browser would block it.
    CleartextIpv6Loopback,
    /// User name or password inside the URL.
    CredentialsInUrl,
    /// A `#fragment`, which is never sent and usually a paste mistake.
    Fragment,
    /// A port that is not a number in 1..=65535.
    BadPort,
    /// Spaces or control characters.
    BadCharacters,
}

impl fmt::Display for EndpointProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndpointProblem::Empty => write!(f, "Enter the URL of a Streamable HTTP MCP endpoint."),
            EndpointProblem::NotAUrl => {
                write!(
                    f,
                    "This is not a URL: it must start with https:// (or http:// for localhost)."
                )
            }
            EndpointProblem::UnsupportedScheme { scheme } => {
                write!(
                    f,
                    "{scheme}: URLs are not supported; use https:// (or http:// for localhost)."
                )
            }
            EndpointProblem::CleartextToRemoteHost { host } => write!(
                f,
                "From this page, http:// reaches only localhost and 127.0.0.1 (its \
                 Content-Security-Policy allows no other http: host, and a page served over https may \
                 not call http: at all: mixed content); use https:// for {host}, or run \
                 `mcp-triage probe` from a terminal."
            ),
            EndpointProblem::CleartextWithSecret { host } => write!(
                f,
                "A token or secret header never goes over plain http:// to a host that is not \
                 loopback (localhost, 127.0.0.0/8, [::1]); use https:// for {host}, or run without a \
                 secret."
            ),
            EndpointProblem::CleartextIpv6Loopback => write!(
                f,
                "From this page, http:// reaches only localhost and 127.0.0.1 (a \
                 Content-Security-Policy cannot name [::1]); use http://localhost with the same port."
            ),
            EndpointProblem::CredentialsInUrl => {
                write!(
                    f,
                    "Remove the user name or password from the URL; put the token in its own field."
                )
            }
            EndpointProblem::Fragment => {
                write!(f, "Remove the #fragment: it is never sent to the server.")
            }
            EndpointProblem::BadPort => write!(f, "The port must be a number from 1 to 65535."),
            EndpointProblem::BadCharacters => {
                write!(f, "The URL contains spaces or control characters.")
            }
        }
    }
}

/// Checks a typed endpoint URL for the page: a browser sends nothing over cleartext http except to
/// loopback (and not to `[::1]`, which browsers treat apart).
pub fn parse_endpoint(input: &str) -> Result<Endpoint, EndpointProblem> {
    let endpoint = parse_parts(input)?;
    if endpoint.scheme == "http" && endpoint.host == "[::1]" {
        return Err(EndpointProblem::CleartextIpv6Loopback);
    }
    if endpoint.scheme == "http" && !endpoint.is_page_loopback() {
        return Err(EndpointProblem::CleartextToRemoteHost {
            host: endpoint.host,
        });
    }
    Ok(endpoint)
}

/// Checks a typed endpoint for a native shell, read by that shell's own URL parser (`normalise`,
/// as in [`parse_endpoint_with`]). The cleartext rule: http only to a loopback host
/// ([`Endpoint::is_loopback`]: 127.0.0.0/8 and `[::1]` included) when a secret is sent; without
/// one, any host.
pub fn parse_endpoint_native(
    typed: &str,
    normalise: impl FnOnce(&str) -> Option<String>,
    sends_secret: bool,
) -> Result<Endpoint, EndpointProblem> {
    let read = normalise(typed.trim());
    match parse_endpoint_with(typed, |_| read.clone()) {
        Err(EndpointProblem::CleartextIpv6Loopback) => {}
        Err(EndpointProblem::CleartextToRemoteHost { .. }) => {}
        other => return other,
    }
    // Only a cleartext refusal of the page's rule gets here, after the parser's reading passed
    // every other rule; natively, loopback is all of 127.0.0.0/8 and ::1.
    let endpoint = parse_parts(&read.ok_or(EndpointProblem::NotAUrl)?)?;
    if sends_secret && !endpoint.is_loopback() {
        return Err(EndpointProblem::CleartextWithSecret {
            host: endpoint.host,
        });
    }
    Ok(endpoint)
}

pub(crate) fn parse_parts(input: &str) -> Result<Endpoint, EndpointProblem> {
    let url = input.trim();
    if url.is_empty() {
        return Err(EndpointProblem::Empty);
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(EndpointProblem::BadCharacters);
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(EndpointProblem::NotAUrl);
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        if scheme.is_empty()
            || !scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            return Err(EndpointProblem::NotAUrl);
        }
        return Err(EndpointProblem::UnsupportedScheme { scheme });
    }
    if rest.contains('#') {
        return Err(EndpointProblem::Fragment);
    }
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path_and_query) = rest.split_at(split);
    if authority.contains('@') {
        return Err(EndpointProblem::CredentialsInUrl);
    }
    let (host, port) = if let Some(after) = authority.strip_prefix('[') {
        let Some(end) = after.find(']') else {
            return Err(EndpointProblem::NotAUrl);
        };
        let host = format!("[{}]", &after[..end]);
        let tail = &after[end + 1..];
        let port = match tail.strip_prefix(':') {
            Some(p) => Some(p),
            None if tail.is_empty() => None,
            None => return Err(EndpointProblem::NotAUrl),
        };
        (host, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (authority.to_string(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err(EndpointProblem::NotAUrl);
    }
    let port = match port {
        Some(p) => match p.parse::<u16>() {
            Ok(0) | Err(_) => return Err(EndpointProblem::BadPort),
            Ok(n) => Some(n),
        },
        None => None,
    };
    let host = host.to_ascii_lowercase();
    let endpoint = Endpoint {
        url: url.to_string(),
        scheme,
        host,
        port,
        path_and_query: if path_and_query.is_empty() {
            "/".to_string()
        } else {
            path_and_query.to_string()
        },
    };
    Ok(endpoint)
}

/// Checks a typed endpoint the way the shell's HTTP client will read it: `normalise` is that client's
/// own URL parser (the browser's `URL`, for the page), returning the serialised URL or `None` when it
/// refuses the input. The typed text is first checked for what a parser would silently drop or repair
/// (blanks, control characters, a fragment, credentials, a bad port, a scheme other than http(s));
/// the host rules then apply to the parser's reading, so `https://a.example\b.example/mcp` is judged
/// as `a.example` (where the request really goes) and `http://127.1/` as `127.0.0.1`. The endpoint's
/// `url` is the parser's serialisation: the URL checked is the URL sent.
pub fn parse_endpoint_with(
    typed: &str,
    normalise: impl FnOnce(&str) -> Option<String>,
) -> Result<Endpoint, EndpointProblem> {
    if let Err(
        p @ (EndpointProblem::Empty
        | EndpointProblem::BadCharacters
        | EndpointProblem::NotAUrl
        | EndpointProblem::UnsupportedScheme { .. }
        | EndpointProblem::Fragment
        | EndpointProblem::CredentialsInUrl
        | EndpointProblem::BadPort),
    ) = parse_endpoint(typed)
    {
        return Err(p);
    }
    let normalised = normalise(typed.trim()).ok_or(EndpointProblem::NotAUrl)?;
    parse_endpoint(&normalised)
}

/// Why a token cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum TokenProblem {
    /// CR or LF: would split the header.
    LineBreak,
    /// Characters outside printable ASCII.
    NotPrintableAscii,
    /// Longer than the cap.
    TooLong { max: usize },
    /// The `Bearer ` prefix was pasted too.
    HasBearerPrefix,
    /// A secret shorter than `MIN_SECRET_RUN`: redaction could not tell it from ordinary text.
    TooShort { min: usize },
}

impl fmt::Display for TokenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenProblem::LineBreak => {
                write!(f, "The token contains a line break; paste it on one line.")
            }
            TokenProblem::NotPrintableAscii => {
                write!(
                    f,
                    "The token contains characters that cannot go in an HTTP header."
                )
            }
            TokenProblem::TooLong { max } => write!(f, "The token is longer than {max} bytes."),
            TokenProblem::TooShort { min } => write!(
                f,
                "The token is shorter than {min} characters: a secret that short cannot be told apart from \
                 ordinary text, so MCP Triage could not keep it out of the results."
            ),
            TokenProblem::HasBearerPrefix => {
                write!(
                    f,
                    "Paste the token without the \"Bearer \" prefix; it is added for you."
                )
            }
        }
    }
}

/// Checks a bearer token (empty means "no token").
pub fn check_token(token: &str, max_bytes: usize) -> Result<(), TokenProblem> {
    check_header_value(token, max_bytes, true)
}

/// Checks an extra header a user adds (name, value, secret or plain); `None` when it may be sent.
/// A header the run sets itself (`crate::vocabulary::header::SET_BY_THE_RUN`) may not be replaced.
pub fn extra_header_problem(
    name: &str,
    value: &str,
    secret: bool,
    max_bytes: usize,
) -> Option<String> {
    let name = name.trim();
    if name.is_empty() {
        return Some("Give the header a name.".into());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
    {
        return Some(format!("\"{name}\" is not a valid header name."));
    }
    if crate::vocabulary::header::SET_BY_THE_RUN
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name))
    {
        return Some(format!("{name} is set by MCP Triage itself."));
    }
    check_header_value(value, max_bytes, secret)
        .err()
        .map(|p| p.to_string().replace("token", "value"))
}

/// Checks a header value we will send: a secret one (the token, a secret extra header) must be at
/// least `MIN_SECRET_RUN` characters; a plain one (`X-Tenant: acme`) may be short. Empty is fine.
pub fn check_header_value(token: &str, max_bytes: usize, secret: bool) -> Result<(), TokenProblem> {
    if token.contains(['\r', '\n']) {
        return Err(TokenProblem::LineBreak);
    }
    if !token.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(TokenProblem::NotPrintableAscii);
    }
    if token.len() > max_bytes {
        return Err(TokenProblem::TooLong { max: max_bytes });
    }
    if token.len() > 7 && token[..7].eq_ignore_ascii_case("bearer ") {
        return Err(TokenProblem::HasBearerPrefix);
    }
    if secret && !token.is_empty() && token.trim().len() < MIN_SECRET_RUN {
        return Err(TokenProblem::TooShort {
            min: MIN_SECRET_RUN,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_native_shell_may_use_cleartext_to_ipv6_loopback_and_to_any_host_without_a_secret() {
        let same = |s: &str| Some(s.to_string());
        assert!(parse_endpoint_native("http://[::1]:8787/mcp", same, true).is_ok());
        let refused = parse_endpoint_native("http://mcp.example.com/mcp", same, true);
        assert_eq!(
            refused,
            Err(EndpointProblem::CleartextWithSecret {
                host: "mcp.example.com".into()
            })
        );
        // The reason is the command line's: a secret in clear text, not the page's CSP.
        let said = refused.unwrap_err().to_string();
        assert!(said.contains("never goes over plain http://"), "{said}");
        assert!(!said.contains("page"), "{said}");
        let e = parse_endpoint_native("http://mcp.example.com/mcp", same, false).unwrap();
        assert_eq!(e.url, "http://mcp.example.com/mcp");
        assert_eq!(
            parse_endpoint_native("http://a.example/x", |_| None, false),
            Err(EndpointProblem::NotAUrl),
            "what the client cannot read is refused"
        );
        assert!(parse_endpoint_native("ftp://x/", same, false).is_err());
    }

    #[test]
    fn an_extra_header_may_not_replace_one_the_run_sets_in_any_case_spelling() {
        assert_eq!(
            extra_header_problem("X-API-Key", "k-123456789", true, 64),
            None
        );
        for taken in [
            "authorization",
            "MCP-PROTOCOL-VERSION",
            "mcp-session-id",
            "Mcp-Method",
        ] {
            let p = extra_header_problem(taken, "v", false, 64).unwrap();
            assert!(p.ends_with("is set by MCP Triage itself."), "{taken}: {p}");
        }
        assert!(extra_header_problem("bad name", "v", false, 64).is_some());
        assert!(extra_header_problem(" ", "v", false, 64).is_some());
    }

    #[test]
    fn endpoints() {
        let e = parse_endpoint("https://mcp.example.com/mcp?key=1").unwrap();
        assert_eq!(e.origin(), "https://mcp.example.com");
        assert_eq!(e.path_and_query, "/mcp?key=1");
        let e = parse_endpoint("http://127.0.0.1:8787/mcp").unwrap();
        assert_eq!(e.origin(), "http://127.0.0.1:8787");
        assert!(parse_endpoint("https://[::1]:9/mcp").unwrap().is_loopback());
        // Loopback is 127.0.0.0/8 and ::1; the page's cleartext rule keeps the browser's list.
        for host in [
            "127.0.0.2",
            "127.255.255.254",
            "[0:0:0:0:0:0:0:1]",
            "localhost",
        ] {
            let e = parse_parts(&format!("http://{host}:9/mcp")).unwrap();
            assert!(e.is_loopback(), "{host}");
        }
        for host in [
            "128.0.0.1",
            "127.1",
            "127.0.0.1.example",
            "[::2]",
            "10.0.0.1",
        ] {
            let e = parse_parts(&format!("http://{host}:9/mcp")).unwrap();
            assert!(!e.is_loopback(), "{host}");
        }
        assert!(parse_endpoint("http://127.0.0.2:9/mcp").is_err());
        assert!(parse_endpoint("http://127.0.0.1:9/mcp").is_ok());
        assert_eq!(
            parse_endpoint("http://[::1]:9/mcp"),
            Err(EndpointProblem::CleartextIpv6Loopback)
        );
        let refused = parse_endpoint("http://example.com/mcp");
        assert_eq!(
            refused,
            Err(EndpointProblem::CleartextToRemoteHost {
                host: "example.com".into()
            })
        );
        // The page's reason, whether or not a token is typed, and only what it allows.
        let said = refused.unwrap_err().to_string();
        assert!(said.contains("mixed content") && said.contains("localhost and 127.0.0.1"));
        assert!(!said.contains("[::1]") && !said.contains("token"), "{said}");
        assert_eq!(
            parse_endpoint("ftp://x/y"),
            Err(EndpointProblem::UnsupportedScheme {
                scheme: "ftp".into()
            })
        );
        assert_eq!(
            parse_endpoint("javascript:alert(1)"),
            Err(EndpointProblem::NotAUrl)
        );
        assert_eq!(
            parse_endpoint("https://u:p@x/"),
            Err(EndpointProblem::CredentialsInUrl)
        );
        assert_eq!(
            parse_endpoint("https://x:99999/"),
            Err(EndpointProblem::BadPort)
        );
        assert_eq!(
            parse_endpoint("https://x/#a"),
            Err(EndpointProblem::Fragment)
        );
        assert_eq!(parse_endpoint(""), Err(EndpointProblem::Empty));
    }

    #[test]
    fn the_host_rules_apply_to_the_url_parsers_reading_and_the_typed_text_keeps_its_own_checks() {
        // A stand-in for the browser's parser, with the readings WHATWG URL gives these inputs.
        let browser = |typed: &str| -> Option<String> {
            match typed {
                "https://a.example\\b.example/mcp" => {
                    Some("https://a.example/b.example/mcp".into())
                }
                "http://127.1:8080/mcp" => Some("http://127.0.0.1:8080/mcp".into()),
                "http://evil.example\\@127.0.0.1/" => None,
                _ => Some(typed.to_string()),
            }
        };
        let ep = parse_endpoint_with("https://a.example\\b.example/mcp", browser).unwrap();
        assert_eq!(ep.host, "a.example");
        assert_eq!(ep.url, "https://a.example/b.example/mcp");
        // Refused as typed (a remote cleartext host), accepted as the browser reads it.
        assert!(parse_endpoint("http://127.1:8080/mcp").is_err());
        let ep = parse_endpoint_with("http://127.1:8080/mcp", browser).unwrap();
        assert_eq!(ep.origin(), "http://127.0.0.1:8080");
        // What a parser would repair silently is still refused from the typed text.
        assert_eq!(
            parse_endpoint_with("https://a.example/mcp#x", browser),
            Err(EndpointProblem::Fragment)
        );
        assert_eq!(
            parse_endpoint_with("https://u:p@a.example/mcp", browser),
            Err(EndpointProblem::CredentialsInUrl)
        );
        assert_eq!(
            parse_endpoint_with("https://a.example/m cp", browser),
            Err(EndpointProblem::BadCharacters)
        );
        assert_eq!(
            parse_endpoint_with("http://evil.example\\@127.0.0.1/", browser),
            Err(EndpointProblem::CredentialsInUrl)
        );
        // A host the parser refuses is not a URL.
        assert_eq!(
            parse_endpoint_with("https://a.example/mcp", |_| None),
            Err(EndpointProblem::NotAUrl)
        );
        assert!(
            parse_endpoint("https://10.0.0.2/mcp")
                .unwrap()
                .is_local_network()
        );
        assert!(
            !parse_endpoint("https://8.8.8.8/mcp")
                .unwrap()
                .is_local_network()
        );
    }

    #[test]
    fn tokens() {
        assert_eq!(
            check_token("abc\r\nX-Evil: 1", 100),
            Err(TokenProblem::LineBreak)
        );
        assert_eq!(check_token("é", 100), Err(TokenProblem::NotPrintableAscii));
        assert_eq!(
            check_token("abcd", 3),
            Err(TokenProblem::TooLong { max: 3 })
        );
        assert_eq!(
            check_token("Bearer abc", 100),
            Err(TokenProblem::HasBearerPrefix)
        );
        assert_eq!(check_token("demo-token", 100), Ok(()));
        assert_eq!(check_token("", 100), Ok(()), "no token");
        assert_eq!(
            check_token("abc1234", 100),
            Err(TokenProblem::TooShort { min: 8 })
        );
        assert_eq!(
            check_header_value("acme", 100, false),
            Ok(()),
            "a plain header may be short"
        );
        assert!(
            TokenProblem::TooShort { min: 8 }
                .to_string()
                .contains("shorter than 8 characters")
        );
    }
}
