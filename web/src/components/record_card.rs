//! One card per exchange: channel, cause, evidence (structure or text, the matched phrase highlighted
//! in the decoded message), advice for both authors, the spec verdict, the envelope, and the raw HTTP
//! behind a disclosure.

use std::sync::Arc;

use leptos::prelude::*;
use mcp_triage::cause::DecidedBy;
use mcp_triage::engine::{Record, Step};
use mcp_triage::export;
use serde_json::Value;

use super::badge::{ChannelBadge, ConformanceBadge};
use super::copy_button::CopyButton;
use super::visible_text::VisibleText;

fn test_id(step: Step) -> String {
    match step {
        Step::Probe(p) => format!("card-{}", p.as_str()),
        Step::NoToken => "card-no-token".into(),
        Step::Get => "card-get".into(),
        Step::Initialize | Step::Discover => "card-connect".into(),
        Step::ResourceMetadata => "card-resource-metadata".into(),
        other => format!("card-{}", other.label().replace([' ', '/', '(', ')'], "-")),
    }
}

/// Renders one recorded exchange.
#[component]
pub fn RecordCard(record: Arc<Record>, secret_header_names: Vec<String>) -> impl IntoView {
    let a = record.assessment.clone();
    let v = a.verdict.clone();
    let ex = &record.exchange;
    let message = v.message.clone();
    let envelope = record
        .shown_json()
        .and_then(|m| serde_json::to_string_pretty(&m).ok());
    let evidence = v.evidence.clone();
    let curl = export::curl(&ex.request, &secret_header_names);
    let carrier = v.carrier();
    // A stdio exchange has no status or headers: its details are the lines and the process.
    let stdio = ex.stdio.clone().filter(|_| ex.is_stdio());
    let tool = v.tool_name.clone();
    let challenge = v.challenge.clone();
    let state = use_context::<crate::state::run::AppState>();
    let metadata_url = record
        .resource_metadata_url()
        .map(str::to_string)
        .filter(|_| state.is_some());
    let spec = a.spec.clone();
    // What holds for every answer of the run is said once, in the summary's notes.
    let flags: Vec<_> = v
        .flags
        .iter()
        .copied()
        .filter(|f| !f.once_per_run())
        .collect();
    let flag_advice: Vec<&str> = flags
        .iter()
        .map(|f| mcp_triage::advice::for_flag(*f))
        .collect();
    let stopped = ex.stop_reason();
    let elapsed = ex
        .elapsed_ms
        .map(|ms| format!("{} ms", ms.max(0.0).round() as u64))
        .unwrap_or_else(|| "—".into());
    let body_end = ex
        .response
        .as_ref()
        .and_then(|r| r.body_end)
        .map(|e| e.label())
        .unwrap_or_default();
    let transport_error = ex.transport_error_detail.clone();
    let resp_headers = ex
        .response
        .as_ref()
        .map(|r| r.headers.clone())
        .unwrap_or_default();
    let raw_body = ex
        .response
        .as_ref()
        .and_then(|r| r.body.clone())
        .unwrap_or_default();
    let req_headers = ex.request.headers.clone();
    let req_body = ex.request.body.clone().unwrap_or_default();
    let problems = v.problems.clone();
    view! {
        <article class="card" data-testid=test_id(record.step)>
            <header class="card-head">
                <h3>{record.step.title()}</h3>
                <ChannelBadge channel=v.channel />
            </header>
            <p class="meta">
                {tool.map(|t| view! { <span>"Tool "<code><VisibleText text=t cap=128 /></code>" · "</span> }.into_any())}
                <span data-testid="carrier">{carrier}</span>
                {v.jsonrpc_code.map(|c| view! { <span>" · JSON-RPC " <code data-testid="jsonrpc-code">{c.to_string()}</code></span> }.into_any())}
            </p>
            <p class="cause">
                "Cause: " <strong data-testid="cause">{v.cause.as_str()}</strong>
                <span class=format!("decided {}", v.decided_by.as_str()) data-testid="decided-by">
                    {match v.decided_by { DecidedBy::Structure => " · decided by structure", DecidedBy::Text => " · decided by text only", DecidedBy::Intent => " · decided by the probe's intent" }}
                </span>
            </p>
            {(!flags.is_empty()).then(|| view! {
                <p class="flags">{flags.iter().map(|f| view! { <span class="badge flag" data-testid="flag">"⚑ "{f.as_str()}</span> }.into_any()).collect_view()}</p>
            }.into_any())}
            <h4>"Evidence"</h4>
            <ul class="evidence">
                {evidence.into_iter().map(|e| {
                    let target = match (&e.pointer, &message) {
                        (Some(p), Some(m)) if p != "/body" => m.pointer(p).and_then(Value::as_str).map(str::to_string),
                        (Some(_), _) => Some(raw_body.clone()),
                        _ => None,
                    };
                    let kind = e.kind.as_str();
                    view! {
                        <li class=format!("ev {kind}")>
                            <span class="badge kind">{kind}</span> " " {e.fact.clone()}
                            {e.pointer.clone().map(|p| view! { " " <code class="ptr">{p}</code> }.into_any())}
                            {target.map(|t| view! {
                                <blockquote class="decoded"><VisibleText text=t cap=512 highlight=e.range.unwrap_or([0, 0]) /></blockquote>
                            }.into_any())}
                        </li>
                    }.into_any()
                }).collect_view()}
            </ul>
            {match stopped {
                // An answer that did not come is not the server's way of answering: no advice.
                Some(why) => view! {
                    <div class="advice" data-testid="not-answered">
                        <h4>"Not answered"</h4>
                        <p>{why.not_answered()}</p>
                    </div>
                }.into_any(),
                None => view! {
                <div class="advice">
                    <h4>"What an agent should do"</h4>
                    <p data-testid="agent-advice"><span class="badge action">{a.advice.action.label()}</span> " " {a.advice.agent}</p>
                    <p class="party">"Who must act: " {a.advice.party.label()}</p>
                    <h4>"What the server author could change"</h4>
                    <p data-testid="server-advice">{a.advice.server}</p>
                    {flag_advice.into_iter().map(|f| view! { <p class="flag-advice">{f}</p> }.into_any()).collect_view()}
                </div>
                }.into_any(),
            }}
            {spec.map(|s| view! {
                <div class="spec" data-testid="spec">
                    <h4>"Spec " {s.version.clone()}</h4>
                    <p><ConformanceBadge conformance=s.conformance /> " " {s.reason.clone()}</p>
                    <blockquote class="rule">{s.rule}</blockquote>
                    <p><a href=s.link.clone() target="_blank" rel="noopener noreferrer">{s.link.clone()}</a></p>
                </div>
            }.into_any())}
            {challenge.map(|c| view! {
                <div class="challenge" data-testid="challenge">
                    <h4>"WWW-Authenticate challenge"</h4>
                    <dl>
                        <dt>"scheme"</dt><dd>{c.scheme.clone()}</dd>
                        {c.params.into_iter().map(|(k, val)| view! { <dt>{k}</dt><dd><VisibleText text=val cap=256 /></dd> }.into_any()).collect_view()}
                    </dl>
                    {metadata_url.clone().map(|url| view! {
                        <button type="button" data-testid="fetch-metadata" on:click=move |_| {
                            if let Some(s) = state { s.fetch_metadata(url.clone()) }
                        }>"Fetch resource_metadata (without the token, endpoint origin only)"</button>
                    }.into_any())}
                </div>
            }.into_any())}
            {envelope.map(|env| view! {
                <h4>"Envelope"</h4>
                <pre class="envelope" data-testid="envelope" tabindex="0"><VisibleText text=env cap=4000 /></pre>
            }.into_any())}
            {transport_error.map(|t| view! { <p class="error">{t}</p> }.into_any())}
            {(!problems.is_empty()).then(|| view! {
                <ul class="problems">{problems.into_iter().map(|p| view! { <li>{p}</li> }.into_any()).collect_view()}</ul>
            }.into_any())}
            {match stdio {
                Some(io) => view! {
                    <details class="raw" data-testid="stdio-details">
                        <summary>"stdio details: lines read from stdout, stderr, the line written, timing"</summary>
                        <p>{elapsed} " · " {io.exit.map(|e| format!("the process ended ({e})")).unwrap_or_else(|| "the process was running".into())}</p>
                        <h5>"Lines read from stdout"</h5>
                        <pre class="raw-body" tabindex="0" data-testid="stdout-lines"><VisibleText text=io.lines.join("\n") cap=2000 /></pre>
                        {io.stderr_tail.map(|t| view! {
                            <h5>"stderr (its last lines; never in a share link)"</h5>
                            <pre class="raw-body" tabindex="0" data-testid="stderr-tail"><VisibleText text=t cap=2000 /></pre>
                        }.into_any())}
                        <h5>"Line written to stdin of " <code><VisibleText text=ex.request.url.clone() cap=80 /></code></h5>
                        <pre class="raw-body" tabindex="0"><VisibleText text=req_body cap=2000 /></pre>
                    </details>
                }.into_any(),
                None => view! {
                <details class="raw">
                    <summary>"HTTP details: status, headers, raw body, request, timing"</summary>
                    <p>"Status " {v.http_status.map(|s| s.to_string()).unwrap_or_else(|| "—".into())} " · " {elapsed} " · body " {body_end}</p>
                    <p class="help">"Seen from a browser: response headers the server does not expose through CORS are invisible here, not necessarily absent."</p>
                    <h5>"Response headers"</h5>
                    <ul class="headers">{resp_headers.into_iter().map(|(k, val)| view! { <li><code>{k}</code>": " <VisibleText text=val cap=256 /></li> }.into_any()).collect_view()}</ul>
                    <h5>"Raw body"</h5>
                    <pre class="raw-body" tabindex="0"><VisibleText text=raw_body.clone() cap=2000 /></pre>
                    <h5>"Request sent"</h5>
                    <p><code>{ex.request.method.clone()}" "</code><VisibleText text=ex.request.url.clone() cap=512 /></p>
                    <ul class="headers" data-testid="request-headers">{req_headers.into_iter().map(|(k, val)| view! { <li><code>{k}</code>": " {val}</li> }.into_any()).collect_view()}</ul>
                    <pre class="raw-body" tabindex="0"><VisibleText text=req_body cap=2000 /></pre>
                </details>
                <div class="card-actions">
                    <CopyButton label="Copy as curl" text=curl testid="copy-curl" />
                </div>
                }.into_any(),
            }}
        </article>
    }.into_any()
}
