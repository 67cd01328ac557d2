//! The facts of authorization discovery, read from each answer: whether a document came, what the
//! challenge, the protected resource metadata and the authorization server metadata say, and the
//! findings they make under `check.rs`'s rules. Server values are quoted, never followed here.

use crate::vocabulary::protocol::ProtocolVersion;
use serde_json::{Map, Value};

use super::check::{AuthCheck, Finding, finding};
use super::urls::{canonical_resource, fetchable, same_origin};
use crate::run::endpoint::{Endpoint, parse_parts};
use crate::vocabulary::exchange::Exchange;

/// The longest server value a finding quotes (longer ones are cut, saying so).
const QUOTE_CHARS: usize = 256;

/// The most values of one list a finding quotes (a document may hold a million).
const LIST_ITEMS: usize = 16;

/// Values of a server's list, each quoted, at most [`LIST_ITEMS`] of them, saying how many more.
pub(crate) fn quoted_list<S: AsRef<str>>(items: &[S]) -> String {
    let mut shown: Vec<String> = items
        .iter()
        .take(LIST_ITEMS)
        .map(|x| quote(x.as_ref()))
        .collect();
    if items.len() > LIST_ITEMS {
        shown.push(format!("… {} more", items.len() - LIST_ITEMS));
    }
    shown.join(", ")
}

/// A server's value, quoted and capped.
pub(crate) fn quote(text: &str) -> String {
    let cut: String = text.chars().take(QUOTE_CHARS).collect();
    if cut.len() < text.len() {
        format!("{cut:?} (cut at {QUOTE_CHARS} characters)")
    } else {
        format!("{cut:?}")
    }
}

/// A finding's or card's words for a share link, which carries verdicts and never a server's
/// metadata beyond origins: every value [`quote`] wrote is cut to its URL's origin (`"https://as.
/// example/…"`) or, when it is not a URL, to `"…"`. Our own words stay.
pub(crate) fn origins_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            out.push(c);
            continue;
        }
        // A quoted value, escapes and all, up to its closing quote (or the end).
        let mut value = String::new();
        let mut escaped = false;
        for c in chars.by_ref() {
            match c {
                '"' if !escaped => break,
                '\\' if !escaped => escaped = true,
                _ => {
                    escaped = false;
                    value.push(c);
                }
            }
        }
        let origin = ["https://", "http://"]
            .iter()
            .find(|scheme| value.starts_with(*scheme))
            .map(|scheme| {
                let rest = &value[scheme.len()..];
                let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
                // No user information: only what follows its last `@`.
                let host = rest[..end].rsplit('@').next().unwrap_or_default();
                let more = end < rest.len() || host.len() < end;
                format!("{scheme}{host}{}", if more { "/…" } else { "" })
            });
        out.push('"');
        out.push_str(origin.as_deref().unwrap_or("…"));
        out.push('"');
    }
    out
}

/// A URL a server named, as a card shows it: as it came when it holds no control character, else
/// quoted with them escaped (a terminal must not act on them).
pub(crate) fn shown(url: &str) -> String {
    if url.chars().any(char::is_control) {
        quote(url)
    } else {
        url.chars().take(2 * QUOTE_CHARS).collect()
    }
}

/// What the 401's `WWW-Authenticate` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ChallengeFacts {
    /// A `Bearer` challenge came.
    pub bearer: bool,
    /// Its `resource_metadata`.
    pub resource_metadata: Option<String>,
    /// Its `scope`.
    pub scope: Option<String>,
    /// Its `error`.
    pub error: Option<String>,
}

/// Reads the challenges of a 401.
pub(crate) fn challenge_of(ex: &Exchange) -> ChallengeFacts {
    let Some(resp) = &ex.response else {
        return ChallengeFacts::default();
    };
    let bearer = resp
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
        .flat_map(|(_, v)| crate::decode::challenge::parse(v))
        .find(|c| c.scheme.eq_ignore_ascii_case("bearer"));
    match bearer {
        None => ChallengeFacts::default(),
        Some(c) => ChallengeFacts {
            bearer: true,
            resource_metadata: c.param("resource_metadata").map(str::to_string),
            scope: c.param("scope").map(str::to_string),
            error: c.param("error").map(str::to_string),
        },
    }
}

