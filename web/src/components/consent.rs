//! Quick check's consent step: when no tool declares `readOnlyHint: true` for probe B, C or D, the
//! core's proposals wait here for one click. Each shows the tool, its annotations as declared, and
//! the exact payload; nothing has been sent to them yet.

use leptos::prelude::*;

use super::visible_text::VisibleText;
use crate::state::run::AppState;

/// A declared annotation, as the server wrote it.
fn hint(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "true",
        Some(false) => "false",
        None => "absent",
    }
}

/// The consent step.
#[component]
pub fn ConsentStep() -> impl IntoView {
    let state = expect_context::<AppState>();
    let rows = state.consent.get_untracked();
    let any = rows.iter().any(|r| r.proposal.is_some());
    view! {
        <section class="consent" data-testid="consent" aria-labelledby="consent-heading">
            <h2 id="consent-heading" tabindex="-1">"These need your OK"</h2>
            <p class="help">"No tool declares readOnlyHint: true for the probes below. These tools are proposed because nothing in their annotations or names says they write; they are called only if you agree. Probe A and the transport checks have already run."</p>
            {rows.into_iter().map(|r| {
                let id = r.probe.as_str();
                view! {
                    <article class="card" data-testid=format!("consent-{id}")>
                        <h3>{format!("Probe {id}")}</h3>
                        {match r.proposal {
                            Some(p) => view! {
                                <p>"Tool " <code data-testid="consent-tool"><VisibleText text=p.choice.tool.clone() cap=128 /></code></p>
                                <p class="meta">{p.tool.as_ref().map(|t| format!("readOnlyHint: {} · destructiveHint: {}", hint(t.read_only), hint(t.destructive)))}</p>
                                <p class="help">{p.choice.why.clone()}</p>
                                <pre class="raw-body" data-testid="consent-payload"><VisibleText text=p.payload.clone() cap=2000 /></pre>
                            }.into_any(),
                            None => view! {
                                <p data-testid="consent-none">"Nothing fits, so this probe will not run: "
                                    {r.reason.map(|s| s.describe(mcp_triage::exchange::Vantage::Browser)).unwrap_or_default()}</p>
                            }.into_any(),
                        }}
                    </article>
                }
            }).collect_view()}
            <div class="actions">
                {any.then(|| view! {
                    <button type="button" class="primary" data-testid="consent-run" on:click=move |_| state.answer_consent(true)>"Run with these"</button>
                })}
                <button type="button" data-testid="consent-only-a" on:click=move |_| state.answer_consent(false)>"Only probe A"</button>
                <button type="button" data-testid="consent-cancel" on:click=move |_| state.cancel()>"Cancel"</button>
            </div>
        </section>
    }
}
