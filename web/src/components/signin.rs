//! Signing in from the page: the box under the sign-in check's cards (an optional client id, the
//! button, what leaving means) and the line that says where a sign-in stands, before leaving and
//! after coming back (with the Quick check to run with the token).

use leptos::prelude::*;

use crate::state::form::FormValues;
use crate::state::run::{AppState, SignInStatus};

/// The sign-in box: `values` gives the form's values to come back to.
#[component]
pub fn SignInBox(values: Callback<(), FormValues>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let client_id = RwSignal::new(String::new());
    let working = move || matches!(state.sign_in_status.get(), Some(SignInStatus::Working(_)));
    view! {
        <div class="sign-in" data-testid="sign-in-box">
            <h4>"Sign in"</h4>
            <div class="field">
                <label for="client-id">"Client ID (optional: one registered with the authorization server beforehand)"</label>
                <input id="client-id" data-testid="client-id" type="text" autocomplete="off" spellcheck="false"
                    prop:value=move || client_id.get()
                    on:input=move |ev| client_id.set(event_target_value(&ev)) />
            </div>
            <p><button type="button" class="primary" data-testid="sign-in" disabled=working
                on:click=move |_| state.sign_in(client_id.get_untracked(), values.run(()))>"Sign in"</button></p>
            <p class="help">"Signing in leaves this page for the authorization server, in this tab, and comes back here with a token for the Quick check. These results are not kept. The one thing stored is the round trip's record (sessionStorage, this tab only, deleted on return); the token stays in this page's memory."</p>
        </div>
    }
}

/// Where a sign-in stands; signed in, the Quick check to run with the token (`run`).
#[component]
pub fn SignInStatusLine(run: Callback<()>) -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state.sign_in_status.get().map(|s| match s {
            SignInStatus::Working(text) => view! {
                <p class="banner" role="status" data-testid="sign-in-status" data-id="working">{text}</p>
            }
            .into_any(),
            SignInStatus::Stopped(why) => view! {
                <p class="banner error" role="alert" data-testid="sign-in-status" data-id="stopped">"Sign-in stopped: " {why}</p>
            }
            .into_any(),
            SignInStatus::SignedIn(said) => view! {
                <div class="banner" role="status" data-testid="sign-in-status" data-id="signed-in">
                    <p>{said} " The token is in the form (in this page's memory only)."</p>
                    <p><button type="button" class="primary" data-testid="sign-in-run"
                        on:click=move |_| run.run(())>"Quick check with the token"</button></p>
                </div>
            }
            .into_any(),
        })
    }
}