/// The JSON object an answer carries, or in words why there is none.
pub(crate) fn document(ex: &Exchange) -> Result<Map<String, Value>, String> {
    if let Some(detail) = &ex.transport_error_detail {
        return Err(format!("no document: {detail}"));
    }
    if let Some(e) = ex.transport_error {
        return Err(format!("no document: {}", e.label()));
    }
    let Some(resp) = &ex.response else {
        return Err("no answer".into());
    };
    if (300..400).contains(&resp.status) {
        let to = resp
            .header("location")
            .map(|l| format!(" to {}", quote(l)))
            .unwrap_or_default();
        return Err(format!(
            "HTTP {}{to}: a redirect, not followed (discovery follows none)",
            resp.status
        ));
    }
    if resp.status != 200 {
        return Err(format!("HTTP {}", resp.status));
    }
    if resp.body_complete == Some(false) {
        return Err("HTTP 200, but the body was cut at the size cap".into());
    }
    let body = resp.body.as_deref().unwrap_or("");
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err("HTTP 200, but the body is JSON that is not an object".into()),
        Err(e) => Err(format!("HTTP 200, but the body is not JSON ({e})")),
    }
}

fn text<'a>(doc: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    doc.get(key).and_then(Value::as_str)
}

fn strings<'a>(doc: &'a Map<String, Value>, key: &str) -> Option<Vec<&'a str>> {
    doc.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
}

/// The challenge's findings: whether it names the metadata.
pub(crate) fn judge_challenge(c: &ChallengeFacts, revision: &str) -> Vec<Finding> {
    let named = c.resource_metadata.is_some();
    let detail = match (&c.resource_metadata, c.bearer) {
        (Some(url), _) => format!("resource_metadata = {}", quote(url)),
        (None, true) => "a Bearer challenge without resource_metadata".into(),
        (None, false) => "no Bearer challenge in WWW-Authenticate".into(),
    };
    vec![finding(
        AuthCheck::ChallengeNamesMetadata,
        revision,
        |_| named,
        detail,
    )]
}

/// What the protected resource metadata says, with its findings.
pub(crate) struct PrmFacts {
    /// The findings.
    pub findings: Vec<Finding>,
    /// The first authorization server it names, as written.
    pub issuer: Option<String>,
    /// Its `scopes_supported`.
    pub scopes: Option<Vec<String>>,
}

/// Judges protected resource metadata fetched from `url`, which was made from the resource
/// identifier `expected` (the endpoint's, or its origin's for the root well-known URL).
pub(crate) fn judge_prm(doc: &Map<String, Value>, expected: &str, revision: &str) -> PrmFacts {
    let mut findings = vec![finding(
        AuthCheck::PrmFound,
        revision,
        |_| true,
        "read".into(),
    )];
    let resource = text(doc, "resource");
    let matches = resource.and_then(canonical_resource) == canonical_resource(expected);
    let detail = match resource {
        None => format!("no resource; expected {}", quote(expected)),
        Some(r) if matches => format!("resource = {}", quote(r)),
        Some(r) => {
            let prefix = canonical_resource(expected)
                .zip(canonical_resource(r))
                .is_some_and(|(e, r)| e.starts_with(&format!("{r}/")));
            format!(
                "resource = {}, expected {}{}",
                quote(r),
                quote(expected),
                if prefix {
                    " (a parent of the endpoint: the TypeScript SDK's client accepts it, stricter clients refuse)"
                } else {
                    ""
                }
            )
        }
    };
    findings.push(finding(
        AuthCheck::PrmResourceMatches,
        revision,
        |_| matches,
        detail,
    ));
    let servers = strings(doc, "authorization_servers").unwrap_or_default();
    findings.push(finding(
        AuthCheck::PrmNamesAuthorizationServer,
        revision,
        |_| !servers.is_empty(),
        match servers.first() {
            Some(first) if servers.len() == 1 => {
                format!("authorization_servers = [{}]", quote(first))
            }
            Some(first) => format!(
                "authorization_servers names {}; the first, {}, is followed",
                servers.len(),
                quote(first)
            ),
            None => "authorization_servers is absent or empty".into(),
        },
    ));
    PrmFacts {
        findings,
        issuer: servers.first().map(|s| s.to_string()),
        scopes: strings(doc, "scopes_supported")
            .map(|v| v.into_iter().map(str::to_string).collect()),
    }
}

/// The challenge card's outcome line.
pub(crate) fn challenge_outcome(c: &ChallengeFacts) -> String {
    let mut parts = vec!["HTTP 401".to_string()];
    if !c.bearer {
        parts.push("no Bearer challenge".into());
    }
    for (name, value) in [
        ("error", &c.error),
        ("scope", &c.scope),
        ("resource_metadata", &c.resource_metadata),
    ] {
        if let Some(v) = value {
            parts.push(format!("{name} {}", quote(v)));
        }
    }
    parts.join(" · ")
}

