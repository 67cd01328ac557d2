//! The results page: the finding on top, one card per probe, transport checks, the CORS doctor, and
//! the ways to take results away.

use leptos::prelude::*;

use mcp_triage::view::{CardView, GridRow, ReportView, SummaryView};

use super::auth::{auth_card, auth_section};
use super::badge::badge;
use super::card::{Card, LiveDetails};
use super::compare::{self, ComparePanel};
use super::diagnosis::DiagnosisCard;
use super::export_bar::ExportBar;
use super::markup::{Node, el, render, text};
use super::share_panel::SharePanel;
use super::signin::SignInBox;
use super::target_form::FormState;
use crate::state::run::{AppState, EXTRAS};

/// The summary block with its grid; `extra` is what only a live page adds (the demo token's
/// button).
pub fn summary(summary: SummaryView, grid: Vec<GridRow>, extra: Option<AnyView>) -> AnyView {
    listen_for_card_clicks();
    render(summary_markup(summary, grid), extra)
}

/// One click listener for the page, installed once: a followed grid link opens its card, brings
/// it into view and focuses it (the address keeps its fragment: a share link lives there), and
/// "Open every card" opens or closes them all. Markup carries no handlers of its own.
fn listen_for_card_clicks() {
    use wasm_bindgen::JsCast;
    thread_local!(static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let on_click = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MouseEvent)>::new(
        |ev: web_sys::MouseEvent| {
            let Some(target) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            if let Some(link) = target.closest("a.to-card").ok().flatten() {
                ev.prevent_default();
                open_card(link.get_attribute("data-id").unwrap_or_default());
            } else if let Some(toggle) = target.closest("[data-id=open-cards]").ok().flatten() {
                let open = toggle.text_content().is_some_and(|t| t.starts_with("Open"));
                set_cards_open(open);
                toggle.set_text_content(Some(if open {
                    "Close every card"
                } else {
                    "Open every card"
                }));
            }
        },
    );
    if let Some(d) = web_sys::window().and_then(|w| w.document()) {
        let _ = d.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    }
    on_click.forget();
}

/// Opens the card with this id, and focuses its line (which brings it into view).
fn open_card(id: String) {
    use wasm_bindgen::JsCast;
    // Cards are named by their test id (`card-A`), which the grid's links carry.
    let Some(card) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(&format!("details[data-testid={id}]"))
            .ok()
            .flatten()
    }) else {
        return;
    };
    let _ = card.set_attribute("open", "");
    if let Some(head) = card
        .query_selector("summary")
        .ok()
        .flatten()
        .and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = head.focus();
    }
}

/// Opens or closes every card of the results.
fn set_cards_open(open: bool) {
    let Some(cards) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector_all("details.card").ok())
    else {
        return;
    };
    for i in 0..cards.length() {
        if let Some(card) = cards
            .item(i)
            .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        {
            let _ = if open {
                card.set_attribute("open", "")
            } else {
                card.remove_attribute("open")
            };
        }
    }
}

/// The grid: a row per answered probe and check, each heading a link to its card.
fn grid_markup(rows: Vec<GridRow>) -> Option<Node> {
    if rows.is_empty() {
        return None;
    }
    let cell = |b: Option<mcp_triage::view::Badge>, kind: &'static str| -> Node {
        el("td")
            .child(match b {
                Some(b) => badge(b, kind),
                None => text("—"),
            })
            .into()
    };
    let head = ["", "channel", "cause", "decided by", "spec", "agent"];
    Some(
        el("div")
            .class("grid-wrap")
            .focusable()
            .child(
                el("table")
                    .class("grid")
                    .testid("grid")
                    .child(
                        el("caption")
                            .class("sr-only")
                            .text("Every answer at a glance"),
                    )
                    .child(
                        el("thead").child(
                            el("tr").children(head.iter().map(|h| el("th").text(*h).into())),
                        ),
                    )
                    .child(el("tbody").children(rows.into_iter().map(|r| {
                        el("tr")
                            .testid("grid-row")
                            .data_id(r.card.clone())
                            // A `th` opening a body row heads that row (its scope is `auto`).
                            .child(el("th").child(el("a").to_card(r.card).text(r.name)))
                            .child(cell(r.channel, "grid-channel"))
                            .child(el("td").text(r.cause.map(|c| c.label).unwrap_or_default()))
                            .child(el("td").text(r.decided_by.map(|c| c.label).unwrap_or_default()))
                            .child(cell(r.spec, "grid-verdict"))
                            .child(el("td").text(r.agent))
                            .into()
                    }))),
            )
            .into(),
    )
}

