//! The results page: the finding on top, one card per probe, transport checks, the CORS doctor, and
//! the ways to take results away.

use leptos::prelude::*;
use mcp_triage::engine::RunReport;

use super::badge::ConformanceBadge;
use super::diagnosis::DiagnosisCard;
use super::export_bar::ExportBar;
use super::record_card::RecordCard;
use super::share_panel::SharePanel;
use crate::state::run::AppState;

/// The summary block.
#[component]
pub fn Summary(report: RunReport) -> impl IntoView {
    let score = report.summary.score;
    let state = expect_context::<AppState>();
    // This endpoint is the demo server the page's own demo file names, and it asked for a token.
    let demo_token = use_context::<RwSignal<Option<crate::net::DemoConfig>>>()
        .and_then(|d| d.get_untracked())
        .filter(|d| report.offers_demo_token(&d.endpoint))
        .map(|d| d.token_hint);
    let verdicts = report.spec_verdicts();
    let server = report
        .server_text()
        .unwrap_or_else(|| "unknown server".into());
    view! {
        <section class="summary" data-testid="summary" aria-label="Summary">
            <p class="finding" data-testid="finding">{report.headline.clone()}</p>
            {demo_token.map(|t| view! {
                <p><button type="button" class="primary" data-testid="use-demo-token"
                    on:click=move |_| state.rerun_with_token.set(Some(t.clone()))>"Use the demo token and run again"</button></p>
            })}
            <p class="score">
                "Distinguishability by structure alone: "
                <strong data-testid="score">{mcp_triage::score_text(score, Some(report.summary.judged))}</strong>
                <span class="help">" (how many of the pairs A–B, A–C, B–C an agent can tell apart without reading prose)"</span>
            </p>
            <p class="meta">
                "Server: " {server} " · protocol " {report.protocol_text().to_string()}
                {report.rounds_text().map(|r| format!(" · {r}"))}
            </p>
            <ul class="verdicts">
                {verdicts.into_iter().map(|(step, s)| view! {
                    <li><span class="step">{step.title()}</span> " " <ConformanceBadge conformance=s.conformance /></li>
                }.into_any()).collect_view()}
                {report.origin.clone().map(|o| view! {
                    <li><span class="step">"origin"</span> " " <ConformanceBadge conformance=o.conformance /> " " <span class="help">{o.reason.clone()}</span></li>
                }.into_any())}
            </ul>
            {report.c_not_provoked.then(|| view! {
                <p class="warn" data-testid="c-not-provoked">"Probe C succeeded, so no failure was provoked: use Review first to pick a call that makes the backend fail."</p>
            }.into_any())}
            {(!report.notes.is_empty()).then(|| view! {
                <ul class="notes">{report.notes.iter().map(|n| view! { <li>{n.clone()}</li> }.into_any()).collect_view()}</ul>
            }.into_any())}
        </section>
    }.into_any()
}

/// While a run goes on (and no consent step waits): each probe's card as soon as its answer is in,
/// in the core's order; the transport checks finish on their own, and [`Results`] takes over when
/// the run ends.
#[component]
pub fn LiveCards() -> impl IntoView {
    let state = expect_context::<AppState>();
    let probes = Signal::derive(move || {
        state
            .report
            .with(|r| r.as_ref().map(|r| r.card_groups().probes))
            .unwrap_or_default()
    });
    // Keyed by step: a card already shown stays as it is (open details, focus, selection) while
    // the next ones arrive.
    view! {
        <Show when=move || probes.with(|p| !p.is_empty())>
            <section class="results live" data-testid="live-results" aria-label="Results so far">
                <h2>"Results so far"</h2>
                <div class="cards">
                    <For each=move || probes.get() key=|r| r.step.label() let:record>
                        <RecordCard record=record secret_header_names=state.secret_header_names.get_untracked() />
                    </For>
                </div>
            </section>
        </Show>
    }
    .into_any()
}

/// Everything after a run.
#[component]
pub fn Results() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let Some(report) = state.report.get() else {
            return view! { <p>"No results yet."</p> }.into_any();
        };
        let names = state.secret_header_names.get();
        let groups = report.card_groups();
        let (probes, checks, connect, connect_shown) = (
            groups.probes,
            groups.checks,
            groups.connect,
            groups.connect_failed,
        );
        let skipped: Vec<_> = report
            .probes
            .iter()
            .filter(|p| p.skipped.is_some())
            .cloned()
            .collect();
        let names4 = names.clone();
        let endpoint = state.endpoint.get();
        let names2 = names.clone();
        let names3 = names.clone();
        view! {
            <section class="results" data-testid="results" aria-label="Results">
                <h2 id="results-heading" tabindex="-1">"Results"</h2>
                {move || state.source.get().map(|s| view! { <p class="banner" data-testid="source-banner">{s}</p> }.into_any())}
                <Summary report=report.clone() />
                {move || state.diagnosis.get().map(|d| view! { <DiagnosisCard diagnosis=d /> }.into_any())}
                {(!connect_shown.is_empty()).then(|| view! {
                    <h3 class="section">"Connection"</h3>
                    <div class="cards">
                        {connect_shown.into_iter().map(|r| view! { <RecordCard record=r secret_header_names=names4.clone() /> }.into_any()).collect_view()}
                    </div>
                }.into_any())}
                <h3 class="section">"Probes"</h3>
                <div class="cards">
                    {probes.into_iter().map(|r| view! { <RecordCard record=r secret_header_names=names.clone() /> }.into_any()).collect_view()}
                    {skipped.into_iter().map(|p| view! {
                        <article class="card skipped" data-testid=format!("card-{}", p.probe.as_str())>
                            <h3>{format!("{} · skipped", p.probe.as_str())}</h3>
                            <p data-testid="skip-reason">{p.skipped.map(|s| s.describe()).unwrap_or_default()}</p>
                            {p.skipped.and_then(|s| s.next_step()).map(|n| view! { <p class="help">{n}</p> })}
                        </article>
                    }.into_any()).collect_view()}
                </div>
                <h3 class="section">"Transport checks"</h3>
                <div class="cards">
                    {checks.into_iter().map(|r| view! { <RecordCard record=r secret_header_names=names2.clone() /> }.into_any()).collect_view()}
                </div>
                {move || {
                    let fetched = state.metadata.get();
                    let error = state.metadata_error.get();
                    (!fetched.is_empty() || !error.is_empty()).then(|| view! {
                        <h3 class="section">"Resource metadata"</h3>
                        <p class="error" data-testid="metadata-error">{error}</p>
                        <div class="cards" data-testid="metadata">
                            {fetched.into_iter().map(|r| view! { <RecordCard record=std::sync::Arc::new(r) secret_header_names=vec![] /> }.into_any()).collect_view()}
                        </div>
                    }.into_any())
                }}
                <details class="connect">
                    <summary>"Connection exchanges (initialize, tools/list, …)"</summary>
                    <div class="cards">
                        {connect.into_iter().map(|r| view! { <RecordCard record=r secret_header_names=names3.clone() /> }.into_any()).collect_view()}
                    </div>
                </details>
                {endpoint.map(|ep| view! {
                    <ExportBar report=report.clone() endpoint=ep.clone() />
                    <SharePanel report=report.clone() endpoint=ep />
                }.into_any())}
            </section>
        }.into_any()
        .into_any()
    }
}
