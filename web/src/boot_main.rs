//! Entry point of the boot page (the module a visit loads first): refuses to run inside a frame,
//! then mounts the form. Nothing else.

fn main() {
    if mcp_triage_web::framed() {
        mcp_triage_web::refuse_framed();
        return;
    }
    mcp_triage_web::pages::boot::mount();
}
