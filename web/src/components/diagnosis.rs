//! The CORS doctor's card: the blocked step, then what its conclusion asks for: what the server
//! must allow and expose with snippets, or (a host that does not answer) what to check instead.

use leptos::prelude::*;
use mcp_triage::cors::{CorsFix, Diagnosis};

use super::copy_button::CopyButton;

/// Renders a diagnosis.
#[component]
pub fn DiagnosisCard(diagnosis: Diagnosis) -> impl IntoView {
    view! {
        <section class="card diagnosis" data-testid="diagnosis" aria-label="CORS doctor">
            <h3>"CORS doctor"</h3>
            <p data-testid="diagnosis-conclusion">{diagnosis.conclusion.clone()}</p>
            {diagnosis.blocked_step.map(|s| view! { <p class="meta">"Blocked step: " <code data-testid="blocked-step">{s}</code></p> }.into_any())}
            {diagnosis.context.iter().map(|c| view! { <p class="warn">{c.clone()}</p> }.into_any()).collect_view()}
            {match diagnosis.fix {
                CorsFix::NotCors { next } => view! { <p data-testid="diagnosis-next">{next}</p> }.into_any(),
                CorsFix::Cors { allow_headers, expose_headers, snippets, direct } => view! {
                    <p>"Allow these request headers: " <code>{allow_headers.join(", ")}</code></p>
                    <p>"Expose these response headers: " <code>{expose_headers.join(", ")}</code></p>
                    <p>"Send " <code>"Access-Control-Max-Age"</code> " so browsers cache the preflight. Allow exactly this page's origin, never " <code>"*"</code> "."</p>
                    {snippets.into_iter().map(|s| view! {
                        <details>
                            <summary>{s.stack}</summary>
                            <pre class="snippet" tabindex="0">{s.code.clone()}</pre>
                            <CopyButton label="Copy snippet" text=s.code />
                        </details>
                    }.into_any()).collect_view()}
                    <p data-testid="diagnosis-next">{direct}</p>
                }.into_any(),
            }}
        </section>
    }.into_any()
}
