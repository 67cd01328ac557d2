//! A shared results link, opened: read-only, marked as not verified, and it sends no request. The
//! core turns the link (of any version) into the same views a live run gives; this adds the banner.

use leptos::prelude::*;
use mcp_triage::problem::Problem;
use mcp_triage::share::Share;
use mcp_triage::view::ReportView;

use super::auth::{auth_card, auth_section};
use super::card::Card;
use super::markup::{el, render};
use super::results::{footnotes, summary};

/// The shared results, or the one "invalid or damaged link" view.
#[component]
pub fn SharedView(shared: Result<Share, Problem>, on_leave: Callback<()>) -> impl IntoView {
    let leave = move || {
        view! {
            <button type="button" class="primary" data-testid="run-own" on:click=move |_| on_leave.run(())>
                "Run against your own endpoint"</button>
        }
        .into_any()
    };
    let p = match shared {
        Ok(p) => p,
        Err(problem) => {
            let damaged = el("section")
                .class("banner")
                .testid("damaged-link")
                .alert()
                .child(el("h2").text("Invalid or damaged link"))
                .child(el("p").text(problem.message));
            return render(damaged.into(), Some(leave()));
        }
    };
    // "Compare with another run…": the tool opens this run for comparing (`#c=`, the app module;
    // a share link loads no comparison code).
    let panel = view! {
        <p><button type="button" data-testid="compare-open" on:click=move |_| open_for_comparing()>
            "Compare with another run…"</button></p>
    }
    .into_any();
    let view = ReportView::of_share(&p);
    let grid = view.grid();
    let notes = footnotes(view.summary.footnotes.clone());
    let (date, tool) = view.summary.made.clone().unwrap_or_default();
    let date = date_in_words(&date);
    let banner = el("div")
        .class("banner")
        .note()
        .testid("shared-banner")
        .child(el("strong").text("Shared results — not verified by this page."))
        .text(" Made ")
        .shown(date, 32)
        .text(" with MCP Triage ")
        .shown(tool, 32)
        .text(". Nothing was sent to any server to show this.");
    let cards: Vec<AnyView> = view
        .cards()
        .cloned()
        .map(|c| view! { <Card card=c /> }.into_any())
        .collect();
    // The doctor's cards (v11 links on) go before the button, in a list of views, so the body keeps
    // the one shape it has without them (a tuple of another shape costs the module its own code).
    let mut tail: Vec<AnyView> = view
        .auth
        .map(|a| auth_section(a, |c| auth_card(c, None)))
        .into_iter()
        .collect();
    tail.push(panel);
    tail.push(leave());
    let body = (
        render(banner.into(), None),
        summary(view.summary, grid, None),
        view! { <div class="cards">{cards}</div>{notes}},
        tail.into_any(),
    );
    render(
        el("section")
            .testid("shared-view")
            .named("Shared results")
            .into(),
        Some(body.into_any()),
    )
}

/// This link's run, opened by the tool for comparing with another (`#c=`).
fn open_for_comparing() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let hash = w.location().hash().unwrap_or_default();
    let _ = w
        .location()
        .set_hash(&mcp_triage::share::as_comparison(&hash));
    let _ = w.location().reload();
}

/// A link's ISO 8601 date in the reader's words and locale (`7 December 2026 at 02:09`); as the
/// link gave it when the browser cannot read it as a date.
fn date_in_words(iso: &str) -> String {
    let ms = js_sys::Date::parse(iso);
    if ms.is_nan() {
        return iso.to_string();
    }
    let locale = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_else(|| "en".into());
    let options = js_sys::Object::new();
    for (key, value) in [("dateStyle", "long"), ("timeStyle", "short")] {
        let _ = js_sys::Reflect::set(&options, &key.into(), &value.into());
    }
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    String::from(date.to_locale_string(&locale, &options))
}
