//! What only a browser can tell of sign-in: whether CORS lets a page on another origin make each
//! call a client makes (read the 401's challenge, read the metadata, register, redeem a code), found
//! with the CORS doctor's method, and what a refusal means for a page-based client.

use serde::Serialize;

use crate::run::cors::{self, DiagOutcome, DiagRequest};
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::step::{Outgoing, Step};

labelled_enum! {
    /// Whether a page on another origin may make one call of the sign-in, as the page found it.
    BrowserAccess {
        /// CORS let the call through and the page read the answer.
        Allowed = "allowed",
        /// The host answered, without an `Access-Control-Allow-Origin` for the page.
        NoAllowOrigin = "no_allow_origin",
        /// Simple requests are allowed, but the preflight refused the method or a header the call needs.
        PreflightRefused = "preflight_refused",
        /// The host did not answer the page at all: not a CORS setting.
        Unreachable = "unreachable",
        /// The 401 reached the page without a `WWW-Authenticate` it may read.
        ChallengeHidden = "challenge_hidden",
        /// Not judged: the check ran outside a browser, where there is no CORS.
        NotJudged = "not_judged",
    }
}

/// One call's verdict, with what it means for a page-based client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrowserVerdict {
    /// The verdict.
    pub access: BrowserAccess,
    /// What was seen and what it means, in words (no value from a server but origins).
    pub detail: String,
}

impl BrowserVerdict {
    /// Whether a page-based client is stopped here.
    pub fn refused(&self) -> bool {
        matches!(
            self.access,
            BrowserAccess::NoAllowOrigin | BrowserAccess::PreflightRefused
        )
    }
}

/// The body of the calls made only to see whether CORS lets them through: not a JSON object, so
/// no server takes it for a registration (and a token request without a grant it knows).
const NOT_A_REGISTRATION: &str = "[]";
const NOT_A_GRANT: &str = "grant_type=mcp-triage-cors-check";

/// The call a page-based client makes to register (a JSON POST, which a browser preflights), with a
/// body every server refuses: only whether the browser lets it through is looked at.
pub(crate) fn registration_call(url: &str) -> Outgoing {
    post(
        AuthStep::Registration,
        url,
        "application/json",
        NOT_A_REGISTRATION,
    )
}

/// The call a page-based client makes to redeem its code (a form POST, which a browser does not
/// preflight), with a grant no server knows and nothing secret.
pub(crate) fn token_call(url: &str) -> Outgoing {
    post(
        AuthStep::TokenEndpoint,
        url,
        "application/x-www-form-urlencoded",
        NOT_A_GRANT,
    )
}

/// A token-free POST of `body` to `url` for a card of the sign-in (the page's CORS calls, a
/// sign-in's registration and token requests).
pub(super) fn post(step: AuthStep, url: &str, content_type: &str, body: &str) -> Outgoing {
    Outgoing {
        step: Step::Auth(step),
        method: "POST",
        url: url.to_string(),
        headers: vec![
            ("Content-Type".into(), content_type.into()),
            ("Accept".into(), "application/json".into()),
        ],
        body: Some(body.to_string()),
        with_token: false,
        expect_id: None,
        headers_only: false,
        intent: None,
        wave: 0,
    }
}

/// The CORS doctor's questions after a refused call, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FollowUp {
    /// Does the host answer at all (a bare `no-cors` request)?
    HostAnswers,
    /// Does it send `Access-Control-Allow-Origin` to a request the browser does not preflight?
    AllowOrigin,
}

impl FollowUp {
    /// The request that asks it (never a token, never a body that means anything).
    pub(crate) fn request(self) -> DiagRequest {
        match self {
            FollowUp::HostAnswers => cors::host_answers(),
            FollowUp::AllowOrigin => cors::allow_origin(NOT_A_REGISTRATION.into()),
        }
    }
}

/// What the next question is after `outcomes` (the follow-ups asked so far, in order) for a call
/// the browser refused; `None` when the verdict is known. `preflighted`: the call itself needed a
/// preflight (only then is [`FollowUp::AllowOrigin`] worth asking).
pub(crate) fn next_follow_up(preflighted: bool, outcomes: &[DiagOutcome]) -> Option<FollowUp> {
    match outcomes {
        [] => Some(FollowUp::HostAnswers),
        [DiagOutcome::Answered { .. }] if preflighted => Some(FollowUp::AllowOrigin),
        _ => None,
    }
}

/// The verdict of a call: `answered` when the page read the answer; otherwise from the follow-ups.
pub(crate) fn verdict(
    step: AuthStep,
    answered: bool,
    outcomes: &[DiagOutcome],
    page_origin: &str,
) -> BrowserVerdict {
    let (access, seen) = if answered {
        (
            BrowserAccess::Allowed,
            format!("CORS let {page_origin} read the answer"),
        )
    } else {
        match outcomes {
            [DiagOutcome::Rejected { .. }, ..] | [] => (
                BrowserAccess::Unreachable,
                "the host did not answer this page even without CORS (not running, a refused permission, DNS or a firewall), so this is not a CORS setting".to_string(),
            ),
            [_, DiagOutcome::Answered { .. }] => (
                BrowserAccess::PreflightRefused,
                format!(
                    "it lets {page_origin} read a request without preflight, but its preflight (OPTIONS) does not allow POST with Content-Type: application/json"
                ),
            ),
            _ => (
                BrowserAccess::NoAllowOrigin,
                format!("the host answers, without an Access-Control-Allow-Origin for {page_origin}"),
            ),
        }
    };
    let meaning = match (access, step) {
        (BrowserAccess::Allowed | BrowserAccess::Unreachable, _) => None,
        (_, AuthStep::Registration) => Some(
            "a browser client cannot register here: the registration endpoint refuses this origin (a client id registered beforehand still works)",
        ),
        (_, AuthStep::TokenEndpoint) => Some(
            "a browser client cannot complete sign-in here: the token endpoint refuses this origin",
        ),
        (_, s) if s.is_prm() => {
            Some("a browser client cannot read the resource metadata here and tries the next place")
        }
        _ => Some(
            "a browser client cannot read the authorization server metadata here and tries the next place",
        ),
    };
    BrowserVerdict {
        access,
        detail: match meaning {
            Some(m) => format!("{seen} — {m}"),
            None => seen,
        },
    }
}

