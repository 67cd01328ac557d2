//! The target form: endpoint, token, protocol era, and the two ways to run.

use leptos::prelude::*;
use mcp_triage::endpoint::{check_token, parse_endpoint};

use crate::net::DemoConfig;

/// The protocol eras a user can pick.
pub const ERAS: &[(&str, &str)] = &[
    ("2025-11-25", "Legacy 2025-11-25 (default)"),
    ("2025-06-18", "Legacy 2025-06-18"),
    ("2025-03-26", "Legacy 2025-03-26"),
    ("2026-07-28", "2026-07-28 (stateless)"),
    ("auto", "Auto: try 2026-07-28, fall back"),
];

/// Endpoint, token, era; validation messages inline.
#[component]
pub fn TargetForm(demo: RwSignal<Option<DemoConfig>>) -> impl IntoView {
    let endpoint = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let era = RwSignal::new(ERAS[0].0.to_string());
    Effect::new(move |_| {
        if let Some(config) = demo.get()
            && endpoint.get_untracked().is_empty()
        {
            endpoint.set(config.endpoint.clone());
        }
    });
    let endpoint_problem = Memo::new(move |_| {
        let e = endpoint.get();
        if e.trim().is_empty() {
            return None;
        }
        parse_endpoint(&e).err().map(|p| p.to_string())
    });
    let token_problem = Memo::new(move |_| {
        check_token(&token.get(), mcp_triage::Limits::default().max_token_bytes)
            .err()
            .map(|p| p.to_string())
    });
    let host = Memo::new(move |_| parse_endpoint(&endpoint.get()).ok().map(|e| e.origin()));
    let can_run = Memo::new(move |_| {
        parse_endpoint(&endpoint.get()).is_ok() && token_problem.get().is_none()
    });
    view! {
        <form class="target-form" data-testid="target-form" on:submit=move |ev| ev.prevent_default()>
            <h2>"Target"</h2>
            <div class="field">
                <label for="endpoint">"MCP endpoint (Streamable HTTP)"</label>
                <input id="endpoint" data-testid="endpoint" type="url" inputmode="url"
                    placeholder="https://mcp.example.com/mcp" autocomplete="off" spellcheck="false"
                    prop:value=move || endpoint.get()
                    on:input=move |ev| endpoint.set(event_target_value(&ev))
                    aria-describedby="endpoint-help endpoint-error" />
                <p id="endpoint-help" class="help">
                    {move || match host.get() {
                        Some(origin) => view! { "Requests go to " <strong class="host" data-testid="endpoint-host">{origin}</strong> }.into_any(),
                        None => view! { "https:// anywhere, or http:// to localhost, 127.0.0.1 or [::1]." }.into_any(),
                    }}
                </p>
                <p id="endpoint-error" class="error" role="alert" data-testid="endpoint-error">
                    {move || endpoint_problem.get().unwrap_or_default()}
                </p>
            </div>
            <div class="field">
                <label for="token">"Bearer token (optional)"</label>
                <input id="token" data-testid="token" type="password" autocomplete="off" spellcheck="false"
                    prop:value=move || token.get()
                    on:input=move |ev| token.set(event_target_value(&ev))
                    aria-describedby="token-help token-error" />
                <p id="token-help" class="help">
                    "Kept in memory only; never stored, never in a link. "
                    {move || demo.get().map(|d| view! {
                        <span data-testid="demo-hint">"Demo server (" {d.server.clone()} ") token: "
                            <code>{d.token_hint.clone()}</code></span>
                    })}
                </p>
                <p id="token-error" class="error" role="alert" data-testid="token-error">
                    {move || token_problem.get().unwrap_or_default()}
                </p>
            </div>
            <div class="field">
                <label for="era">"Protocol era"</label>
                <select id="era" data-testid="era" on:change=move |ev| era.set(event_target_value(&ev))>
                    {ERAS.iter().map(|(value, label)| view! {
                        <option value=*value selected=move || era.get() == *value>{*label}</option>
                    }).collect_view()}
                </select>
            </div>
            <div class="actions">
                <button type="submit" class="primary" data-testid="quick-check" disabled=move || !can_run.get()>
                    "Quick check"
                </button>
                <button type="button" data-testid="review-first" disabled=move || !can_run.get()>
                    "Review first"
                </button>
            </div>
        </form>
    }
}
