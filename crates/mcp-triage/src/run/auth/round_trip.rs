//! A page's sign-in leaves the page for the authorization server and comes back to a fresh load
//! of it. What the sign-in needs after the return is the one record a page stores
//! (SECURITY.md rule 11): written to `sessionStorage` just before leaving, read and
//! deleted on return. It holds the round trip's values (state, verifier, expected issuer, token
//! endpoint, redirect URI, resource, client id) and the form's endpoint, era and time limit, never
//! a token or a header value; it is versioned, capped, and refused when stale or inconsistent.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::judge::{AsFacts, Discovered, Registration};
use super::signin::{ClientFrom, Phase, SignIn};
use super::urls::{fetchable, same_origin};
use crate::run::endpoint::parse_endpoint;
use crate::secrets::redact::base64url;

/// The record's format name: a record of another format is refused, not guessed at.
pub const ROUND_TRIP_FORMAT: &str = "mcp-triage-signin/1";

/// The key a page stores the record under.
pub const ROUND_TRIP_KEY: &str = "mcp-triage-signin";

/// How long a round trip may take, in seconds: an older record is refused.
pub const ROUND_TRIP_MAX_AGE_SECONDS: u64 = 600;

/// The largest record read, and the longest value in it.
const MAX_RECORD_BYTES: usize = 32 * 1024;
const MAX_VALUE_CHARS: usize = 4 * 1024;

/// The form's values a page gets back after the round trip: where the check runs, never a token
/// or a header value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReturnTo {
    /// The endpoint as typed.
    pub endpoint: String,
    /// The era chosen.
    pub era: String,
    /// The run's time limit as typed.
    pub run_seconds: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    format: String,
    written_ms: f64,
    form: ReturnTo,
    issuer: String,
    iss_supported: bool,
    revision: String,
    resource: String,
    scope: Option<String>,
    token_endpoint: String,
    redirect_uri: String,
    client_id: String,
    client_from: String,
    state: String,
    verifier: String,
}

const CLIENT_FROM: [(ClientFrom, &str); 3] = [
    (ClientFrom::Given, "given"),
    (ClientFrom::MetadataDocument, "metadata_document"),
    (ClientFrom::Registered, "registered"),
];

impl SignIn {
    /// The record a page stores just before it opens the authorization URL, written at `now_ms`
    /// (the page's clock), with the form's values to come back to.
    pub fn round_trip(&self, form: &ReturnTo, now_ms: f64) -> Result<String, String> {
        let (Phase::Authorize, Some(client_id)) = (&self.phase, &self.client_id) else {
            return Err("there is no authorization to leave for".into());
        };
        let client_from = CLIENT_FROM
            .iter()
            .find(|(c, _)| *c == self.client_from)
            .map_or("registered", |(_, name)| name);
        let record = Record {
            format: ROUND_TRIP_FORMAT.into(),
            written_ms: now_ms,
            form: form.clone(),
            issuer: self.found.issuer.clone(),
            iss_supported: self.found.server.iss_supported,
            revision: self.found.revision.clone(),
            resource: self.found.resource.clone(),
            scope: self.scope.clone(),
            token_endpoint: self.token_endpoint.clone(),
            redirect_uri: self.redirect_uri.clone(),
            client_id: client_id.clone(),
            client_from: client_from.into(),
            state: self.state.clone(),
            verifier: self.verifier.clone(),
        };
        serde_json::to_string(&record).map_err(|e| e.to_string())
    }