/// The challenge card's verdict: whether the page could read the 401's `WWW-Authenticate`.
pub(crate) fn challenge_verdict(seen: bool, page_origin: &str) -> BrowserVerdict {
    if seen {
        BrowserVerdict {
            access: BrowserAccess::Allowed,
            detail: format!("{page_origin} read the 401 and its WWW-Authenticate"),
        }
    } else {
        BrowserVerdict {
            access: BrowserAccess::ChallengeHidden,
            detail: "this page reads no WWW-Authenticate on the 401: the server sends none, or does not list it in Access-Control-Expose-Headers; a browser client then looks only at the well-known URLs".into(),
        }
    }
}

/// The registration card's verdict outside a browser.
pub(crate) fn not_judged() -> BrowserVerdict {
    BrowserVerdict {
        access: BrowserAccess::NotJudged,
        detail: "a command-line client has no CORS; the page's sign-in check calls each endpoint from its origin and names the one that refuses it".into(),
    }
}

/// What a page-based client meets, over all cards: the first call that stops it, in the order a
/// client makes them (a refused place is no stop when another place gave the same metadata:
/// `prm_read`, `as_read`), else that every call tried was let through; outside a browser, that
/// CORS was not judged.
pub(crate) fn conclusion<'a>(
    mut cards: impl Iterator<Item = (AuthStep, Option<&'a BrowserVerdict>)>,
    page_origin: Option<&str>,
    prm_read: bool,
    as_read: bool,
) -> String {
    let Some(origin) = page_origin else {
        return "CORS not judged: a command-line client has none. Run the sign-in check in the page to see what a browser client meets.".into();
    };
    let mut tried = 0;
    let stop = cards.find(|(step, browser)| {
        tried += usize::from(browser.is_some());
        let read_elsewhere = if step.is_prm() {
            prm_read
        } else {
            step.is_metadata() && as_read
        };
        browser.is_some_and(BrowserVerdict::refused) && !read_elsewhere
    });
    match stop {
        Some((step, browser)) => format!(
            "From {origin}, a browser client is stopped at {}: {}",
            step.title().trim_start_matches("Auth · "),
            browser.map(|b| b.detail.as_str()).unwrap_or_default()
        ),
        None => {
            format!(
                "From {origin}, CORS let through every call of the sign-in that was tried ({tried})."
            )
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    const ORIGIN: &str = "http://127.0.0.1:8080";

    fn answered() -> DiagOutcome {
        DiagOutcome::Answered { status: 0 }
    }

    fn rejected() -> DiagOutcome {
        DiagOutcome::Rejected {
            detail: "TypeError: Failed to fetch".into(),
        }
    }

    #[test]
    fn the_follow_ups_go_as_far_as_they_tell_something_new() {
        assert_eq!(next_follow_up(false, &[]), Some(FollowUp::HostAnswers));
        assert_eq!(next_follow_up(false, &[answered()]), None);
        assert_eq!(
            next_follow_up(true, &[answered()]),
            Some(FollowUp::AllowOrigin)
        );
        assert_eq!(next_follow_up(true, &[rejected()]), None);
        assert_eq!(next_follow_up(true, &[answered(), rejected()]), None);
        let bare = FollowUp::HostAnswers.request();
        assert!(bare.body.is_none() && bare.headers.is_empty() && bare.mode == "no-cors");
    }

    #[test]
    fn each_refusal_is_named_with_what_it_means_for_a_page() {
        let reg = |o: &[DiagOutcome]| verdict(AuthStep::Registration, false, o, ORIGIN);
        assert_eq!(reg(&[rejected()]).access, BrowserAccess::Unreachable);
        let preflight = reg(&[answered(), answered()]);
        assert_eq!(preflight.access, BrowserAccess::PreflightRefused);
        assert!(preflight.detail.contains("Content-Type: application/json"));
        let none = reg(&[answered(), rejected()]);
        assert_eq!(none.access, BrowserAccess::NoAllowOrigin);
        assert!(
            none.detail
                .contains("a browser client cannot register here: the registration endpoint refuses this origin"),
            "{}",
            none.detail
        );
        let token = verdict(AuthStep::TokenEndpoint, false, &[answered()], ORIGIN);
        assert_eq!(token.access, BrowserAccess::NoAllowOrigin);
        assert!(token.detail.ends_with(
            "a browser client cannot complete sign-in here: the token endpoint refuses this origin"
        ));
        assert_eq!(
            verdict(AuthStep::AsOauth, true, &[], ORIGIN).access,
            BrowserAccess::Allowed
        );
    }
}
