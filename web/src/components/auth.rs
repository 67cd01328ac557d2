//! The OAuth doctor's cards, from the core's [`AuthView`]: per place the sign-in looks, the URL (as
//! text, never a link), what happened, whether CORS let this page through, the findings with their
//! rules, and the document. A live run and a shared link render through these functions.

use leptos::prelude::*;
use mcp_triage::view::{AuthCardView, AuthView};

use super::badge::badge;
use super::markup::{El, el, render};

/// The section: the revision judged, what a page-based client meets, then the cards, each made by
/// `card_view` (the page adds what went over the wire; a link has none).
pub fn auth_section(auth: AuthView, card_view: impl Fn(AuthCardView) -> AnyView) -> AnyView {
    let cards: Vec<AnyView> = auth.cards.into_iter().map(card_view).collect();
    let head = el("section")
        .class("auth")
        .testid("auth")
        .named("Sign-in setup")
        .child(el("h3").class("section").text("Sign-in setup"))
        .child(
            el("p")
                .class("help")
                .testid("auth-heading")
                .text(auth.heading),
        )
        .child_if((!auth.browser.is_empty()).then(|| {
            el("p")
                .class("auth-browser")
                .testid("auth-browser")
                .shown(auth.browser, 1024)
        }));
    render(
        head.into(),
        Some(view! { <div class="cards">{cards}</div> }.into_any()),
    )
}

/// One card; `extra` goes inside it, last.
pub fn auth_card(c: AuthCardView, extra: Option<AnyView>) -> AnyView {
    render(card(c).into(), extra)
}

fn card(c: AuthCardView) -> El {
    el("article")
        .class("card auth-card")
        .testid(c.id)
        .child(
            el("header")
                .class("card-head")
                .child(el("h3").text(c.title))
                .child_if(c.browser.as_ref().map(|b| badge(b.access.clone(), "cors"))),
        )
        .child_if(
            c.url
                .map(|u| el("p").class("meta").child(el("code").shown(u, 600))),
        )
        .child(el("p").testid("auth-outcome").shown(c.outcome, 512))
        .child_if(c.browser.map(|b| {
            el("p")
                .class("cors-detail")
                .testid("cors-detail")
                .shown(b.detail, 600)
        }))
        .child_if((!c.findings.is_empty()).then(|| {
            el("ul")
                .class("findings")
                .children(c.findings.into_iter().map(|f| {
                    el("li")
                        .testid("auth-finding")
                        .data_id(f.check.id.clone())
                        .child(badge(f.conformance, "verdict"))
                        .text(match &f.level {
                            Some(l) => format!(" ({}) ", l.label),
                            None => " ".into(),
                        })
                        .child(el("strong").text(f.check.label))
                        .text(" — ")
                        .shown(f.detail, 512)
                        .child_if(f.elsewhere.map(|e| {
                            el("span")
                                .class("help")
                                .text(format!(" · otherwise in {e}"))
                        }))
                        .child_if(f.rule.map(|r| el("blockquote").class("rule").text(r)))
                        .child_if(
                            f.link
                                .map(|l| el("p").child(el("a").href(l.clone()).text(l))),
                        )
                        .into()
                }))
        }))
        .child_if(c.envelope.map(|env| {
            el("details")
                .class("raw")
                .child(el("summary").text("The document"))
                .child(
                    el("pre")
                        .class("envelope")
                        .testid("envelope")
                        .focusable()
                        .shown(env, 4000),
                )
        }))
}
