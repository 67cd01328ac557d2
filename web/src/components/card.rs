//! One card per probe or check, from the core's [`CardView`]: channel, cause, evidence (the matched
//! phrase highlighted in the server's words), advice for both authors, the spec verdict, the
//! envelope, and what went over the wire behind a disclosure. A live run and a shared link render
//! through this one component; it adds markup and nothing else.

use leptos::prelude::*;
use mcp_triage::view::{Answer, CardView, ChallengeView, ServerAdviceView, WireView};

use super::badge::badge;
use super::copy_button::CopyButton;
use super::markup::{Node, el, render};
use super::visible_text::VisibleText;

/// Renders one card; `children` are what only a live run has (its challenge and its wire, from
/// [`LiveDetails`]), so a shared link's module carries none of their code.
#[component]
pub fn Card(card: CardView, #[prop(optional)] children: Option<Children>) -> impl IntoView {
    render(card_markup(card), children.map(|c| c().into_any()))
}

/// The markup of one card.
fn card_markup(card: CardView) -> Node {
    // A skipped card is its one line; any other opens from its line (title, channel, spec
    // verdict, cause and action) to the evidence, the advice and the envelope.
    let skipped = matches!(card.answer, Answer::Skipped { .. });
    let line = (!skipped).then(|| card.line());
    let mut article = el(if skipped { "article" } else { "details" })
        .class(if skipped { "card skipped" } else { "card" })
        .testid(card.id)
        .child(
            el(if skipped { "header" } else { "summary" })
                .class("card-head")
                .child(el("h3").text(card.title))
                .child_if(card.channel.map(|b| badge(b, "channel")))
                .child_if(
                    card.spec
                        .as_ref()
                        .map(|s| badge(s.conformance.clone(), "head-verdict")),
                )
                .child_if(line.map(|l| el("span").class("line").testid("card-line").shown(l, 300))),
        );
    if !skipped {
        article = article.child(
            el("p")
                .class("meta")
                .child_if(card.tool.map(|t| {
                    el("span")
                        .text("Tool ")
                        .child(el("code").shown(t, 128))
                        .text(" · ")
                }))
                .child(
                    el("span")
                        .testid("carrier")
                        .text(card.carrier.unwrap_or_default()),
                )
                .child_if(card.jsonrpc_code.map(|c| {
                    el("span")
                        .text(" · JSON-RPC ")
                        .child(el("code").testid("jsonrpc-code").text(c.to_string()))
                })),
        );
    }
    if let Some(c) = card.cause {
        article = article.child(
            el("p")
                .class("cause")
                .text("Cause: ")
                .child(el("strong").testid("cause").data_id(c.id).text(c.label))
                .child_if(card.decided_by.map(|d| {
                    el("span")
                        .class(format!("decided {}", d.id))
                        .testid("decided-by")
                        .data_id(d.id)
                        .text(format!(" · decided by {}", d.label))
                })),
        );
    }
    if !card.flags.is_empty() {
        article = article.child(
            el("p")
                .class("flags")
                .children(card.flags.into_iter().map(|f| badge(f, "flag"))),
        );
    }
    if !card.evidence.is_empty() {
        article =
            article
                .child(el("h4").text("Evidence"))
                .child(
                    el("ul")
                        .class("evidence")
                        .children(card.evidence.into_iter().map(|e| {
                            let class = format!(
                                "ev {}",
                                e.kind.as_ref().map(|k| k.id.as_str()).unwrap_or("")
                            );
                            let fact = e.fact_beside_quotes();
                            el("li")
                                .class(class)
                                .child_if(e.kind.map(|k| badge(k, "kind")))
                                .text(" ")
                                .shown(fact, 512)
                                .child_if(
                                    e.pointer
                                        .map(|p| el("code").class("ptr").text(format!(" {p}"))),
                                )
                                .child_if(e.quote.map(|q| {
                                    el("blockquote").class("decoded").child(Node::Shown {
                                        text: q.text,
                                        cap: 512,
                                        highlight: q.highlight,
                                    })
                                }))
                                .into()
                        })),
                );
    }
    article = match card.answer {
        // An answer that did not come is not the server's way of answering: no advice.
        Answer::NotAnswered(why) => article.child(
            el("div")
                .class("advice")
                .testid("not-answered")
                .child(el("h4").text("Not answered"))
                .child(el("p").text(why)),
        ),
        Answer::Skipped {
            reason, next_step, ..
        } => article
            .child(el("h4").text("Skipped"))
            .child(el("p").testid("skip-reason").shown(reason, 256))
            .child_if(next_step.map(|n| el("p").class("help").text(n))),
        Answer::Advice(a) => article.child(
            el("div")
                .class("advice")
                .child(el("h4").text("What an agent should do"))
                .child(
                    el("p")
                        .testid("agent-advice")
                        .child(badge(a.action, "action"))
                        .text(format!(" {}", a.agent.unwrap_or_default())),
                )
                .child_if(a.party.map(|p| {
                    el("p")
                        .class("party")
                        .text(format!("Who must act: {}", p.label))
                }))
                .children(a.server.into_iter().flat_map(|s| {
                    let lines = match s {
                        ServerAdviceView::Nothing(why) => {
                            vec![el("p").testid("server-advice").text(why).into()]
                        }
                        ServerAdviceView::Changes(changes) => changes
                            .into_iter()
                            .map(|c| el("p").testid("server-change").text(c).into())
                            .collect::<Vec<_>>(),
                    };
                    std::iter::once(el("h4").text("What the server author could change").into())
                        .chain(lines)
                })),
        ),
        Answer::Nothing => article,
    };
    if let Some(s) = card.spec {
        article = article.child(
            el("div")
                .class("spec")
                .testid("spec")
                .child(el("h4").text("Spec ").shown(s.version, 32))
                .child(
                    el("p")
                        .child(badge(s.conformance, "verdict"))
                        .text(" ")
                        .shown(s.reason, 512),
                )
                .child_if(s.rule.map(|r| el("blockquote").class("rule").text(r)))
                .child(el("p").child(el("a").href(s.link.clone()).text(s.link))),
        );
    }
    article
        .child_if(
            card.withheld
                .map(|w| el("p").class("help").testid("withheld").text(w)),
        )
        .children(card.envelope.into_iter().flat_map(|env| {
            [
                el("h4").text("Envelope").into(),
                el("pre")
                    .class("envelope")
                    .testid("envelope")
                    .focusable()
                    .shown(env, 4000)
                    .into(),
            ]
        }))
        .child_if(
            card.envelope_note
                .map(|n| el("p").class("help").testid("envelope-note").text(n)),
        )
        .child_if(card.transport_error.map(|t| el("p").class("error").text(t)))
        .child_if((!card.problems.is_empty()).then(|| {
            el("ul")
                .class("problems")
                .children(card.problems.into_iter().map(|p| el("li").text(p).into()))
        }))
        .into()
}