    /// The sign-in a page resumes after the round trip, from its record read at `now_ms`: waiting
    /// for the callback ([`SignIn::callback`]), then the token request as before it left. A
    /// record that is unreadable, of another format, older than
    /// [`ROUND_TRIP_MAX_AGE_SECONDS`], or whose token endpoint is not on the issuer's origin is
    /// refused, in words.
    pub fn resume(text: &str, now_ms: f64) -> Result<(SignIn, ReturnTo), String> {
        let again = "start the sign-in again";
        if text.len() > MAX_RECORD_BYTES {
            return Err(format!("the sign-in record is too large: {again}"));
        }
        let r: Record = serde_json::from_str(text)
            .map_err(|_| format!("the sign-in record is unreadable: {again}"))?;
        if r.format != ROUND_TRIP_FORMAT {
            return Err(format!("the sign-in record is of another format: {again}"));
        }
        let age = now_ms - r.written_ms;
        if !(0.0..=(ROUND_TRIP_MAX_AGE_SECONDS as f64) * 1000.0).contains(&age) {
            return Err(format!(
                "the sign-in took longer than {} minutes: {again}",
                ROUND_TRIP_MAX_AGE_SECONDS / 60
            ));
        }
        let values = [
            &r.form.endpoint,
            &r.form.era,
            &r.form.run_seconds,
            &r.issuer,
            &r.revision,
            &r.resource,
            &r.token_endpoint,
            &r.redirect_uri,
            &r.client_id,
            &r.state,
            &r.verifier,
        ];
        if values
            .iter()
            .any(|v| v.is_empty() || v.len() > MAX_VALUE_CHARS)
            || r.scope.as_ref().is_some_and(|s| s.len() > MAX_VALUE_CHARS)
        {
            return Err(format!(
                "the sign-in record has an empty or overlong value: {again}"
            ));
        }
        // The verifier and the code go only to a token endpoint on the issuer's origin, reachable
        // under the fetch rule from the endpoint's run.
        let endpoint = parse_endpoint(&r.form.endpoint)
            .map_err(|p| format!("the sign-in record's endpoint: {p}"))?;
        let issuer =
            parse_endpoint(&r.issuer).map_err(|p| format!("the sign-in record's issuer: {p}"))?;
        let token = fetchable(&r.token_endpoint, &endpoint).map_err(|_| {
            format!("the sign-in record's token endpoint may not be sent to: {again}")
        })?;
        if !same_origin(&issuer, &token) {
            return Err(format!(
                "the sign-in record's token endpoint is not on the issuer's origin: {again}"
            ));
        }
        let verifier_ok = (43..=128).contains(&r.verifier.len())
            && r.verifier
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
        if !verifier_ok {
            return Err(format!(
                "the sign-in record's verifier is malformed: {again}"
            ));
        }
        let client_from = CLIENT_FROM
            .iter()
            .find(|(_, name)| *name == r.client_from)
            .map(|(c, _)| *c)
            .ok_or_else(|| format!("the sign-in record's client is of no known kind: {again}"))?;
        let server = AsFacts {
            findings: Vec::new(),
            registration: Registration {
                dynamic: false,
                metadata_document: false,
            },
            authorization_endpoint: None,
            token_endpoint: Some(r.token_endpoint.clone()),
            registration_endpoint: None,
            scopes: None,
            issuer_matches: true,
            pkce_s256: true,
            iss_supported: r.iss_supported,
        };
        let found = Discovered {
            issuer: r.issuer,
            server,
            scope: r.scope.clone(),
            resource: r.resource,
            revision: r.revision,
        };
        let sign_in = SignIn {
            found,
            authorization_endpoint: String::new(),
            token_endpoint: r.token_endpoint,
            redirect_uri: r.redirect_uri,
            client_name: String::new(),
            client_id: Some(r.client_id),
            client_from,
            scope: r.scope,
            challenge: base64url(&Sha256::digest(r.verifier.as_bytes())),
            verifier: r.verifier,
            state: r.state,
            code: None,
            access_token: None,
            refresh_token: None,
            granted_scope: None,
            expires_in: None,
            phase: Phase::Authorize,
            in_flight: false,
            notes: Vec::new(),
            refreshed: false,
            stepped_up: false,
            renewing: None,
            spent: Vec::new(),
            issued: 0,
        };
        Ok((sign_in, r.form))
    }
}
