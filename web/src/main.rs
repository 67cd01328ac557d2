//! Entry point of the browser app: refuses to run inside a frame, then mounts the app. Nothing else.

fn main() {
    if mcp_triage_web::framed() {
        mcp_triage_web::refuse_framed();
        return;
    }
    leptos::mount::mount_to_body(mcp_triage_web::App);
}
