//! The OAuth doctor's machine, sans-IO like the engine: it starts from a run's 401, asks the shell
//! for one fetch at a time (never with the token, never following a redirect, each URL checked by
//! `urls::fetchable`, at most [`MAX_FETCHES`]), judges each answer, and ends with a card per place
//! it looked, the registration on offer and the authorization URL a client would open. Run from a
//! page, it also calls the registration and token endpoints the way a page-based client would
//! (nothing secret, bodies every server refuses), and after each call the browser refused, asks
//! the CORS doctor's follow-up questions (`browser.rs`): every card then says whether CORS let the
//! page through.

use crate::vocabulary::protocol::ProtocolVersion;
use std::collections::VecDeque;

use serde::Serialize;

use super::browser::{self, BrowserVerdict, FollowUp};
use super::check::Finding;
use super::judge::{
    AsFacts, ChallengeFacts, Discovered, Registration, challenge_of, challenge_outcome, document,
    judge_as, judge_challenge, judge_prm, judge_registration, judge_scope, quote, shown,
};
use super::urls::{as_well_known, fetchable, prm_well_known, resource_of};
use crate::run::cors::{DiagOutcome, DiagRequest};
use crate::run::endpoint::{Endpoint, parse_parts};
use crate::secrets::redact::{Secrets, redact_exchange};
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::exchange::{Exchange, TransportError, Vantage};
use crate::vocabulary::percent::with_query;
use crate::vocabulary::step::{Outgoing, Step};

/// The most discovery fetches one run makes (SECURITY.md rule 11); the page's calls of the
/// registration and token endpoints count, the CORS doctor's follow-up questions do not (at most
/// two per refused call).
pub const MAX_FETCHES: usize = 12;

/// The most advertised scopes the shown authorization URL asks for.
const SHOWN_SCOPES: usize = 16;

/// The redirect URI the shown authorization URL names (a native client's loopback callback).
const SHOWN_REDIRECT_URI: &str = "http://127.0.0.1:8976/callback";

/// One card of the doctor: a place it looked (or a conclusion), what came, and the findings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuthCard {
    /// Which card.
    pub step: AuthStep,
    /// The URL fetched, or the one shown.
    pub url: Option<String>,
    /// What happened, in words.
    pub outcome: String,
    /// The checks judged on this card.
    pub findings: Vec<Finding>,
    /// The exchange, redacted as every exchange is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Exchange>,
    /// Run from a page: whether CORS let the page make this call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser: Option<BrowserVerdict>,
}

/// What the doctor found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuthReport {
    /// The revision judged.
    pub revision: String,
    /// Why that revision.
    pub revision_why: String,
    /// The cards, in the order a client meets them.
    pub cards: Vec<AuthCard>,
    /// How many fetches were made.
    pub fetches: usize,
    /// What a page-based client meets here (CORS), or that it was not judged.
    pub browser: String,
}

impl AuthReport {
    /// Every finding of every card.
    pub fn findings(&self) -> impl Iterator<Item = (&AuthCard, &Finding)> {
        self.cards
            .iter()
            .flat_map(|c| c.findings.iter().map(move |f| (c, f)))
    }
}

#[derive(Debug, Clone)]
struct Planned {
    step: AuthStep,
    url: String,
    /// For resource metadata, the resource identifier its URL was made from; for authorization
    /// server metadata, the issuer.
    expected: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    ResourceMetadata,
    ServerMetadata,
    /// From a page: the registration and token endpoints, called to see what CORS allows.
    Calls,
    Done,
}

/// What is in flight.
#[derive(Debug, Clone)]
enum InFlight {
    /// A metadata fetch.
    Metadata(Planned),
    /// A page's call of the registration or token endpoint; its card's index.
    Call(usize),
}

/// The CORS doctor's questions about a call the browser refused: the card it is about, whether the
/// call needed a preflight, and the outcomes so far.
#[derive(Debug, Clone)]
struct Follow {
    card: usize,
    url: String,
    preflighted: bool,
    outcomes: Vec<DiagOutcome>,
    asked: Option<FollowUp>,
}

