//! Entry point of the share module (what a share link loads, alone): refuses to run inside a frame,
//! then shows the shared results. Nothing else.

fn main() {
    if mcp_triage_web::framed() {
        mcp_triage_web::refuse_framed();
        return;
    }
    leptos::mount::mount_to_body(mcp_triage_web::pages::app::SharedPage);
}