/// The markup of a summary.
fn summary_markup(summary: SummaryView, grid: Vec<GridRow>) -> Node {
    let server = summary.server_text().to_string();
    el("section")
        .class("summary")
        .testid("summary")
        .named("Summary")
        .child(
            el("p")
                .class("finding")
                .testid("finding")
                .shown(summary.headline, 1000),
        )
        // What to change first, and what next: the core's choice.
        .child_if(summary.fix_first.map(|fix| {
            el("div")
                .class("fix-first")
                .child(el("p").testid("fix-first").child(el("strong").shown(fix.sentence, 1000)))
                .child_if((!fix.then.is_empty()).then(|| {
                    el("ul").children(
                        fix.then
                            .into_iter()
                            .map(|t| el("li").text("then ").shown(t, 1000).into()),
                    )
                }))
        }))
        .child_if(grid_markup(grid))
        // Every card below opens closed, to its one line (the stylesheet floats this to the right
        // of the score).
        .child(
            el("button")
                .class("link-like open-cards")
                .testid("open-cards")
                .data_id("open-cards")
                .text("Open every card"),
        )
        .child(
            el("p")
                .class("score")
                .text(format!("{}: ", summary.score_label))
                .child(el("strong").testid("score").text(summary.score))
                .child(el("span").class("help").text(
                    " (how many of the pairs A–B, A–C, B–C an agent can tell apart without reading prose)",
                )),
        )
        .child(
            el("p")
                .class("meta")
                .text("Endpoint ")
                .child(el("code").shown(summary.endpoint, 512))
                .text(" · server ")
                .shown(server, 200)
                .text(" · protocol ")
                .shown(summary.protocol, 32),
        )
        // The grid has every card's verdict; what it lacks (the origin's, with its reason) is here.
        .child_if(
            summary
                .verdicts
                .iter()
                .any(|v| v.reason.is_some())
                .then(|| {
                    el("ul").class("verdicts").children(
                        summary
                            .verdicts
                            .into_iter()
                            .filter(|v| v.reason.is_some())
                            .map(|v| {
                                el("li")
                                    .child(el("span").class("step").text(v.about))
                                    .text(" ")
                                    .child(badge(v.conformance, "verdict"))
                                    .child_if(v.reason.map(|r| {
                                        el("span").class("help").text(format!(" {r}"))
                                    }))
                                    .into()
                            }),
                    )
                }),
        )
        .children(
            summary
                .warnings
                .into_iter()
                .map(|w| el("p").class("warn").testid("c-not-provoked").text(w).into()),
        )
        .child_if((!summary.notes.is_empty()).then(|| {
            el("ul")
                .class("notes")
                .children(summary.notes.into_iter().map(|n| el("li").shown(n, 512).into()))
        }))
        .into()
}

/// What says how the run went or was seen (the core's footnotes), once, below the cards.
pub(crate) fn footnotes(lines: Vec<String>) -> Option<AnyView> {
    (!lines.is_empty()).then(|| {
        render(
            el("ul")
                .class("notes footnotes")
                .testid("footnotes")
                .children(lines.into_iter().map(|n| el("li").shown(n, 512).into()))
                .into(),
            None,
        )
    })
}

/// A live run's card: the card, with the challenge and the wire only a live run has (moved out
/// of the view, not copied: a wire may hold megabytes of body).
fn live_card(mut card: CardView, check: Callback<()>) -> AnyView {
    let wire = card.wire.take();
    let challenge = card.challenge.take();
    view! {
        <Card card=card>
            <LiveDetails wire=wire challenge=challenge on_check_sign_in=check />
        </Card>
    }
    .into_any()
}

