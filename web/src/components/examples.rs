//! Examples: reports built from real recorded exchanges, loaded on demand (not in the first-load
//! bundle), so a visitor sees what the tool finds without any server.

use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use serde::Deserialize;

use crate::net;
use crate::state::run::AppState;

/// The example files shipped next to the app (`examples/<name>.json`).
pub const EXAMPLES: &[(&str, &str)] = &[
    ("ts-1.29.0", "TypeScript SDK 1.29.0 (the seed)"),
    ("py-mcp-2.3.0-mcpserver", "Python mcp 2.3.0 MCPServer"),
    ("py-mcp-2.3.0-lowlevel", "Python mcp 2.3.0 low-level Server"),
    ("ts-1.20.0", "TypeScript SDK 1.20.0 (reconstructed)"),
    ("rmcp-3.1.4", "rmcp 3.1.4 (reconstructed)"),
    ("java-sdk-2.0.1", "Java SDK 2.0.1 (reconstructed)"),
];

#[derive(Deserialize)]
struct ExampleFile {
    label: String,
    source: String,
    endpoint: String,
    exchanges: Vec<Exchange>,
}

/// The example buttons.
#[component]
pub fn Examples() -> impl IntoView {
    let state = expect_context::<AppState>();
    let error = RwSignal::new(String::new());
    let open = move |name: &'static str| {
        spawn_local(async move {
            let Some(text) = net::load_example(name).await else {
                error.set(format!("The example {name} could not be loaded."));
                return;
            };
            match serde_json::from_str::<ExampleFile>(&text) {
                Ok(file) => {
                    let report = RunReport::from_exchanges(&file.endpoint, file.exchanges);
                    state.show_recorded(
                        report,
                        &file.endpoint,
                        format!("Example: {}, {}.", file.label, file.source),
                    );
                    error.set(String::new());
                }
                Err(e) => error.set(format!("The example {name} is not readable: {e}")),
            }
        });
    };
    view! {
        <div class="examples" data-testid="examples">
            <p class="help">"See what MCP Triage finds on servers built with real SDKs, without running anything:"</p>
            <div class="actions">
                {EXAMPLES.iter().map(|(name, label)| view! {
                    <button type="button" data-testid=format!("example-{name}") on:click=move |_| open(name)>{*label}</button>
                }.into_any()).collect_view()}
            </div>
            <p class="error" role="alert">{move || error.get()}</p>
        </div>
    }.into_any()
}