/// The doctor: see the module's rules.
#[derive(Debug)]
pub struct AuthDoctor {
    endpoint: Endpoint,
    revision: String,
    revision_why: String,
    secrets: Secrets,
    challenge: ChallengeFacts,
    phase: Phase,
    queue: VecDeque<Planned>,
    calls: VecDeque<(usize, Outgoing)>,
    in_flight: Option<InFlight>,
    follow: Option<Follow>,
    cards: Vec<AuthCard>,
    fetches: usize,
    prm_scopes: Option<Vec<String>>,
    /// The page's origin, when the doctor runs in a page.
    page_origin: Option<String>,
    prm_read: bool,
    as_read: bool,
    /// The issuer whose metadata is looked for, once a place named one.
    issuer: Option<String>,
    /// What the server metadata said (without its findings), for a sign-in.
    server: Option<AsFacts>,
}

impl AuthDoctor {
    /// A doctor for a run against `endpoint` that got the 401 `unauthorized` (already redacted),
    /// judging `revision` (`why` says why that one); `page_origin` when it runs in a page.
    pub(crate) fn new(
        unauthorized: &Exchange,
        endpoint: Endpoint,
        (revision, why): (&str, &str),
        secrets: Secrets,
        page_origin: Option<&str>,
    ) -> AuthDoctor {
        let challenge = challenge_of(unauthorized);
        let page_origin = page_origin.map(str::to_string);
        // What a page read of the 401: whether its challenge reached the page at all.
        let seen = unauthorized.response.as_ref().is_some_and(|r| {
            r.headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
        });
        let challenge_browser = page_origin
            .as_deref()
            .filter(|_| unauthorized.vantage == Vantage::Browser)
            .map(|o| browser::challenge_verdict(seen, o));
        let mut doctor = AuthDoctor {
            revision: revision.to_string(),
            revision_why: why.to_string(),
            secrets,
            phase: Phase::ResourceMetadata,
            queue: VecDeque::new(),
            in_flight: None,
            cards: vec![AuthCard {
                step: AuthStep::Challenge,
                url: Some(unauthorized.request.url.clone()),
                outcome: challenge_outcome(&challenge),
                findings: judge_challenge(&challenge, revision),
                exchange: Some(unauthorized.clone()),
                browser: challenge_browser,
            }],
            calls: VecDeque::new(),
            follow: None,
            fetches: 0,
            prm_scopes: None,
            page_origin,
            prm_read: false,
            as_read: false,
            issuer: None,
            server: None,
            challenge,
            endpoint,
        };
        if ProtocolVersion::names_before(revision, ProtocolVersion::V2025_06_18) {
            // 2025-03-26 has no resource metadata: the authorization server is the MCP server's
            // base URL.
            let origin = doctor.endpoint.origin();
            doctor.plan_server_metadata(&origin);
        } else {
            let resource = resource_of(&doctor.endpoint);
            let origin = doctor.endpoint.origin();
            if let Some(url) = doctor.challenge.resource_metadata.clone() {
                doctor.plan(AuthStep::PrmFromChallenge, url, resource.clone());
            }
            for (step, url) in prm_well_known(&doctor.endpoint) {
                let expected = if step == AuthStep::PrmRootWellKnown {
                    origin.clone()
                } else {
                    resource.clone()
                };
                doctor.plan(step, url, expected);
            }
        }
        doctor
    }

    fn plan(&mut self, step: AuthStep, url: String, expected: String) {
        if self.queue.iter().all(|p| p.url != url) {
            self.queue.push_back(Planned {
                step,
                url,
                expected,
            });
        }
    }

    fn plan_server_metadata(&mut self, issuer: &str) {
        self.phase = Phase::ServerMetadata;
        self.issuer = Some(issuer.to_string());
        match parse_parts(issuer) {
            Ok(ep) => {
                for (step, url) in as_well_known(&ep, &self.revision) {
                    self.plan(step, url, issuer.to_string());
                }
            }
            Err(_) => {
                self.cards.push(AuthCard {
                    step: AuthStep::AsOauth,
                    url: None,
                    outcome: format!("not fetched: the issuer {} is not a URL", quote(issuer)),
                    findings: Vec::new(),
                    exchange: None,
                    browser: None,
                });
                self.close_phase();
            }
        }
    }

    /// A card of a place not fetched (or a call not made), and why.
    fn not_fetched(&mut self, step: AuthStep, url: String, why: String) {
        self.cards.push(AuthCard {
            step,
            url: Some(url),
            outcome: format!("not fetched: {why}"),
            findings: Vec::new(),
            exchange: None,
            browser: None,
        });
    }

