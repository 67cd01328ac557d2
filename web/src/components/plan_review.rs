//! Review first: every probe's exact payload, the tool each one chose and why, editable or skippable;
//! tools that are not declared read-only need an explicit opt-in, and destructive ones are marked.

use leptos::prelude::*;
use mcp_triage::ToolRisk;
use mcp_triage::engine::{ConsentPolicy, PlannedProbe, ProbeName};
use mcp_triage::plan_file::{self, PlanEntry};

use super::visible_text::VisibleText;
use crate::state::run::AppState;

fn risk_label(risk: ToolRisk) -> (&'static str, &'static str) {
    match risk {
        ToolRisk::ReadOnly => ("read-only", "ok"),
        ToolRisk::MayHaveSideEffects => ("may have side effects", "warn"),
        ToolRisk::Destructive => ("⚠ DESTRUCTIVE", "bad"),
    }
}

struct Row {
    probe: ProbeName,
    tool: RwSignal<String>,
    args: RwSignal<String>,
    skip: RwSignal<bool>,
    opt_in: RwSignal<bool>,
    original: PlannedProbe,
}

/// The plan editor.
#[component]
pub fn PlanReview() -> impl IntoView {
    let state = expect_context::<AppState>();
    let error = RwSignal::new(String::new());
    let plan = state.plan.get_untracked();
    let tools = state.tools.get_untracked();
    let Some(plan) = plan else {
        return view! { <p>"No plan yet."</p> }.into_any();
    };
    let rows: Vec<Row> = plan
        .iter()
        .map(|p| Row {
            probe: p.probe,
            tool: RwSignal::new(
                p.choice
                    .as_ref()
                    .map(|c| c.tool.clone())
                    .unwrap_or_default(),
            ),
            args: RwSignal::new(
                p.choice
                    .as_ref()
                    .and_then(|c| serde_json::to_string_pretty(&c.arguments).ok())
                    .unwrap_or_else(|| "{}".into()),
            ),
            skip: RwSignal::new(p.skipped.is_some()),
            opt_in: RwSignal::new(false),
            original: p.clone(),
        })
        .collect();
    let rows = StoredValue::new(
        rows.into_iter()
            .map(|r| (r.probe, r.tool, r.args, r.skip, r.opt_in, r.original))
            .collect::<Vec<_>>(),
    );
    let tools_for_risk = tools.clone();
    // The rows as a plan's entries: what Run hands the core's consent policy and Save writes.
    // Run reads no skipped row's arguments; Save writes every row, so each must read.
    let entries = move |read_skipped: bool| -> Result<Vec<PlanEntry>, String> {
        rows.get_value()
            .into_iter()
            .map(|(probe, tool, args, skip, opt_in, _)| {
                let name = tool.get_untracked();
                let (skip, text) = (skip.get_untracked(), args.get_untracked());
                let arguments = if skip && !read_skipped {
                    None
                } else {
                    Some(plan_file::arguments_of(probe, &text)?)
                };
                Ok(PlanEntry {
                    probe,
                    skip,
                    tool: (!name.trim().is_empty()).then_some(name),
                    arguments,
                    opt_in: opt_in.get_untracked(),
                })
            })
            .collect()
    };
    let run = move |_| match entries(false).and_then(|rows| state.continue_after_review(&rows)) {
        Ok(()) => error.set(String::new()),
        Err(e) => error.set(e),
    };
    // plan.json: what the rows say now, as a file (the core writes it, redacting the run's secrets).
    let save = move |_| match entries(true) {
        Ok(probes) => {
            let text = plan_file::encode(probes, &state.secrets());
            super::export_bar::download("plan.json", "application/json", &text);
        }
        Err(e) => error.set(e),
    };
    // Loading fills the rows and sends nothing; opt-ins in the file are shown, never ticked for you.
    let loaded = RwSignal::new(String::new());
    let load = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        // Cleared, so choosing the same file again (after editing it) loads it again.
        input.set_value("");
        if file.size() > plan_file::MAX_PLAN_BYTES as f64 {
            error.set(plan_file::PlanProblem::TooLarge.to_string());
            return;
        }
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let plan = match plan_file::decode(&text) {
                Ok(plan) => plan,
                Err(p) => {
                    error.set(p.message);
                    return;
                }
            };
            let (form, message) = plan.form_rows();
            for entry in form {
                let Some((_, tool, args, skip, opt_in, _)) =
                    rows.get_value().into_iter().find(|r| r.0 == entry.probe)
                else {
                    continue;
                };
                tool.set(entry.tool);
                args.set(entry.arguments);
                skip.set(entry.skip);
                // A file never opts in for the person reading it (the core's consent policy).
                opt_in.set(entry.file_opts_in && ConsentPolicy::Person.keeps_file_opt_in());
            }
            error.set(String::new());
            loaded.set(message);
        });
    };
    view! {
        <section class="plan" data-testid="plan" aria-label="Plan">
            <h2 id="plan-heading" tabindex="-1">"Review the plan"</h2>
            <p class="help">"Nothing below has been sent yet. Probes B, C and D are chosen only among tools that declare readOnlyHint: true; calling any other tool needs your opt-in."</p>
            {rows.get_value().into_iter().map(|(probe, tool, args, skip, opt_in, original)| {
                let tools_here = tools_for_risk.clone();
                let risk = move || {
                    let name = tool.get();
                    tools_here.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
                };
                let id = probe.as_str();
                view! {
                    <fieldset class="card plan-row" data-testid=format!("plan-{id}")>
                        <legend>{format!("Probe {id}")}</legend>
                        <p class="help">{original.choice.as_ref().map(|c| c.why.clone()).or_else(|| original.skipped.map(|s| s.describe(mcp_triage::exchange::Vantage::Browser).to_string())).unwrap_or_default()}</p>
                        <label for=format!("tool-{id}")>"Tool"</label>
                        <input id=format!("tool-{id}") data-testid=format!("tool-{id}") type="text" autocomplete="off" spellcheck="false"
                            prop:value=move || tool.get() on:input=move |ev| {
                                // A probe you fill in is one you want run.
                                let name = event_target_value(&ev);
                                if !name.trim().is_empty() {
                                    skip.set(false);
                                }
                                tool.set(name);
                            } />
                        <p class="warn" data-testid=format!("tool-note-{id}")>{move || state.unlisted_tool_note(&tool.get())}</p>
                        {move || risk().map(|r| { let (label, class) = risk_label(r); view! { <span class=format!("badge risk {class}")>{label}</span> }.into_any() })}
                        <label for=format!("args-{id}")>"Arguments (JSON object)"</label>
                        <textarea id=format!("args-{id}") data-testid=format!("args-{id}") rows="3" spellcheck="false"
                            prop:value=move || args.get() on:input=move |ev| args.set(event_target_value(&ev))></textarea>
                        <label class="check"><input type="checkbox" data-testid=format!("skip-{id}") prop:checked=move || skip.get()
                            on:change=move |ev| skip.set(event_target_checked(&ev)) />" Skip this probe"</label>
                        // Asked only where the core's rule asks it (not for a read-only tool, nor for a
                        // name the server certainly lacks), with why.
                        // (Hidden by the stylesheet while the reason is empty.)
                        <label class="check opt-in"><input type="checkbox" data-testid=format!("optin-{id}") prop:checked=move || opt_in.get()
                            on:change=move |ev| opt_in.set(event_target_checked(&ev)) />" I accept that this call may have side effects (this tool "
                            <span>{move || state.needs_opt_in(&tool.get()).unwrap_or_default()}</span> ")"</label>
                        {original.payload.clone().map(|p| view! {
                            <details><summary>"Exact payload as planned"</summary><pre class="envelope" tabindex="0"><VisibleText text=p cap=4000 /></pre></details>
                        }.into_any())}
                    </fieldset>
                }.into_any()
            }).collect_view()}
            <div class="card">
                <h3>"Transport checks"</h3>
                <ul>
                    <li>"The same connect request without the token (only when a token is given): expect 401 with a WWW-Authenticate challenge."</li>
                    <li>"GET on the endpoint: expect 405, or an SSE stream (aborted after the headers)."</li>
                    <li>"This page's Origin: a 403 means the server's Origin check refuses it."</li>
                </ul>
                <h3>"Catalogue"</h3>
                <ul class="catalogue" data-testid="catalogue">
                    {tools.into_iter().map(|(name, risk)| { let (label, class) = risk_label(risk); view! {
                        <li><code><VisibleText text=name cap=128 /></code> " " <span class=format!("badge risk {class}")>{label}</span></li>
                    }.into_any()}).collect_view()}
                </ul>
            </div>
            <p class="help" role="status" data-testid="plan-loaded">{move || loaded.get()}</p>
            <p class="error" role="alert" data-testid="plan-error">{move || error.get()}</p>
            <div class="actions">
                <button type="button" class="primary" data-testid="run-plan" on:click=run>"Run these probes"</button>
                <button type="button" data-testid="cancel" on:click=move |_| state.cancel()>"Cancel"</button>
                <button type="button" data-testid="save-plan" on:click=save>"Download plan.json"</button>
                <label class="file-button">"Load plan.json "
                    <input type="file" accept=".json,application/json" data-testid="load-plan" on:change=load />
                </label>
            </div>
        </section>
    }.into_any()
    .into_any()
}
