//! The target form: endpoint, token, extra secret headers, protocol era, and the two ways to run.
//!
//! The same component serves the boot page (before the app module is loaded) and the app: its
//! values live in a [`FormState`] its owner holds, so the boot can hand them over as they are.

use crate::net::parse_endpoint;
use leptos::prelude::*;
use mcp_triage::Limits;
use mcp_triage::endpoint::check_token;
use mcp_triage::engine::{Mode, era_choices};

use crate::net::DemoConfig;
use crate::state::form::{FormValues, header_problem};

/// One extra header being edited: a stable key, its name, its value, and whether it is a secret.
type ExtraHeader = (usize, RwSignal<String>, RwSignal<String>, RwSignal<bool>);

/// The form's signals, held by the form's owner.
#[derive(Clone, Copy)]
pub struct FormState {
    endpoint: RwSignal<String>,
    token: RwSignal<String>,
    era: RwSignal<String>,
    run_seconds: RwSignal<String>,
    extras: RwSignal<Vec<ExtraHeader>>,
    next_extra: StoredValue<usize>,
}

impl FormState {
    /// A form showing `initial`.
    pub fn new(initial: FormValues) -> FormState {
        let extras: Vec<ExtraHeader> = initial
            .extras
            .into_iter()
            .enumerate()
            .map(|(key, (n, v, secret))| {
                (
                    key,
                    RwSignal::new(n),
                    RwSignal::new(v),
                    RwSignal::new(secret),
                )
            })
            .collect();
        FormState {
            endpoint: RwSignal::new(initial.endpoint),
            token: RwSignal::new(initial.token),
            era: RwSignal::new(initial.era),
            run_seconds: RwSignal::new(initial.run_seconds),
            next_extra: StoredValue::new(extras.len()),
            extras: RwSignal::new(extras),
        }
    }

    /// Empties the form (the boot page's, once it has handed over: it keeps no secret).
    pub fn clear(&self) {
        let blank = FormValues::default();
        self.endpoint.set(blank.endpoint);
        self.token.set(blank.token);
        self.era.set(blank.era);
        self.run_seconds.set(blank.run_seconds);
        self.extras.set(Vec::new());
    }

    /// Puts a token in the form, as if pasted (a sign-in's).
    pub fn set_token(&self, token: String) {
        self.token.set(token);
    }

    /// The values now (untracked).
    pub fn values(&self) -> FormValues {
        FormValues {
            endpoint: self.endpoint.get_untracked(),
            token: self.token.get_untracked(),
            era: self.era.get_untracked(),
            run_seconds: self.run_seconds.get_untracked(),
            extras: self
                .extras
                .get_untracked()
                .iter()
                .map(|(_, n, v, s)| (n.get_untracked(), v.get_untracked(), s.get_untracked()))
                .collect(),
        }
    }
}