    /// The next fetch to make, or `None` while one is in flight, while the CORS doctor has a
    /// question ([`AuthDoctor::next_cors_check`]) or when the doctor is done.
    pub fn next_fetch(&mut self) -> Option<Outgoing> {
        while self.in_flight.is_none() && self.follow.is_none() && self.phase != Phase::Done {
            if self.phase == Phase::Calls {
                let Some((card, out)) = self.calls.pop_front() else {
                    self.phase = Phase::Done;
                    break;
                };
                if self.fetches >= MAX_FETCHES {
                    if let Some(c) = self.cards.get_mut(card) {
                        c.outcome = format!(
                            "not called: the run's {MAX_FETCHES} discovery fetches are spent"
                        );
                    }
                    continue;
                }
                self.fetches += 1;
                self.in_flight = Some(InFlight::Call(card));
                return Some(out);
            }
            let Some(p) = self.queue.pop_front() else {
                self.close_phase();
                continue;
            };
            if self.fetches >= MAX_FETCHES {
                self.queue.clear();
                self.not_fetched(
                    p.step,
                    p.url,
                    format!("the run's {MAX_FETCHES} discovery fetches are spent"),
                );
                self.phase = Phase::Done;
                break;
            }
            match fetchable(&p.url, &self.endpoint) {
                Err(why) => self.not_fetched(p.step, shown(&p.url), why.to_string()),
                Ok(_) => {
                    self.fetches += 1;
                    let out = Outgoing {
                        step: Step::Auth(p.step),
                        method: "GET",
                        url: p.url.clone(),
                        headers: vec![("Accept".into(), "application/json".into())],
                        body: None,
                        with_token: false,
                        expect_id: None,
                        headers_only: false,
                        intent: None,
                        wave: 0,
                    };
                    self.in_flight = Some(InFlight::Metadata(p));
                    return Some(out);
                }
            }
        }
        None
    }

    /// The CORS doctor's next question about a call the browser refused (only in a page): the URL
    /// and the request (token-free; see `run::cors`). Answer it with [`AuthDoctor::answer_cors`].
    pub fn next_cors_check(&mut self) -> Option<(String, DiagRequest)> {
        let follow = self.follow.as_mut()?;
        if follow.asked.is_some() {
            return None;
        }
        let q = browser::next_follow_up(follow.preflighted, &follow.outcomes)?;
        follow.asked = Some(q);
        Some((follow.url.clone(), q.request()))
    }

    /// The outcome of the question [`AuthDoctor::next_cors_check`] asked.
    pub fn answer_cors(&mut self, outcome: DiagOutcome) {
        let Some(follow) = self.follow.as_mut() else {
            return;
        };
        if follow.asked.take().is_none() {
            return;
        }
        follow.outcomes.push(outcome);
        if browser::next_follow_up(follow.preflighted, &follow.outcomes).is_none()
            && let Some(f) = self.follow.take()
            && let (Some(card), Some(origin)) =
                (self.cards.get_mut(f.card), self.page_origin.as_deref())
        {
            card.browser = Some(browser::verdict(card.step, false, &f.outcomes, origin));
        }
    }

    /// After an answer from a page: the card's verdict when the page read it, or the CORS doctor's
    /// questions when the browser refused the request (a network error; a timeout or a refused
    /// redirect is no CORS matter).
    fn judge_from_page(&mut self, card: usize, preflighted: bool) {
        let Some(origin) = self.page_origin.as_deref() else {
            return;
        };
        let Some(c) = self.cards.get_mut(card) else {
            return;
        };
        let Some(exchange) = c.exchange.as_ref() else {
            return;
        };
        if exchange.response.is_some() {
            c.browser = Some(browser::verdict(c.step, true, &[], origin));
        } else if exchange.transport_error == Some(TransportError::Network) {
            self.follow = Some(Follow {
                card,
                url: exchange.request.url.clone(),
                preflighted,
                outcomes: Vec::new(),
                asked: None,
            });
        }
    }

