//! "Share results link": shows exactly what is shared (the decoded payload) before copying.

use leptos::prelude::*;
use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::share;

use super::copy_button::CopyButton;
use crate::state::run::AppState;

/// The page's address without its fragment: what a link made here starts with.
pub(crate) fn page_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or("").to_string())
        .unwrap_or_default()
}

/// The share panel.
#[component]
pub fn SharePanel(report: RunReport, endpoint: Endpoint) -> impl IntoView {
    let state = expect_context::<AppState>();
    let open = RwSignal::new(false);
    let include_path = RwSignal::new(false);
    // Per link: secret-shaped server values are withheld unless the user includes them.
    let include_secret_shaped = RwSignal::new(false);
    let date = js_sys::Date::new_0()
        .to_iso_string()
        .as_string()
        .unwrap_or_default();
    let report = StoredValue::new(report);
    let endpoint = StoredValue::new(endpoint);
    let built = Memo::new(move |_| {
        let secrets = state.secrets();
        let options = share::BuildOptions {
            include_path: include_path.get(),
            include_secret_shaped: include_secret_shaped.get(),
        };
        let link = report.with_value(|r| {
            endpoint.with_value(|e| {
                share::make_link(
                    r,
                    e,
                    options,
                    &secrets,
                    &date,
                    env!("CARGO_PKG_VERSION"),
                    &page_base(),
                )
            })
        });
        (
            link.link
                .map(|l| (l.url, l.shown))
                .map_err(|e| e.to_string()),
            link.withheld,
        )
    });
    let withheld = move || built.with(|(_, n)| *n);
    view! {
        <section class="share" aria-label="Share results link">
            <button type="button" data-testid="share-open" on:click=move |_| {
                open.update(|o| *o = !*o);
                if open.get_untracked() {
                    crate::state::run::focus_heading("share-heading");
                }
            }>"Share results link…"</button>
            <Show when=move || open.get()>
                <div class="card" data-testid="share-panel">
                    <h3 id="share-heading" tabindex="-1">"Share results link"</h3>
                    <p>"The link holds the results below in its #fragment, which browsers never send to a server. It never holds the token or any request header."</p>
                    <label class="check">
                        <input type="checkbox" data-testid="share-include-path" prop:checked=move || include_path.get()
                            on:change=move |ev| include_path.set(event_target_checked(&ev)) />
                        " Include the endpoint's path and query"
                    </label>
                    <Show when=move || include_path.get()>
                        <p class="warn">"Careful: API keys often live in paths and query strings."</p>
                    </Show>
                    <p class="help">"A successful answer is shared as its shape, never its content."</p>
                    <Show when=move || withheld() != 0 || include_secret_shaped.get()>
                        <p data-testid="share-withheld">{move || match withheld() {
                            0 => "Values that look like secrets are included in this link.".to_string(),
                            n => format!("{n} withheld: server values that look like secrets (API_KEY=…, a password in a connection string, a private key, a long base64 run)."),
                        }}</p>
                        <label class="check">
                            <input type="checkbox" data-testid="share-include-secret-shaped" prop:checked=move || include_secret_shaped.get()
                                on:change=move |ev| include_secret_shaped.set(event_target_checked(&ev)) />
                            " Include them in this link"
                        </label>
                    </Show>
                    {move || match built.get().0 {
                        Ok((link, shown)) => view! {
                            <p>"Exactly what is shared:"</p>
                            <pre class="snippet" tabindex="0" data-testid="share-payload">{shown}</pre>
                            <label for="share-link">"Link (" {link.len()} " characters)"</label>
                            <input id="share-link" type="text" readonly data-testid="share-link" prop:value=link.clone() />
                            <CopyButton label="Copy link" text=link testid="share-copy" />
                        }.into_any(),
                        Err(message) => view! { <p class="error" data-testid="share-too-large">{message}</p> }.into_any(),
                    }}
                </div>
            </Show>
        </section>
    }.into_any()
}
