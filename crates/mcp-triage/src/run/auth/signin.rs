//! Signing in, continuing the doctor: the authorization code flow with PKCE as a sans-IO machine.
//! The shell brings random bytes, its loopback redirect URI and perhaps a client id; the core
//! registers (when it must), builds the authorization URL the shell opens, checks the callback
//! (`state`, RFC 9207 `iss`), and builds the token request. Nothing here opens, listens or fetches.
//!
//! What it refuses (each has happened to a client): an authorization server without PKCE S256, a
//! token endpoint off the issuer's origin (the verifier and code go nowhere else), an authorization
//! endpoint that is not `https:` (or loopback `http:`), server metadata whose `issuer` is not the
//! one it was looked for at, a callback without the `state` sent or with another issuer's `iss`.
//!
//! During the run it may renew once each way (`renew.rs` decides when), and says so in its summary.

use crate::vocabulary::protocol::ProtocolVersion;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::browser::post;
use super::doctor::AuthDoctor;
use super::judge::{Discovered, quote};
use crate::secrets::redact::base64url;
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::percent::{form, parse_form, with_query};
use crate::vocabulary::step::Outgoing;

/// How many random bytes a sign-in takes from the shell: 32 for the PKCE verifier, 16 for `state`.
pub const SIGN_IN_RANDOM_BYTES: usize = 48;

/// How long a shell's loopback listener waits for the browser to come back, in seconds.
pub const SIGN_IN_WAIT_SECONDS: u64 = 300;

/// The most requests a loopback listener reads before the callback (a browser may ask for a
/// favicon first), and the most bytes of each request's head.
pub const LISTENER_MAX_REQUESTS: usize = 16;
/// See [`LISTENER_MAX_REQUESTS`].
pub const LISTENER_MAX_HEAD: usize = 8 * 1024;

/// The longest access or refresh token kept (a longer one is refused, not cut).
const MAX_TOKEN_CHARS: usize = 16 * 1024;

/// What the shell brings to a sign-in.
#[derive(Clone)]
pub struct SignInInput {
    /// Fresh random bytes from the platform's secure source.
    pub random: [u8; SIGN_IN_RANDOM_BYTES],
    /// Where the authorization server sends the browser back (the shell's loopback listener).
    pub redirect_uri: String,
    /// A client id the user registered beforehand; else a client ID metadata document, else
    /// dynamic registration.
    pub client_id: Option<String>,
    /// The page's client ID metadata document, when its build has one: its URL and its text (the
    /// core uses it only where the server accepts such documents and it names this redirect URI).
    pub metadata_document: Option<(String, String)>,
    /// The `client_name` a dynamic registration gives.
    pub client_name: String,
}

impl std::fmt::Debug for SignInInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SignInInput([REDACTED], {})", self.redirect_uri)
    }
}

/// Where the client id came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClientFrom {
    /// The user gave it.
    Given,
    /// The page's client ID metadata document's URL.
    MetadataDocument,
    /// Dynamic registration, for this sign-in.
    Registered,
}

impl ClientFrom {
    pub(super) fn describe(self) -> &'static str {
        match self {
            ClientFrom::Given => "given by you",
            ClientFrom::MetadataDocument => "this page's client ID metadata document",
            ClientFrom::Registered => "registered dynamically for this sign-in",
        }
    }
}

/// The longest client ID metadata document read (a shell reads no more).
pub const MAX_METADATA_DOCUMENT: usize = 8 * 1024;

/// Why the page's client ID metadata document cannot serve for `redirect_uri`, if it cannot.
fn metadata_document_problem(url: &str, text: &str, redirect_uri: &str) -> Option<&'static str> {
    if !url.starts_with("https://") {
        return Some("its URL is not https:");
    }
    if text.len() > MAX_METADATA_DOCUMENT {
        return Some("it is larger than 8 KiB");
    }
    let Ok(doc) = serde_json::from_str::<serde_json::Map<String, Value>>(text) else {
        return Some("it is not a JSON object");
    };
    if doc.get("client_id").and_then(Value::as_str) != Some(url) {
        return Some("its client_id is not its own URL");
    }
    let redirects = doc.get("redirect_uris").and_then(Value::as_array);
    if !redirects.is_some_and(|r| r.iter().any(|u| u.as_str() == Some(redirect_uri))) {
        return Some("its redirect_uris do not name this page");
    }
    if doc
        .get("token_endpoint_auth_method")
        .is_some_and(|m| m.as_str() != Some("none"))
    {
        return Some("its token_endpoint_auth_method is not none");
    }
    None
}

