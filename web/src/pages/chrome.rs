//! What the boot page and the app share: the site header, the "no server handy" summary, and the
//! address bar's fragment (a share link, the own-form mark).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub(crate) fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
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
            && (location_hash().starts_with("#r=") || location_hash().starts_with("#c="))
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

/// The page's footer: the README, the command line's documentation and the source (the
/// workspace's repository). Our own addresses only.
#[component]
pub(crate) fn SiteFooter() -> impl IntoView {
    view! {
        <footer class="site-footer" data-testid="site-footer">
            <a href=concat!(env!("CARGO_PKG_REPOSITORY"), "#readme") rel="noopener noreferrer">"README"</a>
            " · "
            <a href=concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/cli.md") rel="noopener noreferrer">"The command line (mcp-triage)"</a>
            " · "
            <a href=env!("CARGO_PKG_REPOSITORY") rel="noopener noreferrer">"Source"</a>
            {concat!(" · MCP Triage ", env!("CARGO_PKG_VERSION"))}
        </footer>
    }
}

/// The "no server handy" section's summary, on the boot page and in the app.
pub(crate) const NO_SERVER_SUMMARY: &str = "No server handy? Examples and pasted captures";
