//! Take results away: download JSON, copy Markdown, with the endpoint as origin only unless opted in.

use leptos::prelude::*;
use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::export;
use wasm_bindgen::JsCast;

/// Offers `text` as a file named `name` (also used for a body as kept, from `VisibleText`).
pub(crate) fn download(name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(el) = document.create_element("a")
        && let Ok(a) = el.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The export buttons.
#[component]
pub fn ExportBar(report: RunReport, endpoint: Endpoint) -> impl IntoView {
    let include_path = RwSignal::new(false);
    let report = StoredValue::new(report);
    let endpoint = StoredValue::new(endpoint);
    let copied = RwSignal::new(false);
    let state = expect_context::<crate::state::run::AppState>();
    let secrets = StoredValue::new(state.secrets());
    let diagnosis = state.diagnosis;
    let json = move || {
        let secrets = secrets.get_value();
        // The doctor may finish after the bar is drawn: read it when the file is made.
        let doctor = diagnosis.get_untracked();
        report.with_value(|r| {
            endpoint.with_value(|e| {
                export::report_json_with_doctor(r, e, include_path.get(), &secrets, doctor.as_ref())
            })
        })
    };
    let markdown = move || {
        let secrets = secrets.get_value();
        report.with_value(|r| {
            endpoint.with_value(|e| export::markdown(r, e, include_path.get(), &secrets))
        })
    };
    view! {
        <section class="export" aria-label="Take results away">
            <h3 class="section">"Take it away"</h3>
            <label class="check">
                <input type="checkbox" data-testid="include-path" prop:checked=move || include_path.get()
                    on:change=move |ev| include_path.set(event_target_checked(&ev)) />
                " Include the endpoint's path and query (API keys often live there)"
            </label>
            <div class="actions">
                <button type="button" data-testid="download-json" on:click=move |_| download("mcp-triage-report.json", "application/json", &json())>"Download JSON"</button>
                <button type="button" data-testid="copy-markdown" on:click=move |_| {
                    if let Some(w) = web_sys::window() {
                        let _ = w.navigator().clipboard().write_text(&markdown());
                        copied.set(true);
                    }
                }>{move || if copied.get() { "Markdown copied ✓" } else { "Copy as Markdown" }}</button>
            </div>
            <p class="help" data-testid="json-note">"The JSON file keeps the server's full answers (your secrets redacted); Markdown and links never do."</p>
            <details>
                <summary>"Preview the Markdown"</summary>
                <pre class="snippet" tabindex="0" data-testid="markdown-preview">{markdown}</pre>
            </details>
        </section>
    }.into_any()
}
