//! The boot page: the one module a visit loads first. It shows the form at once and keeps what is
//! typed; the first touch of the page starts loading the app module, and a click that needs the app
//! (Quick check, Review first, the examples) hands the form's values over to it ([`Handoff`]), in
//! memory, then leaves the page to it. A click that comes before the app is there says so, and a
//! failed load says why and offers a retry.

use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_triage::engine::Mode;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

use crate::components::target_form::{FormState, TargetForm};
use crate::net::{self, DemoConfig};
use crate::pages::chrome::{
    NO_SERVER_SUMMARY, OWN_FORM, SiteFooter, SiteHeader, location_hash, reload_on_share_link,
    replace_fragment,
};
use crate::state::form::{FormValues, random_seed, run_config};
use mcp_triage::engine::Engine;

/// The id of the boot page's root: while it is on the page, the app module waits to be handed over.
const BOOT_ROOT: &str = "boot";

/// `./x dev` serves on loopback; a page on any other host never asks for a demo file.
fn served_from_loopback() -> bool {
    let host = web_sys::window()
        .and_then(|w| w.location().hostname().ok())
        .unwrap_or_default();
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

/// What the boot page hands the app module.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Handoff {
    /// The form's values.
    pub form: FormValues,
    /// The demo server's offer the boot page read (it is not read twice).
    pub demo: Option<DemoConfig>,
    /// The run the click asked for, with the values the form held at the click (the form may have
    /// been edited while the app was loading: what runs is what was submitted) and its seed (the
    /// boot page sent the run's first wave with it).
    pub start: Option<(Mode, FormValues, u64)>,
    /// The examples section is open.
    pub details_open: bool,
    /// When the click sent the run's first wave (the page's clock): the run's deadline counts
    /// from it.
    pub started_at: Option<f64>,
}

/// What a click asked the app for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Want {
    /// A run, with the form's values at the click and its seed.
    Start(Mode, FormValues, u64),
    /// The examples section.
    Examples,
}

/// The requests a click sent before the app module was there.
#[derive(Default)]
struct FirstWave {
    sent: Vec<Option<net::InFlight>>,
    /// Held, never read: dropping them clears the timers (the app arms its own).
    #[allow(dead_code)]
    deadlines: Vec<net::DeadlineGuard>,
    at: Option<f64>,
}

impl FirstWave {
    /// Lets go of every request (a cancel, a failed load, a new click).
    fn abort(self) {
        for flight in self.sent.into_iter().flatten() {
            flight.abort();
        }
    }
}

/// Where the app module stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Load {
    NotAsked,
    Loading,
    Failed(String),
    Loaded,
}

#[derive(Clone, Copy)]
struct Boot {
    form: FormState,
    demo: RwSignal<Option<DemoConfig>>,
    load: RwSignal<Load>,
    want: RwSignal<Option<Want>>,
    module: StoredValue<Option<JsValue>, LocalStorage>,
    /// The connect requests of the run asked for, sent at the click, with the timers that hold
    /// them to the core's deadlines until the app reads them, and when the click came.
    first_wave: StoredValue<FirstWave, LocalStorage>,
}

impl Boot {
    /// Starts loading the app module unless it is loading or loaded.
    fn ensure_loading(self) {
        if matches!(self.load.get_untracked(), Load::Loading | Load::Loaded) {
            return;
        }
        self.load.set(Load::Loading);
        spawn_local(async move {
            match net::load_app_module().await {
                Ok(module) => {
                    self.module.set_value(Some(module));
                    self.load.set(Load::Loaded);
                    if self.want.with_untracked(Option::is_some) {
                        self.hand_over();
                    }
                }
                Err(why) => {
                    // Nothing will read what the click sent: a retry starts the run afresh.
                    self.drop_first_wave();
                    self.load.set(Load::Failed(why));
                }
            }
        });
    }

    fn drop_first_wave(self) {
        if let Some(wave) = self.first_wave.try_update_value(std::mem::take) {
            wave.abort();
        }
    }

    /// Esc while a click waits for the app: the run is off, and so are its requests.
    fn cancel(self) {
        if matches!(self.want.get_untracked(), Some(Want::Start(..))) {
            self.drop_first_wave();
            self.want.set(None);
        }
    }

