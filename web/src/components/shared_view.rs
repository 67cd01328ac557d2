//! A shared results link, opened: read-only, marked as not verified, and it sends no request.

use leptos::prelude::*;
use mcp_triage::Conformance;
use mcp_triage::cause::{Channel, StopReason};
use mcp_triage::share::{NO_ACTION, Share, ShareError};

use super::badge::{ChannelBadge, ConformanceBadge};
use super::visible_text::VisibleText;

/// The shared results, or the one "invalid or damaged link" view.
#[component]
pub fn SharedView(shared: Result<Share, ShareError>, on_leave: Callback<()>) -> impl IntoView {
    let leave = move |_| on_leave.run(());
    let Ok(p) = shared else {
        return view! {
            <section class="banner" data-testid="damaged-link" role="alert">
                <h2>"Invalid or damaged link"</h2>
                <p>"This link is invalid or damaged, so nothing from it is shown."</p>
                <button type="button" class="primary" data-testid="run-own" on:click=leave>"Run against your own endpoint"</button>
            </section>
        }.into_any()
        .into_any();
    };
    view! {
        <section data-testid="shared-view" aria-label="Shared results">
            <div class="banner" role="note" data-testid="shared-banner">
                <strong>"Shared results — not verified by this page."</strong>
                " Made " <VisibleText text=p.date.clone() cap=32 /> " with MCP Triage " <VisibleText text=p.tool.clone() cap=32 /> "."
                " Nothing was sent to any server to show this."
            </div>
            <section class="summary" data-testid="summary">
                <p class="finding" data-testid="finding"><VisibleText text=p.finding.clone() cap=512 /></p>
                <p class="score">"Distinguishability by structure alone: "
                    <strong data-testid="score">{mcp_triage::score_text(p.score, p.pairs)}</strong></p>
                <p class="meta">"Endpoint " <code><VisibleText text=p.endpoint.clone() cap=512 /></code>
                    {p.server.clone().map(|(n, v)| view! { " · server " <VisibleText text=format!("{n} {v}") cap=200 /> }.into_any())}
                    {p.version.clone().map(|v| view! { " · protocol " <VisibleText text=v cap=32 /> }.into_any())}
                </p>
                <ul class="notes">{p.notes.iter().map(|n| view! { <li><VisibleText text=n.clone() cap=256 /></li> }.into_any()).collect_view()}</ul>
            </section>
            <div class="cards">
                {p.rows.into_iter().map(|row| {
                    let channel = Channel::parse(&row.channel).unwrap_or(Channel::Malformed);
                    let id = format!("card-{}", row.step.replace('_', "-"));
                    view! {
                        <article class="card" data-testid=id>
                            <header class="card-head">
                                <h3>{mcp_triage::engine::Step::title_of_id(&row.step)}</h3>
                                {row.skipped.is_none().then(|| view! { <ChannelBadge channel=channel /> }.into_any())}
                            </header>
                            {row.skipped.clone().map(|s| view! { <p data-testid="skip-reason">"Skipped: " <VisibleText text=s cap=256 /></p> }.into_any())}
                            {row.skipped.is_none().then(|| view! {
                                <p class="meta">
                                    {row.tool.clone().map(|t| view! { "Tool " <code><VisibleText text=t cap=128 /></code> " · " }.into_any())}
                                    {row.status.map(|s| format!("HTTP {s}"))}
                                    {row.code.map(|c| format!(" · JSON-RPC {c}"))}
                                </p>
                                <p class="cause">"Cause: " <strong data-testid="cause">{row.cause.clone()}</strong>
                                    <span class="decided">{format!(" · decided by {}", row.decided_by)}</span></p>
                                {match row.stopped.as_deref().and_then(StopReason::parse) {
                                    Some(why) => view! { <p data-testid="not-answered">{why.not_answered()}</p> }.into_any(),
                                    None => (row.action != NO_ACTION).then(|| view! {
                                        <p>"Agent: " <span class="badge action">{row.action.replace('_', " ")}</span></p>
                                    }.into_any()).into_any(),
                                }}
                                <ul class="evidence">{row.evidence.iter().map(|(fact, matched)| view! {
                                    <li><VisibleText text=fact.clone() cap=256 />
                                        {matched.clone().map(|m| view! { " — " <mark><VisibleText text=m cap=128 /></mark> }.into_any())}</li>
                                }.into_any()).collect_view()}</ul>
                                {(!row.flags.is_empty()).then(|| view! { <p class="flags">{row.flags.join(", ")}</p> }.into_any())}
                                {row.spec.clone().map(|(conf, version, link, reason)| {
                                    let c = Conformance::parse(&conf).unwrap_or(Conformance::NotApplicable);
                                    view! {
                                        <p>"Spec " {version} " " <ConformanceBadge conformance=c /> " " <VisibleText text=reason cap=512 /></p>
                                        <p><a href=link.clone() target="_blank" rel="noopener noreferrer">{link.clone()}</a></p>
                                    }.into_any()
                                })}
                                {row.excerpt.clone().filter(|e| !e.is_empty()).map(|e| view! { <pre class="envelope" tabindex="0"><VisibleText text=e cap=1024 /></pre> }.into_any())}
                            }.into_any())}
                        </article>
                    }.into_any()
                }).collect_view()}
            </div>
            <button type="button" class="primary" data-testid="run-own" on:click=leave>"Run against your own endpoint"</button>
        </section>
    }.into_any()
    .into_any()
}