/// The ways a public client can register, as the metadata offers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Registration {
    /// `registration_endpoint` (RFC 7591).
    pub dynamic: bool,
    /// `client_id_metadata_document_supported: true`.
    pub metadata_document: bool,
}

impl Registration {
    /// In words.
    pub(crate) fn describe(self) -> String {
        let mut ways = vec!["a client registered beforehand"];
        if self.metadata_document {
            ways.push("a Client ID Metadata Document");
        }
        if self.dynamic {
            ways.push("dynamic registration (RFC 7591)");
        }
        format!("offered: {}", ways.join(", "))
    }
}

/// What the authorization server metadata says, with its findings.
#[derive(Debug, Clone)]
pub(crate) struct AsFacts {
    /// The findings.
    pub findings: Vec<Finding>,
    /// Its registration offer.
    pub registration: Registration,
    /// Its `authorization_endpoint`, when it is one a client may open.
    pub authorization_endpoint: Option<String>,
    /// Its `token_endpoint`, when a client may send to it (fetchable, on the issuer's origin).
    pub token_endpoint: Option<String>,
    /// Its `registration_endpoint`, when a client may send to it (as the token endpoint).
    pub registration_endpoint: Option<String>,
    /// Its `scopes_supported`.
    pub scopes: Option<Vec<String>>,
    /// Its `issuer` is the one its URL was built from (else a client must not use it).
    pub issuer_matches: bool,
    /// `code_challenge_methods_supported` lists `S256`.
    pub pkce_s256: bool,
    /// `authorization_response_iss_parameter_supported: true` (RFC 9207).
    pub iss_supported: bool,
}

/// What a sign-in needs from the doctor (`signin.rs`): where to send what, and for what.
#[derive(Debug, Clone)]
pub(crate) struct Discovered {
    /// The issuer the metadata was looked for at (the one an `iss` must name).
    pub issuer: String,
    /// What its metadata said.
    pub server: AsFacts,
    /// The scope to ask for: the 401's, else the resource metadata's `scopes_supported`.
    pub scope: Option<String>,
    /// The endpoint's canonical resource identifier (RFC 8707).
    pub resource: String,
    /// The revision judged.
    pub revision: String,
}

/// Judges authorization server metadata fetched from a URL built from `issuer`, in a run against
/// `endpoint`.
pub(crate) fn judge_as(
    doc: &Map<String, Value>,
    issuer: &str,
    endpoint: &Endpoint,
    revision: &str,
) -> AsFacts {
    let mut findings = vec![finding(
        AuthCheck::AsMetadataFound,
        revision,
        |_| true,
        "read".into(),
    )];
    let stated = text(doc, "issuer");
    let identical = stated == Some(issuer);
    findings.push(finding(
        AuthCheck::AsIssuerMatches,
        revision,
        |_| identical,
        match stated {
            Some(s) if identical => format!("issuer = {}", quote(s)),
            Some(s) => format!(
                "issuer = {}, the URL was built from {}",
                quote(s),
                quote(issuer)
            ),
            None => format!("no issuer; the URL was built from {}", quote(issuer)),
        },
    ));
    let methods = strings(doc, "code_challenge_methods_supported");
    let s256 = methods.as_ref().is_some_and(|m| m.contains(&"S256"));
    findings.push(finding(
        AuthCheck::AsPkceS256,
        revision,
        |_| s256,
        match &methods {
            None => {
                "code_challenge_methods_supported is absent: a client must refuse to go on".into()
            }
            Some(m) => format!("code_challenge_methods_supported = [{}]", quoted_list(m)),
        },
    ));
    let types = strings(doc, "response_types_supported");
    let code = types.as_ref().is_some_and(|t| t.contains(&"code"));
    findings.push(finding(
        AuthCheck::AsResponseTypeCode,
        revision,
        |_| code,
        match &types {
            None => "response_types_supported is absent".into(),
            Some(t) => format!("response_types_supported = [{}]", quoted_list(t)),
        },
    ));
    // The endpoints a client sends something to: each must be https (loopback http aside) and
    // on the issuer's origin.
    let issuer_ep = parse_parts(issuer).ok();
    let mut insecure = Vec::new();
    let mut elsewhere = Vec::new();
    let mut authorization_endpoint = None;
    let mut token_endpoint = None;
    let mut registration_endpoint = None;
    for key in [
        "authorization_endpoint",
        "token_endpoint",
        "registration_endpoint",
    ] {
        let Some(url) = text(doc, key) else { continue };
        // Origins compare exactly (scheme, host, port), whether or not the URL may be fetched.
        let on_origin = match (&issuer_ep, parse_parts(url)) {
            (Some(i), Ok(ep)) => same_origin(i, &ep),
            _ => false,
        };
        if issuer_ep.is_some() && !on_origin && parse_parts(url).is_ok() {
            elsewhere.push(format!("{key} = {}", quote(url)));
        }
        match fetchable(url, endpoint) {
            Ok(_) => match key {
                "authorization_endpoint" => authorization_endpoint = Some(url.to_string()),
                "token_endpoint" if on_origin => token_endpoint = Some(url.to_string()),
                "registration_endpoint" if on_origin => {
                    registration_endpoint = Some(url.to_string())
                }
                _ => {}
            },
            Err(why) => insecure.push(format!("{key} = {}: {why}", quote(url))),
        }
    }
    let https = insecure.is_empty();
    findings.push(finding(
        AuthCheck::AsEndpointsHttps,
        revision,
        |_| https,
        if https {
            "every endpoint is https: (or http: on a loopback host)".into()
        } else {
            insecure.join("; ")
        },
    ));
    let on_origin = elsewhere.is_empty();
    findings.push(finding(
        AuthCheck::AsEndpointsOnIssuerOrigin,
        revision,
        |_| on_origin,
        if on_origin {
            "every endpoint is on the issuer's origin".into()
        } else {
            format!("off the issuer's origin: {}", elsewhere.join("; "))
        },
    ));
    let registration = Registration {
        dynamic: text(doc, "registration_endpoint").is_some(),
        metadata_document: doc.get("client_id_metadata_document_supported")
            == Some(&Value::Bool(true)),
    };
    AsFacts {
        findings,
        registration,
        // A client may open it only when it is safe; an off-origin one is shown but flagged above.
        authorization_endpoint,
        token_endpoint,
        registration_endpoint,
        issuer_matches: identical,
        pkce_s256: s256,
        iss_supported: doc.get("authorization_response_iss_parameter_supported")
            == Some(&Value::Bool(true)),
        scopes: strings(doc, "scopes_supported")
            .map(|v| v.into_iter().map(str::to_string).collect()),
    }
}