/// What the shell does next.
#[derive(Debug, Clone, PartialEq)]
pub enum SignInNext {
    /// Send this (a registration or a token request; never with the run's token) and hand back
    /// the exchange with [`SignIn::answer`].
    Send(Outgoing),
    /// Open this URL in the user's browser, or print it; then hand back the request target the
    /// loopback listener received with [`SignIn::callback`].
    Open(String),
    /// Signed in: [`SignIn::access_token`] holds the token.
    Done,
    /// Stopped, with why in words.
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Phase {
    Register,
    Authorize,
    Token,
    Refresh,
    Done,
    Failed(String),
}

/// One sign-in: see the module's rules.
pub struct SignIn {
    pub(super) found: Discovered,
    pub(super) authorization_endpoint: String,
    pub(super) token_endpoint: String,
    pub(super) redirect_uri: String,
    pub(super) client_name: String,
    pub(super) client_id: Option<String>,
    pub(super) client_from: ClientFrom,
    /// The scope asked for: the doctor's, or a step-up's.
    pub(super) scope: Option<String>,
    pub(super) verifier: String,
    pub(super) challenge: String,
    pub(super) state: String,
    pub(super) code: Option<String>,
    pub(super) access_token: Option<String>,
    pub(super) refresh_token: Option<String>,
    pub(super) granted_scope: Option<String>,
    pub(super) expires_in: Option<u64>,
    pub(super) phase: Phase,
    pub(super) in_flight: bool,
    pub(super) notes: Vec<String>,
    /// Whether the one refresh and the one step-up a run may make were made.
    pub(super) refreshed: bool,
    pub(super) stepped_up: bool,
    /// The renewal under way: what called for it, and what the report says when it succeeds.
    pub(super) renewing: Option<(String, String)>,
    /// Secrets of this sign-in that a renewal replaced: redaction still removes them.
    pub(super) spent: Vec<String>,
    /// How many access tokens this sign-in has had: which one a request carried.
    pub(super) issued: u32,
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SignIn({:?}, [REDACTED])", self.phase)
    }
}

impl AuthDoctor {
    /// A sign-in from what the doctor found, or why there can be none (in words: what the doctor
    /// found missing or unsafe).
    pub fn sign_in(&self, input: SignInInput) -> Result<SignIn, String> {
        SignIn::new(self.discovered()?, input)
    }

    /// Whether a page at `redirect_uri` should bring its client ID metadata document to the
    /// sign-in: the authorization server accepts such documents and the page is served over https
    /// (elsewhere nothing is fetched for it).
    pub fn wants_metadata_document(&self, redirect_uri: &str) -> bool {
        redirect_uri.starts_with("https://")
            && self
                .discovered()
                .is_ok_and(|f| f.server.registration.metadata_document)
    }

    /// Whether the doctor found what a sign-in starts from (it may still refuse, and say why).
    pub fn can_sign_in(&self) -> bool {
        self.discovered().is_ok()
    }
}

impl SignIn {
    fn new(found: Discovered, input: SignInInput) -> Result<SignIn, String> {
        let server = &found.server;
        if !server.issuer_matches {
            return Err(format!(
                "the authorization server's metadata names another issuer than {}: a client must not use it",
                quote(&found.issuer)
            ));
        }
        if !server.pkce_s256 {
            return Err("the authorization server does not advertise PKCE with S256 (code_challenge_methods_supported): signing in without it is refused".into());
        }
        let Some(token_endpoint) = server.token_endpoint.clone() else {
            return Err("the metadata names no token endpoint on the issuer's origin: the code and its verifier would go elsewhere, so nothing is sent".into());
        };
        let Some(authorization_endpoint) = server.authorization_endpoint.clone() else {
            return Err("the metadata names no authorization endpoint that may be opened (https:, or http: on a loopback host)".into());
        };
        // The client id: the user's, else the page's metadata document where the server accepts
        // one and it names this page, else dynamic registration.
        let mut notes = Vec::new();
        let document = server.registration.metadata_document;
        let client = match (input.client_id, &input.metadata_document) {
            (Some(id), _) => Some((id, ClientFrom::Given)),
            (None, Some((url, text))) if document => {
                match metadata_document_problem(url, text, &input.redirect_uri) {
                    None => Some((url.clone(), ClientFrom::MetadataDocument)),
                    Some(why) => {
                        notes.push(format!("This page's client ID metadata document was not used ({why}): registered dynamically instead."));
                        None
                    }
                }
            }
            (None, None) if document && input.redirect_uri.starts_with("https://") => {
                notes.push("The authorization server accepts client ID metadata documents, but this build of the page has none (scripts/client-metadata.mjs writes one for the address it is served at): registered dynamically instead.".into());
                None
            }
            (None, _) => None,
        };
        let (phase, client_id, client_from) = match (client, &server.registration_endpoint) {
            (Some((id, from)), _) => (Phase::Authorize, Some(id), from),
            (None, Some(_)) => (Phase::Register, None, ClientFrom::Registered),
            (None, None) => {
                return Err("no client id was given and the authorization server offers no dynamic registration: register a client with it beforehand and give its id (--client-id on the command line, Client ID on the page)".into());
            }
        };
        let (verifier_bytes, state_bytes) = input.random.split_at(32);
        let verifier = base64url(verifier_bytes);
        let challenge = base64url(&Sha256::digest(verifier.as_bytes()));
        Ok(SignIn {
            authorization_endpoint,
            token_endpoint,
            redirect_uri: input.redirect_uri,
            client_name: input.client_name,
            client_id,
            client_from,
            scope: found.scope.clone(),
            verifier,
            challenge,
            state: base64url(state_bytes),
            code: None,
            access_token: None,
            refresh_token: None,
            granted_scope: None,
            expires_in: None,
            phase,
            in_flight: false,
            notes,
            refreshed: false,
            stepped_up: false,
            renewing: None,
            spent: Vec::new(),
            issued: 0,
            found,
        })
    }

