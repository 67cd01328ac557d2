//! The app shell: header, the target form, then the plan, progress and results of a run.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::components::consent::ConsentStep;
use crate::components::examples::Examples;
use crate::components::paste::Paste;
use crate::components::plan_review::PlanReview;
use crate::components::results::Results;
use crate::components::run_progress::RunProgress;
use crate::components::shared_view::SharedView;
use crate::components::target_form::TargetForm;
use crate::net::{self, DemoConfig};
use crate::state::{AppState, Phase};

/// `./x dev` serves on loopback; a page on any other host never asks for a demo file.
fn served_from_loopback() -> bool {
    let host = web_sys::window()
        .and_then(|w| w.location().hostname().ok())
        .unwrap_or_default();
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The whole page: a shared link (read-only, no request at all), or the tool.
#[component]
pub fn App() -> impl IntoView {
    let hash = location_hash();
    let opened_link = hash.starts_with("#r=");
    let shared = RwSignal::new(opened_link.then(|| mcp_triage::share::decode(&hash)));
    // A new share link pasted into the address bar changes only the hash: start over from it. Any
    // other hash change (an in-page anchor) must not reload: that would throw away results and token.
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
    let leave = Callback::new(move |_| {
        if let Some(w) = web_sys::window()
            && let Ok(history) = w.history()
        {
            let path = w.location().pathname().unwrap_or_default();
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
        }
        shared.set(None);
    });
    view! {
        {move || match shared.get() {
            Some(result) => view! {
                <header class="site-header"><h1>"MCP Triage"</h1></header>
                <main id="main" tabindex="-1"><SharedView shared=result on_leave=leave /></main>
            }.into_any(),
            None => view! { <Tool load_demo=!opened_link && served_from_loopback() /> }.into_any(),
        }}
    }
    .into_any()
}

/// The tool itself: form, plan, progress, results.
#[component]
fn Tool(load_demo: bool) -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let demo: RwSignal<Option<DemoConfig>> = RwSignal::new(None);
    provide_context(demo);
    // The demo file is only read on a normal load: an opened share link sends no request at all,
    // and "run against your own endpoint" leads to an empty form.
    if load_demo {
        spawn_local(async move {
            if let Some(config) = net::load_demo_config().await {
                demo.set(Some(config));
            }
        });
    }
    // Esc cancels a run.
    let on_key = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape"
                && matches!(
                    state.phase.get_untracked(),
                    Phase::Connecting | Phase::Running | Phase::Review | Phase::Consent
                )
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
        <main id="main" tabindex="-1">
            <TargetForm demo=demo />
            <details class="no-server">
                <summary>"No server handy? Examples and pasted captures"</summary>
                <Examples />
                <Paste />
            </details>
            <Show when=move || phase.get() == Phase::Review>
                <PlanReview />
            </Show>
            <Show when=move || phase.get() == Phase::Consent>
                <ConsentStep />
            </Show>
            <Show when=move || !matches!(phase.get(), Phase::Form | Phase::Review) && !state.steps.get().is_empty()>
                <RunProgress />
            </Show>
            <Show when=move || matches!(phase.get(), Phase::Done | Phase::Cancelled)>
                <Results />
            </Show>
        </main>
    }.into_any()
}