    /// A click that needs the app: hand over now, or as soon as it is loaded. A run asked for
    /// stays asked for: opening the examples meanwhile does not replace it.
    fn ask(self, want: Want) {
        if !(want == Want::Examples && self.want.with_untracked(Option::is_some)) {
            // A run starts at the click: its connect requests go out now, the app reads the answers.
            if let Want::Start(mode, values, random) = &want {
                self.send_first_wave(*mode, values, *random);
            }
            self.want.set(Some(want));
        }
        if self.load.get_untracked() == Load::Loaded {
            // The app mounts in a task of its own: the click's task only sends.
            net::in_next_task(move || self.hand_over());
        } else {
            self.ensure_loading();
        }
    }

    /// Sends the run's connect requests, the first its engine asks for (the core decides them:
    /// [`Engine::first_requests`]; the app's engine, built from the same values and seed, asks for
    /// the same ones and reads them, and sends the rest of its first wave itself).
    fn send_first_wave(self, mode: Mode, values: &FormValues, random: u64) {
        let Some((_, cfg, creds)) = run_config(mode, values, random) else {
            return;
        };
        let at = net::now_ms();
        let limits = cfg.limits.clone();
        let wave = Engine::first_requests(cfg);
        let sent: Vec<Option<net::InFlight>> = wave
            .iter()
            .map(|out| net::start(out, &creds).ok())
            .collect();
        let deadlines = sent
            .iter()
            .flatten()
            .filter_map(|f| f.deadline_guard(&limits))
            .collect();
        let new = FirstWave {
            sent,
            deadlines,
            at: Some(at),
        };
        if let Some(old) = self
            .first_wave
            .try_update_value(|w| std::mem::replace(w, new))
        {
            old.abort();
        }
    }

    /// Mounts the app with the form's values, then takes the boot page away: its nodes, and the
    /// secrets its signals held.
    fn hand_over(self) {
        let (Some(module), Some(want)) = (self.module.get_value(), self.want.get_untracked())
        else {
            return;
        };
        let details_open = element(BOOT_ROOT)
            .and_then(|root| root.query_selector("details.no-server").ok().flatten())
            .and_then(|d| d.dyn_into::<web_sys::HtmlDetailsElement>().ok())
            .is_some_and(|d| d.open());
        let mut handoff = Handoff {
            form: self.form.values(),
            demo: self.demo.get_untracked(),
            start: match want {
                Want::Start(mode, values, random) => Some((mode, values, random)),
                Want::Examples => None,
            },
            details_open,
            started_at: None,
        };
        let focus = Focus::now();
        let first = self
            .first_wave
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        let wave = js_sys::Array::new();
        for flight in &first.sent {
            wave.push(&flight.as_ref().map_or(JsValue::NULL, |f| f.to_js()));
        }
        handoff.started_at = first.at;
        match mount_app(&module, &handoff, &wave) {
            Ok(()) => {
                if let Some(root) = element(BOOT_ROOT) {
                    root.remove();
                }
                if let Some(focus) = focus {
                    focus.restore();
                }
                self.want.set(None);
                self.form.clear();
            }
            Err(why) => {
                // The app did not take the run: its requests are let go of, a retry starts afresh.
                first.abort();
                self.load.set(Load::Failed(why));
            }
        }
    }
}

fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Where the focus was on the boot page: the element by its test id and its place among those
/// (the app's form numbers its extra-header rows afresh, so ids would not match), and the text
/// selection of an input.
struct Focus {
    testid: String,
    index: u32,
    selection: Option<(u32, u32)>,
}

impl Focus {
    fn now() -> Option<Focus> {
        let active = web_sys::window()?.document()?.active_element()?;
        let root = element(BOOT_ROOT)?;
        if !root.contains(Some(&active)) {
            return None;
        }
        let testid = active.get_attribute("data-testid")?;
        let all = root
            .query_selector_all(&format!("[data-testid='{testid}']"))
            .ok()?;
        let index = (0..all.length()).find(|i| {
            all.item(*i)
                .is_some_and(|n| n.is_same_node(Some(active.as_ref())))
        })?;
        let selection = active
            .dyn_ref::<web_sys::HtmlInputElement>()
            .and_then(|i| Some((i.selection_start().ok()??, i.selection_end().ok()??)));
        Some(Focus {
            testid,
            index,
            selection,
        })
    }