    /// What the shell does next (the same answer until the shell hands back what it asked for).
    pub fn next_step(&mut self) -> SignInNext {
        match &self.phase {
            Phase::Failed(why) => SignInNext::Failed(why.clone()),
            Phase::Done => SignInNext::Done,
            _ if self.in_flight => SignInNext::Failed("a request is still in flight".into()),
            Phase::Register => {
                self.in_flight = true;
                SignInNext::Send(self.registration_request())
            }
            // Resumed after a page's round trip: only the callback is awaited.
            Phase::Authorize if self.authorization_endpoint.is_empty() => SignInNext::Failed(
                "the sign-in waits for the authorization server's callback".into(),
            ),
            Phase::Authorize => SignInNext::Open(self.authorization_url()),
            Phase::Token => {
                self.in_flight = true;
                SignInNext::Send(self.token_request())
            }
            Phase::Refresh => {
                self.in_flight = true;
                SignInNext::Send(self.refresh_request())
            }
        }
    }

    fn registration_request(&self) -> Outgoing {
        let mut doc = json!({
            "client_name": self.client_name,
            "redirect_uris": [self.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            // A page served over https is a web client; the loopback redirect is a native one's.
            "application_type": if self.redirect_uri.starts_with("https://") { "web" } else { "native" },
        });
        if let (Some(scope), Some(map)) = (&self.found.scope, doc.as_object_mut()) {
            map.insert("scope".into(), Value::String(scope.clone()));
        }
        let url = self
            .found
            .server
            .registration_endpoint
            .clone()
            .unwrap_or_default();
        post(
            AuthStep::Registration,
            &url,
            "application/json",
            &doc.to_string(),
        )
    }

    /// The URL the shell opens: every value from what the doctor judged and this sign-in's own
    /// PKCE challenge and `state`.
    pub fn authorization_url(&self) -> String {
        let client_id = self.client_id.clone().unwrap_or_default();
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", client_id.as_str()),
            ("redirect_uri", self.redirect_uri.as_str()),
            ("code_challenge", self.challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", self.state.as_str()),
        ];
        if ProtocolVersion::names_from(self.found.revision.as_str(), ProtocolVersion::V2025_06_18) {
            pairs.push(("resource", self.found.resource.as_str()));
        }
        if let Some(scope) = &self.scope {
            pairs.push(("scope", scope));
        }
        with_query(&self.authorization_endpoint, &pairs)
    }

    fn token_request(&self) -> Outgoing {
        let code = self.code.clone().unwrap_or_default();
        self.token_post(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", self.redirect_uri.as_str()),
            ("code_verifier", self.verifier.as_str()),
        ])
    }

