//! The app shell: header, the target form, and the area where runs and results appear.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::target_form::TargetForm;
use crate::net::{self, DemoConfig};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let demo: RwSignal<Option<DemoConfig>> = RwSignal::new(None);
    spawn_local(async move {
        if let Some(config) = net::load_demo_config().await {
            demo.set(Some(config));
        }
    });
    view! {
        <header class="site-header">
            <h1>"MCP Triage"</h1>
            <p class="tagline">
                "See exactly how an MCP server fails a " <code>"tools/call"</code>
                ", and what an agent should do about it."
            </p>
        </header>
        <main id="main">
            <TargetForm demo=demo />
        </main>
        <footer class="site-footer">
            <p>
                "Runs entirely in this page. The token stays in memory and goes only into the "
                <code>"Authorization"</code> " header of requests to the endpoint you type."
            </p>
        </footer>
    }
}