    fn restore(self) {
        let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector_all(&format!("[data-testid='{}']", self.testid))
                    .ok()
            })
            .and_then(|all| all.item(self.index))
            .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let _ = el.focus();
        if let (Some((start, end)), Some(input)) =
            (self.selection, el.dyn_ref::<web_sys::HtmlInputElement>())
        {
            let _ = input.set_selection_range(start, end);
        }
    }
}

/// Calls the app module's `mount_from_boot` with the handoff (serialised in memory) and the
/// requests already in flight.
fn mount_app(module: &JsValue, handoff: &Handoff, wave: &js_sys::Array) -> Result<(), String> {
    let mount = js_sys::Reflect::get(module, &"mount_from_boot".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the app module has no mount_from_boot")?;
    let text = serde_json::to_string(handoff).map_err(|e| e.to_string())?;
    mount
        .call2(&JsValue::NULL, &text.into(), wave)
        .map(|_| ())
        .map_err(|e| {
            e.as_string()
                .unwrap_or_else(|| "the app module did not start".into())
        })
}

/// True while the boot page is on screen (the app module then waits for its handoff).
pub fn present() -> bool {
    element(BOOT_ROOT).is_some()
}

/// Mounts the boot page, then says the page is ready: the form is wired (typing works, and Quick
/// check sends its first requests at once).
pub fn mount() {
    reload_on_share_link();
    leptos::mount::mount_to_body(BootPage);
    if let Some(html) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = html.set_attribute("data-app-ready", "");
    }
}

#[component]
fn BootPage() -> impl IntoView {
    let boot = Boot {
        form: FormState::new(FormValues::default()),
        demo: RwSignal::new(None),
        load: RwSignal::new(Load::NotAsked),
        want: RwSignal::new(None),
        module: StoredValue::new_local(None),
        first_wave: StoredValue::new_local(FirstWave::default()),
    };
    // Left a shared link for "your own endpoint": an empty form, and the URL without the marker.
    let own = location_hash() == OWN_FORM;
    if own {
        replace_fragment("");
    }
    if served_from_loopback() && !own {
        spawn_local(async move {
            if let Some(config) = net::load_demo_config().await {
                boot.demo.set(Some(config));
            }
        });
    }
    let waiting = Signal::derive(move || {
        boot.want.get().is_some() && !matches!(boot.load.get(), Load::Failed(_))
    });
    let on_start = Callback::new(move |(mode, values): (Mode, FormValues)| {
        boot.ask(Want::Start(mode, values, random_seed()))
    });
    let status = move || {
        match (boot.want.get(), boot.load.get()) {
        (Some(_), Load::Failed(why)) => view! {
            <p class="app-load error" role="alert" data-testid="app-load">
                "The checker could not be loaded (" {why} "). If this page was open while the site was updated, reload it. "
                <button type="button" data-testid="app-load-retry" on:click=move |_| boot.ensure_loading()>"Retry"</button>
            </p>
        }
        .into_any(),
        (Some(_), _) => view! {
            <p class="app-load" role="status" data-testid="app-load">"Loading the checker…"</p>
        }
        .into_any(),
        (None, _) => ().into_any(),
    }
    };
    // The first touch of the page (focus, pointer, key) loads the app, so a click rarely waits.
    view! {
        <div id=BOOT_ROOT class="boot" data-testid="boot" on:focusin=move |_| boot.ensure_loading()
            on:pointerdown=move |_| boot.ensure_loading()
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.key() == "Escape" { boot.cancel() } else { boot.ensure_loading() }
            }>
            <SiteHeader />
            <main id="main" tabindex="-1">
                <TargetForm form=boot.form demo=boot.demo busy=waiting on_start=on_start />
                {status}
                <details class="no-server" on:toggle=move |ev| {
                    let open = ev
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                        .is_some_and(|d| d.open());
                    if open {
                        boot.ask(Want::Examples);
                    }
                }>
                    <summary id="no-server-summary" data-testid="no-server-summary">{NO_SERVER_SUMMARY}</summary>
                </details>
            </main>
            <SiteFooter />
        </div>
    }
}