/// While a run goes on (and no consent step waits): each probe's card as soon as its answer is in,
/// in the core's order; the transport checks finish on their own, and [`Results`] takes over when
/// the run ends.
#[component]
pub fn LiveCards() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The records, not their views: a view is built once, when its card first shows.
    let probes = Signal::derive(move || {
        state
            .report
            .with(|r| r.as_ref().map(|r| r.card_groups().probes))
            .unwrap_or_default()
    });
    let names = StoredValue::new(state.secret_header_names.get_untracked());
    let check = Callback::new(move |()| {
        if EXTRAS {
            state.check_sign_in()
        }
    });
    // Keyed by step: a card already shown stays as it is (open details, focus, selection) while
    // the next ones arrive.
    view! {
        <Show when=move || probes.with(|p| !p.is_empty())>
            <section class="results live" data-testid="live-results" aria-label="Results so far">
                <h2>"Results so far"</h2>
                <div class="cards">
                    <For each=move || probes.get() key=|r| r.step.label() let:record>
                        {live_card(names.with_value(|n| CardView::of_record(&record, n)), check)}
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
        let view = ReportView::for_reading(&report, &names);
        let grid = view.grid();
        let notes = footnotes(
            view.summary
                .footnotes
                .iter()
                .cloned()
                .chain(
                    view.summary
                        .rounds
                        .as_ref()
                        .map(|r| format!("The probes ran in {r}.")),
                )
                .collect(),
        );
        // This endpoint is the demo server the page's own demo file names, and it asked for a token.
        let demo_token = use_context::<RwSignal<Option<crate::net::DemoConfig>>>()
            .and_then(|d| d.get_untracked())
            .filter(|d| report.offers_demo_token(&d.endpoint))
            .map(|d| d.token_hint);
        let endpoint = state.endpoint.get();
        let check = Callback::new(move |()| {
            if EXTRAS {
                state.check_sign_in()
            }
        });
        let cards = move |cards: Vec<CardView>| {
            cards
                .into_iter()
                .map(|c| live_card(c, check))
                .collect_view()
        };
        // The doctor's cards, each with what went over the wire.
        let auth = view.auth.map(|a| {
            auth_section(a, move |mut c| {
                let wire = c.wire.take();
                let live =
                    view! { <LiveDetails wire=wire challenge=None on_check_sign_in=check /> };
                auth_card(c, Some(live.into_any()))
            })
        });
        // A 401 whose challenge this page cannot read has no challenge box: the check starts here.
        let has_challenge = [
            &view.connect_failed,
            &view.probes,
            &view.checks,
            &view.connect,
        ]
        .iter()
        .any(|cards| cards.iter().any(|c| c.challenge.is_some()));
        view! {
            <section class="results" data-testid="results" aria-label="Results">
                <h2 id="results-heading" tabindex="-1">"Results"</h2>
                {move || state.source.get().map(|s| view! { <p class="banner" data-testid="source-banner">{s}</p> }.into_any())}
                {summary(view.summary, grid, demo_token.map(|t| view! {
                    <p><button type="button" class="primary" data-testid="use-demo-token"
                        on:click=move |_| state.rerun_with_token.set(Some(t.clone()))>"Use the demo token and run again"</button></p>
                }.into_any()))}
                {move || state.diagnosis.get().map(|d| view! { <DiagnosisCard diagnosis=d /> }.into_any())}
                {(!view.connect_failed.is_empty()).then(|| view! {
                    <h3 class="section">"Connection"</h3>
                    <div class="cards">{cards(view.connect_failed)}</div>
                })}
                <h3 class="section">"Probes"</h3>
                <div class="cards">{cards(view.probes)}</div>
                <h3 class="section">"Transport checks"</h3>
                <div class="cards">{cards(view.checks)}</div>
                {notes}
                {move || (EXTRAS && !has_challenge && state.can_check_sign_in()).then(|| view! {
                    <p><button type="button" data-testid="check-sign-in" on:click=move |_| state.check_sign_in()>
                        "Check sign-in setup (without the token)"</button></p>
                })}
                {move || state.auth_status.get().map(|s| view! {
                    <p class="banner" role="status" data-testid="auth-status">{s}</p>
                })}
                {auth}
                {move || (EXTRAS && state.can_sign_in()).then(|| {
                    let form = use_context::<FormState>();
                    let values = Callback::new(move |()| form.map(|f| f.values()).unwrap_or_default());
                    view! { <SignInBox values=values /> }
                })}
                <details class="connect">
                    <summary>"Connection exchanges (initialize, tools/list, …)"</summary>
                    <div class="cards">{cards(view.connect)}</div>
                </details>
                {endpoint.map(|ep| {
                    let export = EXTRAS
                        .then(|| view! { <ExportBar report=report.clone() endpoint=ep.clone() /> });
                    let comparing = EXTRAS.then(|| {
                        let (report, ep, secrets) = (report.clone(), ep.clone(), state.secrets());
                        let current = Callback::new(move |()| this_run(&report, &ep, &secrets));
                        view! { <ComparePanel current=current with=compare::FULL /> }
                    });
                    view! {
                        {export}
                        <SharePanel report=report.clone() endpoint=ep />
                        {comparing}
                    }.into_any()
                })}
            </section>
        }.into_any()
        .into_any()
    }
}

/// The run on screen as a link holds it (what a comparison reads): origin only, redacted twice.
fn this_run(
    report: &mcp_triage::engine::RunReport,
    ep: &mcp_triage::endpoint::Endpoint,
    secrets: &mcp_triage::redact::Secrets,
) -> mcp_triage::share::Share {
    let date = js_sys::Date::new_0()
        .to_iso_string()
        .as_string()
        .unwrap_or_default();
    let built = mcp_triage::share::build(
        report,
        ep,
        mcp_triage::share::BuildOptions::default(),
        secrets,
        &date,
        env!("CARGO_PKG_VERSION"),
    );
    mcp_triage::share::redact_payload(&built.payload, secrets)
}
