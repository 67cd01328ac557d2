//! The app shell: header, the target form, then the plan, progress and results of a run.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::components::plan_review::PlanReview;
use crate::components::results::Results;
use crate::components::run_progress::RunProgress;
use crate::components::target_form::TargetForm;
use crate::net::{self, DemoConfig};
use crate::state::{AppState, Phase};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let demo: RwSignal<Option<DemoConfig>> = RwSignal::new(None);
    spawn_local(async move {
        if let Some(config) = net::load_demo_config().await {
            demo.set(Some(config));
        }
    });
    // Esc cancels a run.
    let on_key = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape"
                && matches!(
                    state.phase.get_untracked(),
                    Phase::Connecting | Phase::Running | Phase::Review
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
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <h1>"MCP Triage"</h1>
            <p class="tagline">
                "See exactly how an MCP server fails a " <code>"tools/call"</code>
                ", and what an agent should do about it."
            </p>
        </header>
        <main id="main">
            <TargetForm demo=demo />
            <Show when=move || phase.get() == Phase::Review>
                <PlanReview />
            </Show>
            <Show when=move || !matches!(phase.get(), Phase::Form | Phase::Review)>
                <RunProgress />
            </Show>
            <Show when=move || matches!(phase.get(), Phase::Done | Phase::Cancelled)>
                <Results />
            </Show>
        </main>
        <footer class="site-footer">
            <p>
                "Runs entirely in this page. The token stays in memory and goes only into the "
                <code>"Authorization"</code> " header of requests to the endpoint you type."
            </p>
        </footer>
    }
}
