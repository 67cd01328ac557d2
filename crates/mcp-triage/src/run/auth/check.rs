//! What the OAuth doctor judges: one identifier per check, and per spec revision the rule that
//! applies (its strength, its words, where it is written), or none. The facts come from `judge.rs`;
//! this table alone says what each revision asks.

use crate::vocabulary::protocol::ProtocolVersion;
use serde::Serialize;

use crate::judge::spec::Conformance;

/// The revisions the doctor judges against, oldest first.
pub const REVISIONS: [&str; 4] = [
    ProtocolVersion::V2025_03_26.as_str(),
    ProtocolVersion::V2025_06_18.as_str(),
    ProtocolVersion::V2025_11_25.as_str(),
    ProtocolVersion::V2026_07_28.as_str(),
];

labelled_enum! {
    /// One check of authorization discovery.
    AuthCheck {
        /// The 401 names its protected resource metadata (`resource_metadata` in `WWW-Authenticate`).
        ChallengeNamesMetadata = "challenge_names_metadata",
        /// The scope a 401 asks for is among the scopes the metadata advertises.
        ChallengeScopeSupported = "challenge_scope_supported",
        /// Protected resource metadata was found and read.
        PrmFound = "prm_found",
        /// The metadata's `resource` is the endpoint's resource identifier.
        PrmResourceMatches = "prm_resource_matches",
        /// The metadata names at least one authorization server.
        PrmNamesAuthorizationServer = "prm_names_authorization_server",
        /// Authorization server metadata was found and read.
        AsMetadataFound = "as_metadata_found",
        /// The metadata's `issuer` is the issuer its URL was built from.
        AsIssuerMatches = "as_issuer_matches",
        /// `code_challenge_methods_supported` lists `S256`.
        AsPkceS256 = "as_pkce_s256",
        /// `response_types_supported` lists `code`.
        AsResponseTypeCode = "as_response_type_code",
        /// The authorization, token and registration endpoints are `https:` (loopback `http:` aside).
        AsEndpointsHttps = "as_endpoints_https",
        /// The authorization, token and registration endpoints are on the issuer's origin.
        AsEndpointsOnIssuerOrigin = "as_endpoints_on_issuer_origin",
        /// A public client has a way to register (dynamic registration or a Client ID Metadata Document).
        RegistrationPublicPath = "registration_public_path",
        /// Registration is not dynamic registration alone.
        RegistrationNotDcrOnly = "registration_not_dcr_only",
    }
}

labelled_enum! {
    /// How strongly a revision asks for what a check looks at.
    Level {
        /// A MUST of the revision (or of an RFC it requires).
        Must = "must",
        /// A SHOULD of the revision.
        Should = "should",
        /// No spec's words: what this tool and careful clients refuse, for the user's safety.
        Safety = "safety",
    }
}

/// The rule a revision applies to a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuthRule {
    /// How strongly it asks.
    pub level: Level,
    /// What it asks, in our words.
    pub rule: &'static str,
    /// Where it is written.
    pub link: String,
}

fn mcp(revision: &str) -> String {
    format!("https://modelcontextprotocol.io/specification/{revision}/basic/authorization")
}

fn rfc(number: u32, section: &str) -> String {
    format!("https://www.rfc-editor.org/rfc/rfc{number}#section-{section}")
}

