//! The URLs of authorization discovery: where a client looks (RFC 9728 and RFC 8414 well-known
//! URLs, per revision), the rule for what the doctor may fetch (SECURITY.md rule 11), and the
//! canonical form two resource identifiers are compared in.

use crate::vocabulary::protocol::ProtocolVersion;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::run::endpoint::{Endpoint, parse_parts};
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::seeded_bug::{SeededBug, is_on};

/// Why a URL from a server's metadata is not fetched (or not shown as a URL a client may open).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Not a URL the doctor can read.
    NotAUrl,
    /// A scheme other than `https:` (or `http:` on a loopback host): `javascript:`, `data:`, `ftp:`…
    Scheme(String),
    /// `http:` to a host that is not loopback.
    Cleartext,
    /// A literal private, link-local or loopback address named by a server whose endpoint is not one.
    PrivateAddress,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotAUrl => f.write_str("not an absolute http(s) URL"),
            Refusal::Scheme(s) => write!(f, "its scheme is {s}:, and only https: (or http: on a loopback host) is followed"),
            Refusal::Cleartext => f.write_str("http: to a host that is not loopback (only https: is followed)"),
            Refusal::PrivateAddress => f.write_str(
                "a literal private, link-local or loopback address, and the probed endpoint's host is not one",
            ),
        }
    }
}

/// Reads a URL a server named and checks it may be fetched from a run against `endpoint`:
/// `https:`, or `http:` on a loopback host; a literal private, link-local or loopback address only
/// when the endpoint's host is one too (host names are not judged: the shells cannot resolve them
/// alike).
pub(crate) fn fetchable(url: &str, endpoint: &Endpoint) -> Result<Endpoint, Refusal> {
    if is_on(SeededBug::AuthFetchRuleOff) {
        return parse_parts(url).map_err(|_| Refusal::NotAUrl);
    }
    let scheme = url
        .split_once(':')
        .map(|(s, _)| s.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if !scheme.is_empty()
        && scheme != "http"
        && scheme != "https"
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return Err(Refusal::Scheme(scheme));
    }
    let parsed = parse_parts(url).map_err(|_| Refusal::NotAUrl)?;
    if is_internal_literal(&parsed.host) && !is_internal_literal(&endpoint.host) {
        return Err(Refusal::PrivateAddress);
    }
    if parsed.scheme == "http" && !parsed.is_loopback() {
        return Err(Refusal::Cleartext);
    }
    Ok(parsed)
}

/// True when `host` is a literal IPv4 or IPv6 address that is private, link-local, loopback or
/// unspecified.
pub(crate) fn is_internal_literal(host: &str) -> bool {
    if let Ok(v4) = host.parse::<Ipv4Addr>() {
        return v4.is_private() || v4.is_loopback() || v4.is_link_local() || v4.is_unspecified();
    }
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    let Ok(v6) = inner.parse::<Ipv6Addr>() else {
        return false;
    };
    if let Some(v4) = v6.to_ipv4_mapped() {
        return v4.is_private() || v4.is_loopback() || v4.is_link_local() || v4.is_unspecified();
    }
    let first = v6.segments()[0];
    v6.is_loopback()
        || v6.is_unspecified()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
}

/// The path of `ep` without its query (`/` when it has none).
fn path_of(ep: &Endpoint) -> &str {
    ep.path_and_query.split('?').next().unwrap_or("/")
}

/// The origin and path of `ep` with a terminating `/` removed: how RFC 8414 §3.1 and RFC 9728
/// §3.1 insert a well-known segment.
fn origin_and_trimmed_path(ep: &Endpoint) -> (String, String) {
    (ep.origin(), path_of(ep).trim_end_matches('/').to_string())
}

/// Where a client of `revision` looks for the protected resource metadata of `endpoint`: the
/// path-suffixed well-known URL (when the endpoint has a path), then the root one. (The URL a
/// challenge names comes first; the doctor adds it.)
pub(crate) fn prm_well_known(endpoint: &Endpoint) -> Vec<(AuthStep, String)> {
    let (origin, path) = origin_and_trimmed_path(endpoint);
    let mut out = Vec::new();
    if !path.is_empty() {
        out.push((
            AuthStep::PrmPathWellKnown,
            format!("{origin}/.well-known/oauth-protected-resource{path}"),
        ));
    }
    out.push((
        AuthStep::PrmRootWellKnown,
        format!("{origin}/.well-known/oauth-protected-resource"),
    ));
    out
}

/// Where a client of `revision` looks for the metadata of the authorization server `issuer`, in
/// that revision's order: 2025-11-25 and later, RFC 8414 then OpenID Connect discovery with the
/// path inserted, then OpenID Connect with the path appended (for an issuer with a path); 2025-06-18,
/// RFC 8414 alone; 2025-03-26, RFC 8414 at the MCP server's own origin (its base URL).
pub(crate) fn as_well_known(issuer: &Endpoint, revision: &str) -> Vec<(AuthStep, String)> {
    let (origin, path) = origin_and_trimmed_path(issuer);
    let oauth = (
        AuthStep::AsOauth,
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
    );
    if ProtocolVersion::names_before(revision, ProtocolVersion::V2025_11_25) {
        return vec![oauth];
    }
    let mut out = vec![
        oauth,
        (
            AuthStep::AsOidcInserted,
            format!("{origin}/.well-known/openid-configuration{path}"),
        ),
    ];
    if !path.is_empty() {
        out.push((
            AuthStep::AsOidcAppended,
            format!("{origin}{path}/.well-known/openid-configuration"),
        ));
    }
    out
}