/// Endpoint, token and the two buttons, then the optional fields folded below them; validation
/// messages inline.
#[component]
pub fn TargetForm(
    /// The form's values.
    form: FormState,
    /// The demo server's offer, when `./x dev` wrote one.
    demo: RwSignal<Option<DemoConfig>>,
    /// True while a run (or the app module a click waits for) keeps the buttons off.
    #[prop(into)]
    busy: Signal<bool>,
    /// Runs a check with the form's values (they passed every check above).
    on_start: Callback<(Mode, FormValues)>,
    /// A token the results asked the form to run again with ("use the demo token").
    #[prop(optional)]
    rerun_with_token: Option<RwSignal<Option<String>>>,
) -> impl IntoView {
    let FormState {
        endpoint,
        token,
        era,
        run_seconds,
        extras,
        next_extra,
    } = form;
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
        check_token(&token.get(), Limits::default().max_token_bytes)
            .err()
            .map(|p| p.to_string())
    });
    let seconds_problem =
        Memo::new(move |_| mcp_triage::limits::parse_run_seconds(&run_seconds.get()).err());
    let extras_problem = Memo::new(move |_| {
        extras
            .get()
            .iter()
            .find_map(|(_, n, v, secret)| header_problem(&n.get(), &v.get(), secret.get()))
    });
    // The origin requests go to, and the whole URL when the browser reads the typed text differently.
    let host = Memo::new(move |_| {
        let typed = endpoint.get();
        parse_endpoint(&typed).ok().map(|e| {
            let read = (e.url != typed.trim()).then(|| e.url.clone());
            (e.origin(), read)
        })
    });
    let extras_full = move || extras.with(|x| x.len() >= mcp_triage::limits::MAX_EXTRA_HEADERS);
    let busy = move || busy.get();
    // Folded unless a value in it differs from its default (a form handed over from the boot page,
    // or a rerun, keeps what the user set in view).
    let blank = FormValues::default();
    let more_open = !extras.with_untracked(|x| x.is_empty())
        || era.get_untracked() != blank.era
        || run_seconds.get_untracked() != blank.run_seconds;
    let can_run = Memo::new(move |_| {
        parse_endpoint(&endpoint.get()).is_ok()
            && token_problem.get().is_none()
            && extras_problem.get().is_none()
            && seconds_problem.get().is_none()
    });
    let start = move |mode: Mode| {
        if parse_endpoint(&endpoint.get_untracked()).is_err()
            || mcp_triage::limits::parse_run_seconds(&run_seconds.get_untracked()).is_err()
            || token_problem.get_untracked().is_some()
            || extras_problem.get_untracked().is_some()
        {
            return;
        }
        on_start.run((mode, form.values()));
    };
    // "Use the demo token" from the results: fill the token in and run Quick check again.
    if let Some(rerun) = rerun_with_token {
        Effect::new(move |_| {
            if let Some(t) = rerun.get() {
                rerun.set(None);
                token.set(t);
                if can_run.get_untracked() && !busy() {
                    start(Mode::Quick);
                }
            }
        });
    }
    view! {
        <form class="target-form" data-testid="target-form" on:submit=move |ev| { ev.prevent_default(); if can_run.get_untracked() && !busy() { start(Mode::Quick) } }>
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
                        Some((origin, read)) => view! {
                            "Requests go to " <strong class="host" data-testid="endpoint-host">{origin}</strong>
                            {read.map(|url| view! { " — your browser reads the URL as " <code data-testid="endpoint-read">{url}</code> })}
                        }.into_any(),
                        None => view! { "https:// anywhere, or http:// to localhost or 127.0.0.1." }.into_any(),
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
                    }.into_any())}
                </p>
                <p id="token-error" class="error" role="alert" data-testid="token-error">
                    {move || token_problem.get().unwrap_or_default()}
                </p>
            </div>
            <div class="actions">
                <button type="submit" class="primary" data-testid="quick-check" disabled=move || !can_run.get() || busy()>
                    "Quick check"
                </button>
                <button type="button" data-testid="review-first" disabled=move || !can_run.get() || busy()
                    on:click=move |_| start(Mode::Review)>
                    "Review first"
                </button>
            </div>
            <details class="more-options" data-testid="more-options" open=more_open>
                <summary>"More options: extra headers, protocol era, time limit"</summary>
                <fieldset class="field extras">
                    <legend>"Extra headers (optional, e.g. X-API-Key)"</legend>
                    {move || extras.get().into_iter().map(|(key, name, value, secret)| view! {
                        <div class="extra-row">
                            <label class="sr-only" for=format!("xh-name-{key}")>"Header name"</label>
                            <input id=format!("xh-name-{key}") data-testid="extra-name" type="text" placeholder="X-API-Key" autocomplete="off" spellcheck="false"
                                prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                            <label class="sr-only" for=format!("xh-value-{key}")>"Header value"</label>
                            <input id=format!("xh-value-{key}") data-testid="extra-value" type=move || if secret.get() { "password" } else { "text" } placeholder="value" autocomplete="off" spellcheck="false"
                                prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev)) />
                            <label class="secret-toggle">
                                <input type="checkbox" data-testid="extra-secret" prop:checked=move || secret.get() on:change=move |ev| secret.set(event_target_checked(&ev)) />
                                " secret"
                            </label>
                            <button type="button" aria-label="Remove this header" on:click=move |_| extras.update(|x| x.retain(|(k, _, _, _)| *k != key))>"Remove"</button>
                        </div>
                    }.into_any()).collect_view()}
                    <p class="help">"A secret header is redacted wherever it could appear, like the token, and must be at least 8 characters; a plain one (X-Tenant: acme) is shown as sent."</p>
                    <button type="button" data-testid="add-header"
                        disabled=extras_full
                        on:click=move |_| {
                        let key = next_extra.get_value();
                        next_extra.set_value(key + 1);
                        extras.update(|x| x.push((key, RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(true))));
                    }>{move || if extras_full() { format!("At most {} extra headers", mcp_triage::limits::MAX_EXTRA_HEADERS) } else { "Add a header".to_string() }}</button>
                    <p class="error" role="alert">{move || extras_problem.get().unwrap_or_default()}</p>
                </fieldset>
                <div class="field">
                    <label for="era">"Protocol version (era): which MCP revision the run speaks"</label>
                    <select id="era" data-testid="era" on:change=move |ev| era.set(event_target_value(&ev))>
                        {era_choices().into_iter().map(|(value, label)| view! {
                            <option value=value selected=move || era.get() == value>{label}</option>
                        }.into_any()).collect_view()}
                    </select>
                </div>
                <div class="field">
                    <label for="run-seconds">"Time limit for the whole run (seconds)"</label>
                    <input id="run-seconds" data-testid="run-seconds" type="number" inputmode="numeric"
                        min=mcp_triage::limits::RUN_SECONDS.0 max=mcp_triage::limits::RUN_SECONDS.1 step="1"
                        aria-describedby="run-seconds-error" class="short"
                        prop:value=move || run_seconds.get()
                        on:input=move |ev| run_seconds.set(event_target_value(&ev)) />
                    <p id="run-seconds-error" class="error" role="alert" data-testid="run-seconds-error">
                        {move || seconds_problem.get().unwrap_or_default()}
                    </p>
                </div>
            </details>
        </form>
    }.into_any()
}