/// The rule `revision` applies to `check`, or `None` when that revision says nothing of it.
pub fn rule(check: AuthCheck, revision: &str) -> Option<AuthRule> {
    let at_least = |first: ProtocolVersion| ProtocolVersion::names_from(revision, first);
    let (level, rule, link) = match check {
        AuthCheck::ChallengeNamesMetadata
            if ProtocolVersion::parse(revision) == Some(ProtocolVersion::V2025_06_18) =>
        {
            (
                Level::Must,
                "Authorization Server Location: a 401 carries WWW-Authenticate with resource_metadata (RFC 9728 §5.1)",
                mcp(revision),
            )
        }
        AuthCheck::ChallengeScopeSupported if at_least(ProtocolVersion::V2025_11_25) => (
            Level::Should,
            "Scope Selection Strategy: a client asks for the 401's scope, else scopes_supported; both should name the same scopes",
            mcp(revision),
        ),
        AuthCheck::PrmFound if at_least(ProtocolVersion::V2025_06_18) => (
            Level::Must,
            "Authorization Server Discovery: the server implements OAuth 2.0 Protected Resource Metadata (RFC 9728)",
            mcp(revision),
        ),
        AuthCheck::PrmResourceMatches if at_least(ProtocolVersion::V2025_06_18) => (
            Level::Must,
            "RFC 9728 §3.3: resource is identical to the resource identifier the metadata URL was made from (the URL the client requested)",
            rfc(9728, "3.3"),
        ),
        AuthCheck::PrmNamesAuthorizationServer if at_least(ProtocolVersion::V2025_06_18) => (
            Level::Must,
            "Authorization Server Location: the metadata's authorization_servers names at least one authorization server",
            mcp(revision),
        ),
        AuthCheck::AsMetadataFound
            if ProtocolVersion::parse(revision) == Some(ProtocolVersion::V2025_03_26) =>
        {
            (
                Level::Should,
                "Server Metadata Discovery: servers should offer RFC 8414 metadata; without it clients use /authorize, /token and /register at the server's base URL",
                mcp(revision),
            )
        }
        AuthCheck::AsMetadataFound
            if ProtocolVersion::parse(revision) == Some(ProtocolVersion::V2025_06_18) =>
        {
            (
                Level::Must,
                "Authorization Server Metadata: authorization servers provide RFC 8414 metadata",
                mcp(revision),
            )
        }
        AuthCheck::AsMetadataFound => (
            Level::Must,
            "Authorization Server Metadata Discovery: authorization servers provide RFC 8414 or OpenID Connect Discovery metadata",
            mcp(revision),
        ),
        AuthCheck::AsIssuerMatches if at_least(ProtocolVersion::V2026_07_28) => (
            Level::Must,
            "issuer is identical to the issuer the metadata URL was built from, and a client must not use metadata whose issuer differs (RFC 8414 §3.3)",
            mcp(revision),
        ),
        AuthCheck::AsIssuerMatches => (
            Level::Must,
            "RFC 8414 §3.3: issuer is identical to the issuer identifier the metadata URL was built from",
            rfc(8414, "3.3"),
        ),
        AuthCheck::AsPkceS256 if at_least(ProtocolVersion::V2025_11_25) => (
            Level::Must,
            "Authorization Code Protection: clients use PKCE with S256 and refuse to go on when code_challenge_methods_supported is absent",
            mcp(revision),
        ),
        AuthCheck::AsResponseTypeCode => (
            Level::Must,
            "RFC 8414 §2: response_types_supported is required, and the authorization code flow needs code",
            rfc(8414, "2"),
        ),
        AuthCheck::AsEndpointsHttps => (
            Level::Must,
            "Communication Security: every authorization server endpoint is served over HTTPS (loopback aside, for development)",
            mcp(revision),
        ),
        AuthCheck::AsEndpointsOnIssuerOrigin => (
            Level::Safety,
            "a client sends its code verifier, code and credentials only to endpoints on the issuer's origin (an endpoint elsewhere receives them)",
            rfc(9700, "4.4"),
        ),
        AuthCheck::RegistrationPublicPath
            if ProtocolVersion::names_before(revision, ProtocolVersion::V2025_11_25) =>
        {
            (
                Level::Should,
                "Dynamic Client Registration: servers should support RFC 7591, the one way a client unknown to them can register",
                mcp(revision),
            )
        }
        AuthCheck::RegistrationPublicPath => (
            Level::Should,
            "Client Registration Approaches: a client the server does not know registers with a Client ID Metadata Document or dynamic registration",
            mcp(revision),
        ),
        AuthCheck::RegistrationNotDcrOnly if at_least(ProtocolVersion::V2026_07_28) => (
            Level::Should,
            "Client Registration: dynamic registration is deprecated; offer Client ID Metadata Documents",
            mcp(revision),
        ),
        _ => return None,
    };
    Some(AuthRule { level, rule, link })
}

/// One check's verdict, at the revision judged, with the revisions that would judge otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The check.
    pub check: AuthCheck,
    /// The revision judged.
    pub revision: String,
    /// The verdict at that revision.
    pub conformance: Conformance,
    /// The rule applied (none: that revision says nothing of it).
    pub rule: Option<AuthRule>,
    /// What was seen, with the server's values quoted.
    pub detail: String,
    /// The revisions that judge otherwise, with their verdicts.
    pub elsewhere: Vec<(String, Conformance)>,
}

/// The finding for `check` at `revision`: `holds` says, per revision, whether what it asks for is
/// there.
pub(crate) fn finding(
    check: AuthCheck,
    revision: &str,
    holds: impl Fn(&str) -> bool,
    detail: String,
) -> Finding {
    let verdict = |rev: &str| match rule(check, rev) {
        None => Conformance::NotApplicable,
        Some(_) if holds(rev) => Conformance::Conforms,
        Some(_) => Conformance::Deviates,
    };
    let judged = verdict(revision);
    Finding {
        check,
        revision: revision.to_string(),
        conformance: judged,
        rule: rule(check, revision),
        detail,
        elsewhere: REVISIONS
            .iter()
            .filter(|r| **r != revision)
            .map(|r| (r.to_string(), verdict(r)))
            .filter(|(_, v)| *v != judged)
            .collect(),
    }
}
