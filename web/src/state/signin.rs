//! Signing in from the page: the core's sign-in (`mcp_triage::auth::SignIn`) with this page as its
//! redirect URI. Before leaving for the authorization server the page stores the core's one
//! round-trip record in `sessionStorage` (SECURITY.md rule 11) and abandons the run;
//! the page that comes back (the loader starts the app module at once for a `?code` or `?error`)
//! strips the callback from the address, reads and deletes the record, lets the core check the
//! callback and build the token request, and puts the token in the form, in memory, as if pasted.
//! Every URL, body and check is the core's: this moves bytes, stores one record and navigates.

use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_triage::Limits;
use mcp_triage::auth::{
    ROUND_TRIP_KEY, ReturnTo, SIGN_IN_RANDOM_BYTES, SignIn, SignInInput, SignInNext,
};
use wasm_bindgen::JsValue;

use crate::net::{self, Credentials, Flights};
use crate::state::form::FormValues;
use crate::state::run::{AppState, SignInStatus};

/// The page's own URL without query or fragment: the redirect URI.
fn page_url() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

fn random_bytes() -> Option<[u8; SIGN_IN_RANDOM_BYTES]> {
    let mut bytes = [0u8; SIGN_IN_RANDOM_BYTES];
    web_sys::window()?
        .crypto()
        .ok()?
        .get_random_values_with_u8_array(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// The page came back from an authorization server: the callback's request target, and the
/// sign-in the core resumed from the round-trip record (taken out of storage), or why not.
pub struct Returned {
    target: String,
    resumed: Result<(SignIn, ReturnTo), String>,
}

impl Returned {
    /// What the form shows on the way back: the record's endpoint, era and time limit.
    pub fn form(&self) -> Option<FormValues> {
        let (_, back) = self.resumed.as_ref().ok()?;
        Some(FormValues {
            endpoint: back.endpoint.clone(),
            era: back.era.clone(),
            run_seconds: back.run_seconds.clone(),
            ..FormValues::default()
        })
    }
}

/// On a load with `?code=` or `?error=`: strips the query from the address at once (the code,
/// `state` and `iss` leave the address bar and the history entry), and takes the round-trip record
/// out of `sessionStorage`.
pub fn take_return() -> Option<Returned> {
    let window = web_sys::window()?;
    let location = window.location();
    let search = location.search().ok()?;
    let is_callback = search
        .trim_start_matches('?')
        .split('&')
        .any(|p| p.starts_with("code=") || p.starts_with("error="));
    if !is_callback {
        return None;
    }
    let path = location.pathname().ok()?;
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{hash}")));
    }
    let storage = session_storage();
    let record = storage
        .as_ref()
        .and_then(|s| s.get_item(ROUND_TRIP_KEY).ok().flatten());
    if let Some(s) = &storage {
        let _ = s.remove_item(ROUND_TRIP_KEY);
    }
    let resumed = match record {
        Some(record) => SignIn::resume(&record, js_sys::Date::now()),
        None => Err("this page came back from an authorization server, but no sign-in was under way in this tab (its record is gone): nothing was sent".into()),
    };
    Some(Returned {
        target: format!("{path}{search}"),
        resumed,
    })
}

impl AppState {
    /// Whether "Sign in" may be offered: the sign-in check ran on this run and found an
    /// authorization server (the core may still refuse, and says why).
    pub fn can_sign_in(&self) -> bool {
        self.doctor
            .with_value(|d| d.as_ref().is_some_and(|d| d.can_sign_in()))
    }

    /// Signs in with the doctor's findings, `client_id` if given, and the run's form values to
    /// come back to: registration (if any) from here, then the round-trip record and the
    /// authorization server, in this tab.
    pub fn sign_in(&self, client_id: String, values: FormValues) {
        let Some(doctor) = self.doctor.get_value() else {
            return;
        };
        let (Some(redirect_uri), Some(random), Some(endpoint)) =
            (page_url(), random_bytes(), self.endpoint.get_untracked())
        else {
            return self.sign_in_status.set(Some(SignInStatus::Stopped(
                "this browser gives no secure random bytes or page address".into(),
            )));
        };
        let state = *self;
        spawn_local(async move {
            let say = |s: SignInStatus| state.sign_in_status.set(Some(s));
            say(SignInStatus::Working("Signing in…".into()));
            let document = if doctor.wants_metadata_document(&redirect_uri) {
                net::load_metadata_document().await
            } else {
                None
            };
            let client_id = Some(client_id.trim().to_string()).filter(|c| !c.is_empty());
            let mut flow = match doctor.sign_in(SignInInput {
                random,
                redirect_uri,
                client_id,
                client_name: "MCP Triage".into(),
                metadata_document: document,
            }) {
                Ok(f) => f,
                Err(why) => return say(SignInStatus::Stopped(why)),
            };
            match state.send_until_other(&mut flow).await {
                SignInNext::Open(url) => {
                    // The browser's own URL parser, under the core's endpoint rule: https:, or
                    // http: on a loopback host (as for any URL a secret goes to).
                    if net::parse_endpoint(&url).is_err() {
                        return say(SignInStatus::Stopped(
                                "the authorization URL is not https: (or http: on a loopback host), so it is not opened".into(),
                            ));
                    }
                    let back = ReturnTo {
                        endpoint: endpoint.url.clone(),
                        era: values.era.clone(),
                        run_seconds: values.run_seconds.clone(),
                    };
                    let stored = flow
                        .round_trip(&back, js_sys::Date::now())
                        .ok()
                        .zip(session_storage())
                        .is_some_and(|(record, s)| s.set_item(ROUND_TRIP_KEY, &record).is_ok());
                    if !stored {
                        return say(SignInStatus::Stopped(
                                "this browser does not let the page keep the sign-in's record for the round trip (sessionStorage)".into(),
                            ));
                    }
                    state.cancel();
                    say(SignInStatus::Working(
                            "Leaving for the authorization server; this page comes back when you have signed in.".into(),
                        ));
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().assign(&url);
                    }
                }
                SignInNext::Failed(why) => say(SignInStatus::Stopped(why)),
                SignInNext::Send(_) | SignInNext::Done => {}
            }
        });
    }

    /// Sends what the sign-in asks for (registration, token: never with the run's token or
    /// headers), saying so, until it asks for something else; that is returned.
    async fn send_until_other(&self, flow: &mut SignIn) -> SignInNext {
        let (limits, flights, nothing) = (
            Limits::default(),
            Flights::default(),
            Credentials::default(),
        );
        loop {
            match flow.next_step() {
                SignInNext::Send(out) => {
                    self.sign_in_status.set(Some(SignInStatus::Working(format!(
                        "Signing in: {}…",
                        out.step.title()
                    ))));
                    let ex = net::send(&out, &nothing, &limits, &flights, &|_| {}, &|_| {}).await;
                    flow.answer(&ex);
                }
                other => return other,
            }
        }
    }

    /// Back from the authorization server: the core checks the callback against the record and
    /// redeems the code; the token goes to `set_token` (the form's token field).
    pub fn finish_sign_in(&self, returned: Returned, set_token: impl Fn(String) + 'static) {
        let say = move |s: SignInStatus| self.sign_in_status.set(Some(s));
        let mut flow = match returned.resumed {
            Ok((flow, _)) => flow,
            Err(why) => return say(SignInStatus::Stopped(why)),
        };
        flow.callback(&returned.target);
        let state = *self;
        spawn_local(async move {
            match state.send_until_other(&mut flow).await {
                SignInNext::Done => {
                    if let Some(token) = flow.access_token() {
                        set_token(token.to_string());
                    }
                    let said = flow.summary().join(" ");
                    state.sign_in_status.set(Some(SignInStatus::SignedIn(said)));
                }
                SignInNext::Failed(why) => {
                    state.sign_in_status.set(Some(SignInStatus::Stopped(why)));
                }
                SignInNext::Send(_) | SignInNext::Open(_) => {}
            }
        });
    }
}
