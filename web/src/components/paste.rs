//! Paste a capture: an `mcp-exchange/1` JSON (one, an array, or a saved report), or a raw HTTP
//! response plus the request body — for servers a browser cannot reach (no CORS). A recording that
//! opens a run is replayed through the engine (the core decides), as `mcp-triage replay` does.

use leptos::prelude::*;
use mcp_triage::replay;

use crate::state::run::AppState;

/// The paste form.
#[component]
pub fn Paste() -> impl IntoView {
    let state = expect_context::<AppState>();
    let capture = RwSignal::new(String::new());
    let request = RwSignal::new(String::new());
    let error = RwSignal::new(None::<mcp_triage::problem::Problem>);
    let classify =
        move |_| match replay::from_paste(&capture.get_untracked(), &request.get_untracked()) {
            Ok(pasted) => {
                let endpoint = replay::openable_endpoint(&pasted.report.endpoint).to_string();
                state.show_recorded(pasted.report, &endpoint, pasted.source);
                error.set(None);
            }
            Err(p) => error.set(Some(p)),
        };
    view! {
        <div class="paste" data-testid="paste">
            <label for="paste-capture">"An mcp-exchange/1 JSON (one, an array, or a saved report: a whole run is replayed), or a raw HTTP response (status line, headers, blank line, body)"</label>
            <textarea id="paste-capture" data-testid="paste-capture" rows="6" spellcheck="false"
                prop:value=move || capture.get() on:input=move |ev| capture.set(event_target_value(&ev))></textarea>
            <label for="paste-request">"The request body you sent (for a raw HTTP response)"</label>
            <textarea id="paste-request" data-testid="paste-request" rows="3" spellcheck="false"
                prop:value=move || request.get() on:input=move |ev| request.set(event_target_value(&ev))></textarea>
            <p class="error" role="alert" data-testid="paste-error"
                data-problem=move || error.with(|p| p.as_ref().map(|p| p.id.as_str()))>
                {move || error.with(|p| p.as_ref().map(|p| p.message.clone()))}</p>
            <button type="button" data-testid="paste-classify" on:click=classify>"Classify"</button>
        </div>
    }.into_any()
}
