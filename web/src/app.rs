//! The app shell: header, the target form, then the plan, progress and results of a run.
//!
//! The app module is loaded on demand: the boot page (`boot.rs`) shows the form first and hands
//! its values over ([`Handoff`]) when a click needs the app. A share link loads the share module
//! alone ([`SharedPage`]).

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::boot::Handoff;
use crate::components::consent::ConsentStep;
use crate::components::examples::Examples;
use crate::components::paste::Paste;
use crate::components::plan_review::PlanReview;
use crate::components::results::{LiveCards, Results};
use crate::components::run_progress::RunProgress;
use crate::components::shared_view::SharedView;
use crate::components::target_form::{FormState, FormValues, TargetForm, random_seed};
use crate::net::{self, DemoConfig};
use crate::state::{AppState, Phase};
use mcp_triage::engine::Mode;
use mcp_triage::engine::RunPhase;

pub(crate) fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The app module's page: the tool, with what the boot page handed over (and the requests it
/// sent already).
#[component]
pub fn App(handoff: Option<Handoff>, first_wave: Vec<Option<net::InFlight>>) -> impl IntoView {
    reload_on_share_link();
    view! { <Tool handoff=handoff first_wave=first_wave /> }
}

/// The share module's page: a shared link, read-only, that sends no request at all.
#[component]
pub fn SharedPage() -> impl IntoView {
    reload_on_share_link();
    let shared = mcp_triage::share::decode(&location_hash());
    // "Run against your own endpoint": the page again (the boot page), without the link and
    // without the demo server's offer (`#own`, which the boot page reads and drops).
    let leave = Callback::new(move |_| {
        if replace_fragment(OWN_FORM)
            && let Some(w) = web_sys::window()
        {
            let _ = w.location().reload();
        }
    });
    view! {
        <header class="site-header"><h1>"MCP Triage"</h1></header>
        <main id="main" tabindex="-1"><SharedView shared=shared on_leave=leave /></main>
    }
}

/// Puts the page's path and query with `fragment` (or none: "") in the address bar, without a
/// navigation; false when the page cannot.
pub(crate) fn replace_fragment(fragment: &str) -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    let Ok(history) = w.history() else {
        return false;
    };
    let location = w.location();
    let url = format!(
        "{}{}{fragment}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        .is_ok()
}

/// The fragment "run against your own endpoint" leaves a shared link with: an empty form.
pub(crate) const OWN_FORM: &str = "#own";

/// A new share link pasted into the address bar changes only the hash: start over from it. Any
/// other hash change (an in-page anchor) must not reload: that would throw away results and token.
pub(crate) fn reload_on_share_link() {
    let on_hash = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        if let Some(w) = web_sys::window()
            && location_hash().starts_with("#r=")
        {
            let _ = w.location().reload();
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("hashchange", on_hash.as_ref().unchecked_ref());
    }
    on_hash.forget();
}

/// The skip link and the page's header, the same on the boot page and in the app.
#[component]
pub(crate) fn SiteHeader() -> impl IntoView {
    view! {
        <a class="skip-link" href="#main" on:click=move |ev| {
            // Only move focus: the URL keeps no #main, and nothing else happens.
            ev.prevent_default();
            if let Some(main) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("main"))
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = main.focus();
            }
        }>"Skip to content"</a>
        <header class="site-header">
            <h1>"MCP Triage"</h1>
            <p class="tagline">
                "See exactly how an MCP server fails a " <code>"tools/call"</code>
                ", and what an agent should do about it."
            </p>
            <p class="privacy">
                "Runs entirely in this page. The token stays in memory and goes only into the "
                <code>"Authorization"</code> " header of requests to the endpoint you type."
            </p>
        </header>
    }
}

/// The "no server handy" section's summary, on the boot page and in the app.
pub(crate) const NO_SERVER_SUMMARY: &str = "No server handy? Examples and pasted captures";

/// The tool itself: form, plan, progress, results.
#[component]
fn Tool(handoff: Option<Handoff>, first_wave: Vec<Option<net::InFlight>>) -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let Handoff {
        form: initial,
        demo: handed_demo,
        start,
        details_open,
        started_at,
    } = handoff.unwrap_or_default();
    let form = FormState::new(initial);
    let demo: RwSignal<Option<DemoConfig>> = RwSignal::new(handed_demo);
    provide_context(demo);
    // The demo server's offer comes from the boot page (it read demo.json); an opened share link
    // sends no request at all, and "run against your own endpoint" leads to an empty form.
    // What the boot page's click asked for runs as soon as the app is there.
    // The boot page sent the run's connect requests already: the run reads them.
    let first_wave = StoredValue::new_local(first_wave);
    if let Some((mode, values, random)) = start {
        spawn_local(async move {
            let wave = first_wave
                .try_update_value(std::mem::take)
                .unwrap_or_default();
            state.start_form(mode, &values, random, wave, started_at);
        });
    }
    // Esc cancels a run.
    let on_key = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape"
                && matches!(state.phase.get_untracked(), Phase::Run(p) if p.under_way())
            {
                state.cancel();
            }
        },
    );
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
    }
    on_key.forget();
    let phase = state.phase;
    let on_start = Callback::new(move |(mode, values): (Mode, FormValues)| {
        state.start_form(mode, &values, random_seed(), Vec::new(), None)
    });
    view! {
        <SiteHeader />
        <main id="main" tabindex="-1">
            <TargetForm form=form demo=demo busy=Signal::derive(move || state.busy()) on_start=on_start rerun_with_token=state.rerun_with_token />
            <details class="no-server" open=details_open>
                <summary id="no-server-summary" data-testid="no-server-summary">{NO_SERVER_SUMMARY}</summary>
                <Examples />
                <Paste />
            </details>
            <Show when=move || phase.get() == Phase::Run(RunPhase::Review)>
                <PlanReview />
            </Show>
            <Show when=move || phase.get() == Phase::Run(RunPhase::Consent)>
                <ConsentStep />
            </Show>
            <Show when=move || !matches!(phase.get(), Phase::Form | Phase::Run(RunPhase::Review)) && !state.steps.get().is_empty()>
                <RunProgress />
            </Show>
            <Show when=move || matches!(phase.get(), Phase::Run(p) if p.is_moving())>
                <LiveCards />
            </Show>
            <Show when=move || phase.get().shows_results()>
                <Results />
            </Show>
        </main>
    }.into_any()
}
