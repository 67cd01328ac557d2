//! Entry point of the app module: refuses to run inside a frame, then mounts the app, unless the
//! boot page is on screen: then it waits for the boot page to hand over (`mount_from_boot`).

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    if mcp_triage_web::framed() {
        mcp_triage_web::refuse_framed();
        return;
    }
    if mcp_triage_web::pages::boot::present() {
        return;
    }
    let _ = mcp_triage_web::pages::app::mount_app_module(None, &wasm_bindgen::JsValue::UNDEFINED);
}

/// Called by the boot page with its handoff (JSON, in memory) and the requests it sent already:
/// mounts the app with them.
#[wasm_bindgen]
pub fn mount_from_boot(handoff: String, first_wave: wasm_bindgen::JsValue) -> Result<(), String> {
    mcp_triage_web::pages::app::mount_app_module(Some(&handoff), &first_wave)
}