/// What only a live run's card has: the challenge (with the button that starts the sign-in check)
/// and what went over the wire.
#[component]
pub fn LiveDetails(
    wire: Option<WireView>,
    challenge: Option<ChallengeView>,
    on_check_sign_in: Callback<()>,
) -> impl IntoView {
    view! {
        {challenge.map(|c| view! {
                <div class="challenge" data-testid="challenge">
                    <h4>"WWW-Authenticate challenge"</h4>
                    <dl>
                        <dt>"scheme"</dt><dd>{c.scheme}</dd>
                        {c.params.into_iter().map(|(k, val)| view! { <dt>{k}</dt><dd><VisibleText text=val cap=256 /></dd> }).collect_view()}
                    </dl>
                    <button type="button" data-testid="check-sign-in" on:click=move |_| on_check_sign_in.run(())>
                        "Check sign-in setup (without the token)"</button>
                </div>
            })}
        {wire.map(|w| view! { <Wire wire=w /> })}
    }
    .into_any()
}

/// What went over the wire, behind a disclosure.
#[component]
fn Wire(wire: WireView) -> impl IntoView {
    match wire {
        WireView::Stdio { elapsed, process, stdout, stderr_tail, command, line_written } => view! {
            <details class="raw" data-testid="stdio-details">
                <summary>"stdio details: lines read from stdout, stderr, the line written, timing"</summary>
                <p>{elapsed} " · " {process}</p>
                <h5>"Lines read from stdout"</h5>
                <pre class="raw-body" tabindex="0" data-testid="stdout-lines"><VisibleText text=stdout cap=2000 /></pre>
                {stderr_tail.map(|t| view! {
                    <h5>"stderr (its last lines; never in a share link)"</h5>
                    <pre class="raw-body" tabindex="0" data-testid="stderr-tail"><VisibleText text=t cap=2000 /></pre>
                })}
                <h5>"Line written to stdin of " <code><VisibleText text=command cap=80 /></code></h5>
                <pre class="raw-body" tabindex="0"><VisibleText text=line_written cap=2000 /></pre>
            </details>
        }.into_any(),
        WireView::Http { status, elapsed, body_end, response_headers, body, method, url, request_headers, request_body, curl } => view! {
            <details class="raw">
                <summary>"HTTP details: status, headers, raw body, request, timing"</summary>
                <p>{status} " · " {elapsed} " · body " {body_end}</p>
                <p class="help">"Seen from a browser: response headers the server does not expose through CORS are invisible here, not necessarily absent."</p>
                <h5>"Response headers"</h5>
                <ul class="headers">{response_headers.into_iter().map(|(k, val)| view! { <li><code>{k}</code>": " <VisibleText text=val cap=256 /></li> }).collect_view()}</ul>
                <h5>"Raw body"</h5>
                <pre class="raw-body" tabindex="0"><VisibleText text=body cap=2000 /></pre>
                <h5>"Request sent"</h5>
                <p><code>{method}" "</code><VisibleText text=url cap=512 /></p>
                <ul class="headers" data-testid="request-headers">{request_headers.into_iter().map(|(k, val)| view! { <li><code>{k}</code>": " {val}</li> }).collect_view()}</ul>
                <pre class="raw-body" tabindex="0"><VisibleText text=request_body cap=2000 /></pre>
            </details>
            <div class="card-actions">
                <CopyButton label="Copy as curl" text=curl testid="copy-curl" />
            </div>
        }.into_any(),
    }
}