/// The registration findings: a way for a public client, and not dynamic registration alone where
/// that is deprecated.
pub(crate) fn judge_registration(r: Registration, revision: &str) -> Vec<Finding> {
    let public = move |rev: &str| {
        if ProtocolVersion::names_before(rev, ProtocolVersion::V2025_11_25) {
            r.dynamic
        } else {
            r.dynamic || r.metadata_document
        }
    };
    vec![
        finding(
            AuthCheck::RegistrationPublicPath,
            revision,
            public,
            r.describe(),
        ),
        finding(
            AuthCheck::RegistrationNotDcrOnly,
            revision,
            |_| !r.dynamic || r.metadata_document,
            r.describe(),
        ),
    ]
}

/// Whether the scopes a 401 asks for are all advertised.
pub(crate) fn judge_scope(asked: &str, advertised: &[String], revision: &str) -> Finding {
    // A set: both lists come from a server and may be long.
    let known: std::collections::HashSet<&str> = advertised.iter().map(String::as_str).collect();
    let missing: Vec<&str> = asked
        .split_whitespace()
        .filter(|s| !known.contains(s))
        .collect();
    let holds = missing.is_empty();
    finding(
        AuthCheck::ChallengeScopeSupported,
        revision,
        |_| holds,
        if holds {
            format!("the 401 asks for {}, all advertised", quote(asked))
        } else {
            format!(
                "the 401 asks for {}; not in scopes_supported [{}]: {}",
                quote(asked),
                quoted_list(advertised),
                quoted_list(&missing)
            )
        },
    )
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{origins_only, quote, quoted_list};

    #[test]
    fn a_link_keeps_our_words_and_only_the_origins_of_a_servers_values() {
        let detail = format!(
            "resource = {}; authorization_servers = [{}]; types {}",
            quote("https://mcp.example.com/mcp?key=abc"),
            quoted_list(&["https://user:pw@as.example", "http://127.0.0.1:9/x\"y"]),
            quote("code \"quoted\" \u{202e}"),
        );
        assert_eq!(
            origins_only(&detail),
            r#"resource = "https://mcp.example.com/…"; authorization_servers = ["https://as.example/…", "http://127.0.0.1:9/…"]; types "…""#
        );
        assert_eq!(
            origins_only("every endpoint is on the issuer's origin"),
            "every endpoint is on the issuer's origin"
        );
        assert_eq!(
            origins_only("an unclosed \"https://a.example/secret"),
            "an unclosed \"https://a.example/…\""
        );
    }
}
