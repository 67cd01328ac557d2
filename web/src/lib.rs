//! MCP Triage browser app (Leptos CSR), in the order data flows: `net` (all network code: bytes in
//! and out), `state` (the form's values and the run that drives the core engine), `components`
//! (one view a file, rendering what the core said), `pages` (the modules a visit loads: the boot
//! page, the app, and what they share).

pub mod components;
pub mod net;
pub mod pages;
pub mod state;

pub use pages::app::App;

/// True when the page is not the top window (a meta CSP cannot carry `frame-ancestors`).
pub fn framed() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &window),
        // A cross-origin top that cannot be read is still a frame.
        Ok(None) | Err(_) => true,
    }
}

/// Replaces the page with a refusal, for framed loads.
pub fn refuse_framed() {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        body.set_text_content(Some(
            "MCP Triage refuses to run inside a frame: open it in its own tab.",
        ));
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
