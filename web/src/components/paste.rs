//! Paste a capture: an `mcp-exchange/1` JSON (one or an array), or a raw HTTP response plus the
//! request body — for servers a browser cannot reach (no CORS).

use leptos::prelude::*;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange;

use crate::state::AppState;

/// The paste form.
#[component]
pub fn Paste() -> impl IntoView {
    let state = expect_context::<AppState>();
    let capture = RwSignal::new(String::new());
    let request = RwSignal::new(String::new());
    let error = RwSignal::new(String::new());
    let classify =
        move |_| match exchange::from_paste(&capture.get_untracked(), &request.get_untracked()) {
            Ok(list) => {
                let endpoint = list
                    .first()
                    .map(|e| e.request.url.clone())
                    .unwrap_or_default();
                let report = RunReport::from_exchanges(&endpoint, list);
                state.show_recorded(
                    report,
                    &endpoint,
                    "Pasted capture, classified in this page.".into(),
                );
                error.set(String::new());
            }
            Err(e) => error.set(e),
        };
    view! {
        <div class="paste" data-testid="paste">
            <label for="paste-capture">"An mcp-exchange/1 JSON, or a raw HTTP response (status line, headers, blank line, body)"</label>
            <textarea id="paste-capture" data-testid="paste-capture" rows="6" spellcheck="false"
                prop:value=move || capture.get() on:input=move |ev| capture.set(event_target_value(&ev))></textarea>
            <label for="paste-request">"The request body you sent (for a raw HTTP response)"</label>
            <textarea id="paste-request" data-testid="paste-request" rows="3" spellcheck="false"
                prop:value=move || request.get() on:input=move |ev| request.set(event_target_value(&ev))></textarea>
            <p class="error" role="alert" data-testid="paste-error">{move || error.get()}</p>
            <button type="button" data-testid="paste-classify" on:click=classify>"Classify"</button>
        </div>
    }.into_any()
}