/// A resource identifier in the form two are compared in: scheme and host lower case, the default
/// port dropped, no query, no terminating `/`. `None` when it is not an http(s) URL.
pub(crate) fn canonical_resource(text: &str) -> Option<String> {
    let ep = parse_parts(text).ok()?;
    let port = match (ep.scheme.as_str(), ep.port) {
        ("https", Some(443)) | ("http", Some(80)) | (_, None) => String::new(),
        (_, Some(p)) => format!(":{p}"),
    };
    Some(format!(
        "{}://{}{port}{}",
        ep.scheme,
        ep.host,
        path_of(&ep).trim_end_matches('/')
    ))
}

/// The resource identifier of `endpoint` (its URL without the query), as a client sends it in
/// `resource` (RFC 8707).
pub(crate) fn resource_of(endpoint: &Endpoint) -> String {
    format!("{}{}", endpoint.origin(), path_of(endpoint))
}

/// True when both are URLs and `a`'s origin is `b`'s.
pub(crate) fn same_origin(a: &Endpoint, b: &Endpoint) -> bool {
    let port = |e: &Endpoint| {
        e.port.or(match e.scheme.as_str() {
            "https" => Some(443),
            "http" => Some(80),
            _ => None,
        })
    };
    a.scheme == b.scheme && a.host == b.host && port(a) == port(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::endpoint::parse_parts;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn ep(url: &str) -> Endpoint {
        parse_parts(url).expect("a test URL")
    }

    #[test]
    fn the_well_known_urls_follow_each_revision() {
        let mcp = ep("https://api.example/v1/mcp?key=1");
        assert_eq!(
            prm_well_known(&mcp),
            [
                (
                    AuthStep::PrmPathWellKnown,
                    "https://api.example/.well-known/oauth-protected-resource/v1/mcp".to_string()
                ),
                (
                    AuthStep::PrmRootWellKnown,
                    "https://api.example/.well-known/oauth-protected-resource".to_string()
                ),
            ]
        );
        let tenant = ep("https://auth.example/tenant1/");
        let urls = |rev| {
            as_well_known(&tenant, rev)
                .into_iter()
                .map(|(_, u)| u)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            urls("2025-11-25"),
            [
                "https://auth.example/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example/.well-known/openid-configuration/tenant1",
                "https://auth.example/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            urls("2025-06-18"),
            ["https://auth.example/.well-known/oauth-authorization-server/tenant1"]
        );
        let root = ep("http://localhost:3001/");
        assert_eq!(
            as_well_known(&root, "2026-07-28")
                .into_iter()
                .map(|(_, u)| u)
                .collect::<Vec<_>>(),
            [
                "http://localhost:3001/.well-known/oauth-authorization-server",
                "http://localhost:3001/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn only_https_or_loopback_http_and_private_literals_only_from_private_endpoints() {
        let public = ep("https://mcp.example/mcp");
        let local = ep("http://127.0.0.1:8080/mcp");
        let named_local = ep("http://localhost:8080/mcp");
        assert!(fetchable("https://auth.example/x", &public).is_ok());
        assert_eq!(
            fetchable("javascript:alert(1)", &public),
            Err(Refusal::Scheme("javascript".into()))
        );
        assert_eq!(
            fetchable("data:text/html,x", &public),
            Err(Refusal::Scheme("data".into()))
        );
        assert_eq!(
            fetchable("http://auth.example/x", &public),
            Err(Refusal::Cleartext)
        );
        assert_eq!(
            fetchable("https://10.0.0.7/x", &public),
            Err(Refusal::PrivateAddress)
        );
        assert_eq!(
            fetchable("https://[fd00::1]/x", &public),
            Err(Refusal::PrivateAddress)
        );
        assert_eq!(
            fetchable("https://[::ffff:192.168.1.1]/x", &public),
            Err(Refusal::PrivateAddress)
        );
        assert_eq!(
            fetchable("http://127.0.0.1:9/x", &named_local),
            Err(Refusal::PrivateAddress)
        );
        assert!(fetchable("http://127.0.0.1:9/x", &local).is_ok());
        assert!(fetchable("http://localhost:9/x", &public).is_ok());
        assert_eq!(
            fetchable("http://10.0.0.7/x", &local),
            Err(Refusal::Cleartext)
        );
        assert_eq!(fetchable("not a url", &public), Err(Refusal::NotAUrl));
    }

    #[test]
    fn resources_compare_in_canonical_form() {
        assert_eq!(
            canonical_resource("HTTPS://API.example:443/mcp/"),
            Some("https://api.example/mcp".into())
        );
        assert_eq!(
            canonical_resource("http://localhost:3000/mcp"),
            Some("http://localhost:3000/mcp".into())
        );
        assert_ne!(
            canonical_resource("https://a.example/mcp"),
            canonical_resource("https://a.example/")
        );
        assert_eq!(
            resource_of(&ep("https://a.example/mcp?key=1")),
            "https://a.example/mcp"
        );
        assert!(same_origin(
            &ep("https://a.example/x"),
            &ep("https://a.example:443/y")
        ));
        assert!(!same_origin(
            &ep("https://a.example/x"),
            &ep("https://b.example/x")
        ));
    }
}
