//! The app shell: header, the target form, then the plan, progress and results of a run.
//!
//! The app module is loaded on demand: the boot page (`boot.rs`) shows the form first and hands
//! its values over ([`Handoff`]) when a click needs the app. A share link loads the share module
//! alone ([`SharedPage`]).

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::components::compare::{self, ComparePanel};
use crate::components::consent::ConsentStep;
use crate::components::examples::Examples;
use crate::components::paste::Paste;
use crate::components::plan_review::PlanReview;
use crate::components::results::{LiveCards, Results};
use crate::components::run_progress::RunProgress;
use crate::components::shared_view::SharedView;
use crate::components::signin::SignInStatusLine;
use crate::components::target_form::{FormState, TargetForm};
use crate::net::{self, DemoConfig};
use crate::pages::boot::Handoff;
use crate::pages::chrome::{
    NO_SERVER_SUMMARY, OWN_FORM, SiteFooter, SiteHeader, location_hash, reload_on_share_link,
    replace_fragment,
};
use crate::state::form::{FormValues, random_seed};
use crate::state::run::{AppState, EXTRAS, Phase};
use crate::state::signin;
use mcp_triage::engine::Mode;
use mcp_triage::engine::RunPhase;

/// The app module's page: the tool, with what the boot page handed over (and the requests it
/// sent already).
#[component]
pub fn App(handoff: Option<Handoff>, first_wave: Vec<Option<net::InFlight>>) -> impl IntoView {
    reload_on_share_link();
    let hash = location_hash();
    if EXTRAS && hash.starts_with("#c=") {
        return view! { <ComparePage fragment=hash /> }.into_any();
    }
    view! { <Tool handoff=handoff first_wave=first_wave /> }.into_any()
}

/// Runs opened for comparing (`#c=`): a link with two runs shows their comparison; a shared run
/// (handed over by the share view's "Compare with another run…") waits for the other. Like a
/// share link, it sends no request.
#[component]
fn ComparePage(fragment: String) -> impl IntoView {
    let leave = move |_| {
        if replace_fragment(OWN_FORM)
            && let Some(w) = web_sys::window()
        {
            let _ = w.location().reload();
        }
    };
    let body = match mcp_triage::share::decode(&fragment) {
        Ok(run) => {
            let carried = compare::carried(&run)
                .map(|c| crate::components::markup::render(compare::comparison_markup(&c), None));
            let open = carried.is_none();
            view! {
                <p class="banner" role="note" data-testid="compare-banner">
                    <strong>"Shared results — not verified by this page."</strong>
                    " Nothing was sent to any server to show this."</p>
                {carried}
                <ComparePanel current=Callback::new(move |()| run.clone()) with=compare::FULL open=open />
            }
            .into_any()
        }
        Err(problem) => view! {
            <section class="banner" role="alert" data-testid="damaged-link">
                <h2>"Invalid or damaged link"</h2><p>{problem.message}</p></section>
        }
        .into_any(),
    };
    view! {
        <header class="site-header"><h1>"MCP Triage"</h1></header>
        <main id="main" tabindex="-1">
            <section data-testid="compare-page" aria-label="Compare runs">{body}
                <p><button type="button" class="primary" data-testid="run-own" on:click=leave>
                    "Run against your own endpoint"</button></p>
            </section>
        </main>
    }
}

/// The share module's page: a shared link, read-only, that sends no request at all.
#[component]
pub fn SharedPage() -> impl IntoView {
    reload_on_share_link();
    let shared = mcp_triage::share::decode(&location_hash());
    // "Run against your own endpoint": the page again (the boot page), without the link and
    // without the demo server's offer (`#own`, which the boot page reads and drops).
    let leave = Callback::new(move |_| {
        if replace_fragment(OWN_FORM)
            && let Some(w) = web_sys::window()
        {
            let _ = w.location().reload();
        }
    });
    view! {
        <header class="site-header"><h1>"MCP Triage"</h1></header>
        <main id="main" tabindex="-1"><SharedView shared=shared on_leave=leave /></main>
        <SiteFooter />
    }
}

