//! Renewing a sign-in during the run (see `signin.rs`): what an answer calls for, decided here, and
//! the two renewals a run may make, once each. A `401` to a request that carried the token is
//! answered with the refresh token when one was issued; a `403` `insufficient_scope` naming scope
//! the token lacks, with one step-up: a new authorization for the union of both, with fresh PKCE
//! and `state` and the same redirect URI. Anything else stands, and the summary says why. A wave's
//! requests go out together, so a refusal may come for a token a renewal has already replaced: that
//! request is sent again with the new one, and nothing is renewed for it.

use sha2::{Digest, Sha256};

use super::judge::{challenge_of, quote};
use super::signin::{Phase, SIGN_IN_RANDOM_BYTES, SignIn};
use crate::secrets::redact::base64url;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::step::Outgoing;

/// What a signed-in run does about an answer to a request that carried the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Renewal {
    /// Nothing: the answer stands.
    None,
    /// The token was refused and a refresh token is at hand: call [`SignIn::refresh`], drive the
    /// sign-in to its end, and send the request again with the new token.
    Refresh,
    /// More scope was asked for: call [`SignIn::step_up`] with fresh random bytes and this scope,
    /// drive the sign-in to its end (the browser again, the same redirect URI), and send again.
    StepUp(String),
    /// The request carried a token a renewal has since replaced: send it again with the current
    /// one (nothing to renew, nothing to note).
    SendAgain,
}

/// Which of a sign-in's access tokens a request carried ([`SignIn::token_issue`] when it was sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenIssue(u32);

impl SignIn {
    /// What to do about `exchange`, the answer to `out` during the signed-in run: see
    /// [`Renewal`]. Only a request that carried the token is renewed for, and each way once; a
    /// refusal that stands is said in the summary.
    pub fn renewal(
        &mut self,
        out: &Outgoing,
        exchange: &Exchange,
        sent_with: TokenIssue,
    ) -> Renewal {
        let Some(status) = exchange.response.as_ref().map(|r| r.status) else {
            return Renewal::None;
        };
        if self.phase != Phase::Done || !out.with_token || !matches!(status, 401 | 403) {
            return Renewal::None;
        }
        if sent_with != self.token_issue() {
            return Renewal::SendAgain;
        }
        let challenge = challenge_of(exchange);
        let what = format!(
            "During the run, {} got HTTP {status}{}",
            out.step.label(),
            challenge
                .error
                .as_ref()
                .map(|e| format!(" (error {})", quote(e)))
                .unwrap_or_default()
        );
        if status == 401 {
            if self.refreshed || self.refresh_token.is_none() {
                let why = if self.refreshed {
                    "the token was refreshed once already"
                } else {
                    "no refresh token was issued"
                };
                self.note(format!("{what}; {why}, so the refusal stands."));
                return Renewal::None;
            }
            self.refreshed = true;
            self.renewing = Some((
                what.clone(),
                format!("{what}; the token was refreshed once and the request sent again."),
            ));
            return Renewal::Refresh;
        }
        if challenge.error.as_deref() != Some("insufficient_scope") {
            return Renewal::None;
        }
        let held: Vec<&str> = self
            .granted_scope
            .as_ref()
            .or(self.scope.as_ref())
            .map(|s| s.split_whitespace().collect())
            .unwrap_or_default();
        let Some(asked) = challenge.scope.as_ref().filter(|s| !s.trim().is_empty()) else {
            self.note(format!(
                "{what}, naming no scope to ask for: no step-up, the refusal stands."
            ));
            return Renewal::None;
        };
        let mut wanted = held.clone();
        wanted.extend(asked.split_whitespace().filter(|w| !held.contains(w)));
        if wanted.len() == held.len() {
            self.note(format!(
                "{what}, asking for scope {} that the token holds: no step-up, the refusal stands.",
                quote(asked)
            ));
            return Renewal::None;
        }
        if self.stepped_up {
            self.note(format!(
                "{what}, asking for scope {}; one step-up per run was made already, so the refusal stands.",
                quote(asked)
            ));
            return Renewal::None;
        }
        let scope = wanted.join(" ");
        self.stepped_up = true;
        self.renewing = Some((
            what.clone(),
            format!(
                "{what}, asking for scope {}: signed in again once with scope {} (step-up) and the request sent again.",
                quote(asked),
                quote(&scope)
            ),
        ));
        Renewal::StepUp(scope)
    }

    /// The access token a request sent now carries, for [`SignIn::renewal`] when its answer comes.
    pub fn token_issue(&self) -> TokenIssue {
        TokenIssue(self.issued)
    }

    /// Starts the refresh [`SignIn::renewal`] called for.
    pub fn refresh(&mut self) {
        if self.phase == Phase::Done && self.refresh_token.is_some() {
            self.phase = Phase::Refresh;
        }
    }

    /// Starts the step-up [`SignIn::renewal`] called for: a new authorization for `scope`, with a
    /// new PKCE verifier and `state` from `random`, and the same redirect URI.
    pub fn step_up(&mut self, scope: &str, random: [u8; SIGN_IN_RANDOM_BYTES]) {
        if self.phase != Phase::Done {
            return;
        }
        let (verifier_bytes, state_bytes) = random.split_at(32);
        let verifier = base64url(verifier_bytes);
        self.challenge = base64url(&Sha256::digest(verifier.as_bytes()));
        self.spent
            .push(std::mem::replace(&mut self.verifier, verifier));
        self.spent.extend(self.code.take());
        self.state = base64url(state_bytes);
        self.scope = Some(scope.to_string());
        self.phase = Phase::Authorize;
    }

    /// The shell could not finish a renewal (its listener, a signal, the browser never came
    /// back): the refusal stands, and the summary says why.
    pub fn abandon(&mut self, why: &str) {
        if self.renewing.is_some() {
            self.fail(why.to_string());
        }
    }
}