    /// Hands back the answer to the fetch in flight (a request that got no answer is an exchange
    /// with a transport error).
    pub fn answer(&mut self, mut exchange: Exchange) {
        let Some(flight) = self.in_flight.take() else {
            return;
        };
        redact_exchange(&mut exchange, &self.secrets);
        let p = match flight {
            InFlight::Metadata(p) => p,
            InFlight::Call(card) => {
                let Some(c) = self.cards.get_mut(card) else {
                    return;
                };
                let preflighted = c.step == AuthStep::Registration;
                c.outcome = match (&exchange.response, &exchange.transport_error) {
                    (Some(r), _) => format!(
                        "HTTP {} to the page's call (a body no server accepts, nothing secret): only CORS is judged",
                        r.status
                    ),
                    (None, Some(t)) => format!("no answer to the page's call: {}", t.label()),
                    (None, None) => "no answer to the page's call".into(),
                };
                c.exchange = Some(exchange);
                self.judge_from_page(card, preflighted);
                return;
            }
        };
        let doc = match document(&exchange) {
            Ok(doc) => doc,
            Err(why) => {
                self.cards.push(AuthCard {
                    step: p.step,
                    url: Some(p.url),
                    outcome: why,
                    findings: Vec::new(),
                    exchange: Some(exchange),
                    browser: None,
                });
                self.judge_from_page(self.cards.len() - 1, false);
                return;
            }
        };
        self.queue.clear();
        if p.step.is_prm() {
            self.prm_read = true;
            let facts = judge_prm(&doc, &p.expected, &self.revision);
            self.prm_scopes = facts.scopes;
            self.cards.push(AuthCard {
                step: p.step,
                url: Some(p.url),
                outcome: "HTTP 200: protected resource metadata".into(),
                findings: facts.findings,
                exchange: Some(exchange),
                browser: None,
            });
            self.judge_from_page(self.cards.len() - 1, false);
            match facts.issuer {
                Some(issuer) => self.plan_server_metadata(&issuer),
                None => self.finish(None),
            }
        } else {
            self.as_read = true;
            let mut facts = judge_as(&doc, &p.expected, &self.endpoint, &self.revision);
            let findings = std::mem::take(&mut facts.findings);
            self.cards.push(AuthCard {
                step: p.step,
                url: Some(p.url),
                outcome: "HTTP 200: authorization server metadata".into(),
                findings,
                exchange: Some(exchange),
                browser: None,
            });
            self.judge_from_page(self.cards.len() - 1, false);
            self.finish(Some(facts));
        }
    }

    /// Every place of the phase was tried and none answered with a document.
    fn close_phase(&mut self) {
        match self.phase {
            Phase::ResourceMetadata => {
                let f = super::check::finding(
                    super::check::AuthCheck::PrmFound,
                    &self.revision,
                    |_| false,
                    "no place a client looks answered with a JSON document".into(),
                );
                self.add_to_last_card(f);
                self.finish(None);
            }
            Phase::ServerMetadata => {
                let legacy = ProtocolVersion::names_before(
                    self.revision.as_str(),
                    ProtocolVersion::V2025_06_18,
                );
                let f = super::check::finding(
                    super::check::AuthCheck::AsMetadataFound,
                    &self.revision,
                    |_| false,
                    if legacy {
                        "none found: a 2025-03-26 client uses /authorize, /token and /register at the server's base URL".into()
                    } else {
                        "no place a client looks answered with a JSON document".into()
                    },
                );
                self.add_to_last_card(f);
                if legacy {
                    let base = self.endpoint.origin();
                    self.finish(Some(AsFacts {
                        findings: Vec::new(),
                        registration: Registration {
                            dynamic: true,
                            metadata_document: false,
                        },
                        authorization_endpoint: Some(format!("{base}/authorize")),
                        token_endpoint: Some(format!("{base}/token")),
                        registration_endpoint: Some(format!("{base}/register")),
                        scopes: None,
                        // The fallback endpoints have no metadata to contradict, and PKCE is
                        // that revision's requirement.
                        issuer_matches: true,
                        pkce_s256: true,
                        iss_supported: false,
                    }));
                } else {
                    self.finish(None);
                }
            }
            Phase::Calls | Phase::Done => {}
        }
    }

    /// Adds `f` to the last card: the last place of the phase that was tried (there is always one,
    /// fetched or refused, after the challenge's card).
    fn add_to_last_card(&mut self, f: Finding) {
        if let Some(last) = self.cards.last_mut() {
            last.findings.push(f);
        }
    }