/// The tool itself: form, plan, progress, results.
#[component]
fn Tool(handoff: Option<Handoff>, first_wave: Vec<Option<net::InFlight>>) -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    // Back from an authorization server: the address loses the callback at once, and the form
    // shows the endpoint the sign-in was for.
    let returned = signin::take_return();
    let Handoff {
        form: handed_form,
        demo: handed_demo,
        start,
        details_open,
        started_at,
    } = handoff.unwrap_or_default();
    let initial = returned
        .as_ref()
        .and_then(signin::Returned::form)
        .unwrap_or(handed_form);
    let form = FormState::new(initial);
    provide_context(form);
    if let Some(back) = returned.filter(|_| EXTRAS) {
        state.finish_sign_in(back, move |token| form.set_token(token));
    }
    let demo: RwSignal<Option<DemoConfig>> = RwSignal::new(handed_demo);
    provide_context(demo);
    // The demo server's offer comes from the boot page (it read demo.json); an opened share link
    // sends no request at all, and "run against your own endpoint" leads to an empty form.
    // What the boot page's click asked for runs as soon as the app is there.
    // The boot page sent the run's connect requests already: the run reads them.
    let first_wave = StoredValue::new_local(first_wave);
    if let Some((mode, values, random)) = start {
        // The mount and the run's start are two tasks: the browser may draw and take input
        // between them (the connect requests are in flight already).
        net::in_next_task(move || {
            let wave = first_wave
                .try_update_value(std::mem::take)
                .unwrap_or_default();
            state.start_form(mode, &values, random, wave, started_at);
        });
    }
    // Esc cancels a run.
    let on_key = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Escape"
                && matches!(state.phase.get_untracked(), Phase::Run(p) if p.under_way())
            {
                state.cancel();
            }
        },
    );
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
    }
    on_key.forget();
    let phase = state.phase;
    let on_start = Callback::new(move |(mode, values): (Mode, FormValues)| {
        state.start_form(mode, &values, random_seed(), Vec::new(), None)
    });
    let run_signed_in = Callback::new(move |()| {
        state.start_form(Mode::Quick, &form.values(), random_seed(), Vec::new(), None)
    });
    view! {
        <SiteHeader />
        <main id="main" tabindex="-1">
            <TargetForm form=form demo=demo busy=Signal::derive(move || state.busy()) on_start=on_start rerun_with_token=state.rerun_with_token />
            {EXTRAS.then(|| view! { <SignInStatusLine run=run_signed_in /> })}
            <details class="no-server" open=details_open>
                <summary id="no-server-summary" data-testid="no-server-summary">{NO_SERVER_SUMMARY}</summary>
                {EXTRAS.then(|| view! { <Examples /> <Paste /> })}
            </details>
            {EXTRAS.then(|| view! {
                <Show when=move || phase.get() == Phase::Run(RunPhase::Review)>
                    <PlanReview />
                </Show>
            })}
            <Show when=move || phase.get() == Phase::Run(RunPhase::Consent)>
                <ConsentStep />
            </Show>
            <Show when=move || !matches!(phase.get(), Phase::Form | Phase::Run(RunPhase::Review)) && !state.steps.get().is_empty()>
                <RunProgress />
            </Show>
            <Show when=move || matches!(phase.get(), Phase::Run(p) if p.is_moving())>
                <LiveCards />
            </Show>
            <Show when=move || phase.get().shows_results()>
                <Results />
            </Show>
        </main>
        <SiteFooter />
    }.into_any()
}

/// Mounts the app module: by itself, or with what the boot page handed over (JSON text) and the
/// requests it sent already (JS objects, see [`net::InFlight::to_js`]).
pub fn mount_app_module(handed_over: Option<&str>, wave: &JsValue) -> Result<(), String> {
    let handoff: Option<Handoff> = match handed_over {
        Some(text) => {
            Some(serde_json::from_str(text).map_err(|e| format!("unreadable handoff: {e}"))?)
        }
        None => None,
    };
    let first_wave: Vec<Option<net::InFlight>> = wave
        .dyn_ref::<js_sys::Array>()
        .map(|a| a.iter().map(|f| net::InFlight::from_js(&f)).collect())
        .unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <App handoff=handoff first_wave=first_wave /> });
    Ok(())
}