    /// The refresh request (RFC 6749 §6): the same client and resource, no scope (the same).
    fn refresh_request(&self) -> Outgoing {
        let refresh = self.refresh_token.clone().unwrap_or_default();
        self.token_post(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh.as_str()),
        ])
    }

    /// A form POST to the token endpoint: `grant`, the client id, and the resource where the
    /// revision sends one.
    fn token_post(&self, grant: &[(&str, &str)]) -> Outgoing {
        let client_id = self.client_id.clone().unwrap_or_default();
        let mut pairs = grant.to_vec();
        pairs.push(("client_id", client_id.as_str()));
        if ProtocolVersion::names_from(self.found.revision.as_str(), ProtocolVersion::V2025_06_18) {
            pairs.push(("resource", self.found.resource.as_str()));
        }
        post(
            AuthStep::TokenEndpoint,
            &self.token_endpoint,
            "application/x-www-form-urlencoded",
            &form(&pairs),
        )
    }

    pub(super) fn fail(&mut self, why: String) {
        if let Some((what, _)) = self.renewing.take() {
            self.note(format!(
                "{what}; renewing failed: {why}. The refusal stands."
            ));
        }
        self.phase = Phase::Failed(why);
    }

    pub(super) fn note(&mut self, line: String) {
        if !self.notes.contains(&line) {
            self.notes.push(line);
        }
    }

    /// Hands back the answer to the registration or token request [`SignIn::next_step`] asked for.
    pub fn answer(&mut self, exchange: &Exchange) {
        if !self.in_flight {
            return;
        }
        self.in_flight = false;
        let status = exchange.response.as_ref().map(|r| r.status);
        // A JSON object whatever the status (an error answer says its error in one too).
        let doc = exchange
            .response
            .as_ref()
            .filter(|r| r.body_complete != Some(false))
            .and_then(|r| r.body.as_deref())
            .and_then(|b| serde_json::from_str::<serde_json::Map<String, Value>>(b).ok())
            .ok_or(());
        match (self.phase.clone(), status, doc) {
            (Phase::Register, Some(200 | 201), Ok(doc)) => {
                match doc.get("client_id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() && id.len() <= 1024 => {
                        self.client_id = Some(id.to_string());
                        self.phase = Phase::Authorize;
                    }
                    _ => self.fail("the registration answer holds no client_id".into()),
                }
            }
            (Phase::Token | Phase::Refresh, Some(200), Ok(doc)) => self.take_tokens(&doc),
            (phase, _, doc) => {
                let what = match phase {
                    Phase::Register => "dynamic registration",
                    Phase::Refresh => "the refresh",
                    _ => "the token request",
                };
                let said = doc
                    .ok()
                    .and_then(|d| d.get("error").and_then(Value::as_str).map(quote))
                    .map(|e| format!(", error {e}"))
                    .unwrap_or_default();
                let how = match (status, &exchange.transport_error) {
                    (Some(s), _) => format!("HTTP {s}{said}"),
                    (None, Some(t)) => format!("no answer ({})", t.label()),
                    (None, None) => "no answer".into(),
                };
                self.fail(format!("{what} failed: {how}"));
            }
        }
    }

    fn take_tokens(&mut self, doc: &serde_json::Map<String, Value>) {
        let token = |k: &str| {
            doc.get(k)
                .and_then(Value::as_str)
                .filter(|t| {
                    !t.is_empty()
                        && t.len() <= MAX_TOKEN_CHARS
                        && t.bytes().all(|b| (0x21..0x7f).contains(&b))
                })
                .map(str::to_string)
        };
        let bearer = doc
            .get("token_type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("bearer"));
        match token("access_token") {
            Some(t) if bearer => {
                // What a renewal replaces stays known to redaction ([`SignIn::secrets`]), as does
                // the spent code; a refresh answer without a new refresh token keeps the old one.
                self.spent.extend(self.access_token.replace(t));
                self.issued = self.issued.saturating_add(1);
                if let Some(r) = token("refresh_token") {
                    self.spent.extend(self.refresh_token.replace(r));
                }
                let scope = doc.get("scope").and_then(Value::as_str).map(str::to_string);
                if scope.is_some() || self.phase == Phase::Token {
                    self.granted_scope = scope;
                }
                self.expires_in = doc.get("expires_in").and_then(Value::as_u64);
                self.phase = Phase::Done;
                if let Some((_, done)) = self.renewing.take() {
                    self.note(done);
                }
            }
            Some(_) => self.fail("the token answer's token_type is not Bearer".into()),
            None => self.fail("the token answer holds no usable access_token".into()),
        }
    }

    /// The path of the redirect URI (`/callback`): what the listener waits for.
    fn callback_path(&self) -> String {
        self.redirect_uri
            .splitn(4, '/')
            .nth(3)
            .map(|p| format!("/{p}"))
            .unwrap_or_else(|| "/".into())
    }

    /// Whether a request to the loopback listener with this method and target is the callback
    /// (anything else, a browser's favicon request say, is answered 404 and waited past).
    pub fn is_callback(&self, method: &str, target: &str) -> bool {
        let path = target.split_once('?').map_or(target, |(p, _)| p);
        method == "GET" && path == self.callback_path()
    }

    /// The listener's whole answer, bytes to write and close: a fixed page for the callback, else
    /// 404. Nothing of the request is echoed, so nothing a server put in it reaches the browser.
    pub fn listener_answer(callback: bool) -> String {
        let (status, body) = if callback {
            (
                "200 OK",
                "MCP Triage received the sign-in. You may close this tab.\n",
            )
        } else {
            ("404 Not Found", "Not found.\n")
        };
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    /// Hands back the request target the loopback listener received (`/callback?code=…&state=…`).
    pub fn callback(&mut self, target: &str) {
        if self.phase != Phase::Authorize {
            return;
        }
        let path = self.callback_path();
        let (got_path, query) = target.split_once('?').unwrap_or((target, ""));
        if got_path != path {
            return self.fail(format!(
                "the callback came to {}, not {}",
                quote(got_path),
                quote(&path)
            ));
        }
        let params = match parse_form(query) {
            Ok(p) => p,
            Err(why) => return self.fail(format!("the callback's query is refused: {why}")),
        };
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        match get("state") {
            None => return self.fail("the callback carries no state: refused (an answer without it may not be the one this sign-in asked for)".into()),
            Some(s) if s != self.state => {
                return self.fail("the callback's state is not the one sent: refused".into());
            }
            Some(_) => {}
        }
        // RFC 9207: compare `iss` exactly when present; when the server says it sends one, its
        // absence is refused from 2026-07-28 (a verdict before). On a mismatch the server's error
        // words are not shown.
        let modern =
            ProtocolVersion::names_from(self.found.revision.as_str(), ProtocolVersion::V2026_07_28);
        match get("iss") {
            Some(iss) if iss != self.found.issuer => {
                return self.fail(format!(
                    "the callback's iss {} is not the expected issuer {}: refused (a mix-up of authorization servers)",
                    quote(&iss),
                    quote(&self.found.issuer)
                ));
            }
            None if self.found.server.iss_supported && modern => {
                return self.fail("the authorization server says it sends iss, and the callback has none: refused".into());
            }
            None if self.found.server.iss_supported => self.notes.push(
                "the callback had no iss although the server advertises it: accepted at this revision, refused from 2026-07-28".into(),
            ),
            _ => {}
        }
        if let Some(error) = get("error") {
            // Its words and its link, as text (a page never makes them a link).
            let description = get("error_description")
                .map(|d| format!(" ({})", quote(&d)))
                .unwrap_or_default();
            let uri = get("error_uri")
                .map(|u| format!(", see {}", quote(&u)))
                .unwrap_or_default();
            return self.fail(format!(
                "the authorization server refused: error {}{description}{uri}",
                quote(&error)
            ));
        }
        match get("code") {
            Some(code) if !code.is_empty() && code.len() <= MAX_TOKEN_CHARS => {
                self.code = Some(code);
                self.phase = Phase::Token;
            }
            _ => self.fail("the callback carries no code".into()),
        }
    }

    /// The access token, once signed in.
    pub fn access_token(&self) -> Option<&str> {
        self.access_token.as_deref()
    }

    /// Everything of this sign-in that redaction must remove from every output: the verifier, the
    /// code, the tokens.
    pub fn secrets(&self) -> Vec<String> {
        [
            Some(&self.verifier),
            self.code.as_ref(),
            self.access_token.as_ref(),
            self.refresh_token.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(&self.spent)
        .cloned()
        .collect()
    }

    /// What the report says of the sign-in, with no secret in it.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Signed in with OAuth at {} as client {} ({}){}{}.",
            quote(&self.found.issuer),
            quote(self.client_id.as_deref().unwrap_or_default()),
            self.client_from.describe(),
            self.granted_scope
                .as_ref()
                .or(self.scope.as_ref())
                .map(|s| format!(", scope {}", quote(s)))
                .unwrap_or_default(),
            self.expires_in
                .map(|s| format!(", the token valid {s} s"))
                .unwrap_or_default(),
        )];
        lines.extend(self.notes.iter().cloned());
        lines
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_pkce_challenge_is_rfc_7636s() {
        // RFC 7636 appendix B: this verifier gives this challenge.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            base64url(&Sha256::digest(verifier.as_bytes())),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