    /// The conclusions: the scope asked for against the scopes advertised, the registration on
    /// offer and the authorization URL.
    fn finish(&mut self, server: Option<AsFacts>) {
        self.phase = Phase::Done;
        self.queue.clear();
        if let Some(scope) = self.challenge.scope.clone() {
            let advertised = self
                .prm_scopes
                .clone()
                .or_else(|| server.as_ref().and_then(|s| s.scopes.clone()));
            // Judged only against scopes a document advertised (nothing read: nothing to say).
            if let Some(advertised) = advertised {
                let f = judge_scope(&scope, &advertised, &self.revision);
                self.cards[0].findings.push(f);
            }
        }
        let Some(mut server) = server else {
            return;
        };
        server.findings.clear();
        self.server = Some(server.clone());
        let registration = self.cards.len();
        self.cards.push(AuthCard {
            step: AuthStep::Registration,
            url: server.registration_endpoint.clone(),
            outcome: server.registration.describe(),
            findings: judge_registration(server.registration, &self.revision),
            exchange: None,
            // Outside a page the card says that CORS was not judged where a page would call.
            browser: match (&self.page_origin, &server.registration_endpoint) {
                (None, Some(_)) => Some(browser::not_judged()),
                _ => None,
            },
        });
        // From a page: the calls a page-based client makes to register and to redeem its code,
        // made only to see whether CORS lets them through.
        if self.page_origin.is_some() {
            if let Some(url) = &server.registration_endpoint {
                self.calls
                    .push_back((registration, browser::registration_call(url)));
            }
            let token = self.cards.len();
            self.cards.push(AuthCard {
                step: AuthStep::TokenEndpoint,
                url: server.token_endpoint.clone(),
                outcome: match &server.token_endpoint {
                    Some(_) => "not called yet".into(),
                    None => {
                        "not called: the metadata names no token endpoint on the issuer's origin"
                            .into()
                    }
                },
                findings: Vec::new(),
                exchange: None,
                browser: None,
            });
            if let Some(url) = &server.token_endpoint {
                self.calls.push_back((token, browser::token_call(url)));
            }
            if !self.calls.is_empty() {
                self.phase = Phase::Calls;
            }
        }
        let (url, outcome) = match &server.authorization_endpoint {
            Some(ae) => (
                Some(self.authorization_url(ae)),
                "what a client would open (shown, never opened here; placeholders in capitals)"
                    .to_string(),
            ),
            None => (
                None,
                "none: the metadata names no authorization endpoint a client may open".to_string(),
            ),
        };
        self.cards.push(AuthCard {
            step: AuthStep::AuthorizationUrl,
            url,
            outcome,
            findings: Vec::new(),
            exchange: None,
            browser: None,
        });
    }

    /// The authorization URL a client would open, with placeholders for what only a client has.
    fn authorization_url(&self, authorization_endpoint: &str) -> String {
        let resource = resource_of(&self.endpoint);
        let scope = self.scope();
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", "CLIENT_ID"),
            ("redirect_uri", SHOWN_REDIRECT_URI),
            ("code_challenge", "CODE_CHALLENGE"),
            ("code_challenge_method", "S256"),
            ("state", "STATE"),
        ];
        if ProtocolVersion::names_from(self.revision.as_str(), ProtocolVersion::V2025_06_18) {
            pairs.push(("resource", &resource));
        }
        if let Some(scope) = &scope {
            pairs.push(("scope", scope));
        }
        with_query(authorization_endpoint, &pairs)
    }

    /// The scope a client asks for: the challenge's, else what the resource metadata advertises
    /// (its first scopes: a list from a server may be long).
    fn scope(&self) -> Option<String> {
        self.challenge.scope.clone().or_else(|| {
            self.prm_scopes
                .as_ref()
                .map(|s| {
                    s.iter()
                        .take(SHOWN_SCOPES)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .filter(|s| !s.is_empty())
        })
    }

    /// What a sign-in needs, once the doctor is done and found it; else why not, in words.
    pub(super) fn discovered(&self) -> Result<Discovered, String> {
        if !self.is_done() {
            return Err("the sign-in check has not finished".into());
        }
        let (Some(issuer), Some(server)) = (&self.issuer, &self.server) else {
            return Err(match self.cards.last() {
                Some(c) => format!(
                    "no authorization server metadata was found ({}: {})",
                    c.step.title().trim_start_matches("Auth · "),
                    c.outcome
                ),
                None => "no authorization server metadata was found".into(),
            });
        };
        Ok(Discovered {
            issuer: issuer.clone(),
            server: server.clone(),
            scope: self.scope(),
            resource: resource_of(&self.endpoint),
            revision: self.revision.clone(),
        })
    }

    /// True when nothing is in flight and nothing more will be asked.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done && self.in_flight.is_none() && self.follow.is_none()
    }

    /// What the doctor found so far (all of it once [`AuthDoctor::is_done`]).
    pub fn report(&self) -> AuthReport {
        AuthReport {
            revision: self.revision.clone(),
            revision_why: self.revision_why.clone(),
            cards: self.cards.clone(),
            fetches: self.fetches,
            browser: browser::conclusion(
                self.cards.iter().map(|c| (c.step, c.browser.as_ref())),
                self.page_origin.as_deref(),
                self.prm_read,
                self.as_read,
            ),
        }
    }
}
