//! The app's state: a few signals, and the run that drives the core engine through `net`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::StreamExt;
use futures::channel::mpsc;
use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_triage::Limits;
use mcp_triage::cause::RunEnd;
use mcp_triage::cors::{self, Diagnosis};
use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::{
    ConsentPolicy, Engine, EngineConfig, Mode, PlannedProbe, Progress, RunPhase, RunReport, Step,
};
use mcp_triage::exchange::Exchange;
use mcp_triage::plan_file::PlanEntry;

use crate::net::{self, Credentials, FlightEvent, Flights};
use crate::state::form::{FormValues, run_config};

/// Whether this build carries what a Quick check never runs: the OAuth doctor and sign-in,
/// comparing runs, pasted recordings and the examples, Review first and the exports. Off only in
/// the `quick-floor` build, which no page ships: `scripts/app-module-table.mjs --floor` measures
/// it, the size of a module a Quick check alone would need (where a split would start).
pub const EXTRAS: bool = !cfg!(feature = "quick-floor");

/// Where the user is: the form before a run, or a run where the engine says it is
/// ([`Engine::phase`]); a report made from recorded exchanges (an example, a paste) is a run that
/// ended as `recorded`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The form, before a run.
    Form,
    /// A run, where the engine says it is.
    Run(RunPhase),
}

impl Phase {
    /// Results are shown in full: the run ended (a recorded report included).
    pub fn shows_results(self) -> bool {
        matches!(self, Phase::Run(RunPhase::Ended(_)))
    }
}

/// Where a sign-in stands, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInStatus {
    /// Under way: what it is doing.
    Working(String),
    /// Stopped: why.
    Stopped(String),
    /// Signed in: what the core says of it; the token is in the form.
    SignedIn(String),
}

/// Everything the UI reads.
#[derive(Clone, Copy)]
pub struct AppState {
    /// Where the user is.
    pub phase: RwSignal<Phase>,
    /// Where each request stands, in send order (the engine's [`Engine::progress`]).
    pub steps: RwSignal<Vec<(Step, Progress)>>,
    /// The plan, for Review first.
    pub plan: RwSignal<Option<[PlannedProbe; 4]>>,
    /// A token the results asked the form to run again with ("use the demo token").
    pub rerun_with_token: RwSignal<Option<String>>,
    /// The consent step's rows (Quick check on tools that are not declared read-only).
    pub consent: RwSignal<Vec<mcp_triage::engine::ConsentRow>>,
    /// The catalogue with risks, for Review first.
    pub tools: RwSignal<Vec<(String, mcp_triage::ToolRisk)>>,
    /// The report (also while running: it grows).
    pub report: RwSignal<Option<RunReport>>,
    /// The CORS doctor's finding.
    pub diagnosis: RwSignal<Option<Diagnosis>>,
    /// The ordered log of run events (Cancel's effect is asserted from it).
    pub log: RwSignal<Vec<String>>,
    /// The endpoint the run targets.
    pub endpoint: RwSignal<Option<Endpoint>>,
    /// Names of extra secret headers (for curl).
    pub secret_header_names: RwSignal<Vec<String>>,
    /// Where shown results came from, when they are not a live run.
    pub source: RwSignal<Option<String>>,
    /// The sign-in check: where it is while it runs, or why it did not run.
    pub auth_status: RwSignal<Option<String>>,
    /// A sign-in check is under way (a second click waits for it).
    auth_running: RwSignal<bool>,
    /// The sign-in check's machine once it has ended (the sign-in starts from what it found).
    pub(super) doctor: StoredValue<Option<Rc<mcp_triage::auth::AuthDoctor>>, LocalStorage>,
    /// Where a sign-in stands.
    pub sign_in_status: RwSignal<Option<SignInStatus>>,
    run: StoredValue<Option<Run>, LocalStorage>,
}

#[derive(Clone)]
struct Run {
    engine: Rc<RefCell<Engine>>,
    creds: Credentials,
    flights: Flights,
    limits: Limits,
    /// The connect requests the boot page sent at the click, taken by the first poll.
    handed: Rc<RefCell<Option<Vec<Option<net::InFlight>>>>>,
    /// When the boot page sent it: the first poll starts the run's clock there.
    started_at: Rc<Cell<Option<f64>>>,
    /// The loop that drives the run, while it is alive: what it reads (an answer, or `None` to
    /// poll again). The consent step is shown while the transport checks are in flight, and
    /// the answer wakes the loop that still reads them.
    wake: Rc<RefCell<Option<Wake>>>,
}

/// What a run's loop reads: a request's answer, or `None` to poll again.
type Wake = mpsc::UnboundedSender<Option<(Step, Exchange)>>;

/// Forgets the loop's sender when the loop ends, however it ends.
struct LoopAlive(Rc<RefCell<Option<Wake>>>);

impl Drop for LoopAlive {
    fn drop(&mut self) {
        self.0.borrow_mut().take();
    }
}

impl Run {
    /// Polls again in the live loop; false when no loop is alive.
    fn wake(&self) -> bool {
        self.wake
            .borrow()
            .as_ref()
            .is_some_and(|tx| tx.unbounded_send(None).is_ok())
    }
}

impl AppState {
    /// Fresh state.
    pub fn new() -> AppState {
        AppState {
            phase: RwSignal::new(Phase::Form),
            steps: RwSignal::new(Vec::new()),
            plan: RwSignal::new(None),
            consent: RwSignal::new(Vec::new()),
            rerun_with_token: RwSignal::new(None),
            tools: RwSignal::new(Vec::new()),
            report: RwSignal::new(None),
            diagnosis: RwSignal::new(None),
            log: RwSignal::new(Vec::new()),
            endpoint: RwSignal::new(None),
            secret_header_names: RwSignal::new(Vec::new()),
            source: RwSignal::new(None),
            auth_status: RwSignal::new(None),
            auth_running: RwSignal::new(false),
            doctor: StoredValue::new_local(None),
            sign_in_status: RwSignal::new(None),
            run: StoredValue::new_local(None),
        }
    }

    fn say(&self, line: impl Into<String>) {
        let line = line.into();
        self.log.update(|l| l.push(line));
    }

    /// Shows where the run is, as the engine says.
    fn show_phase(&self, engine: &Engine) {
        self.phase.set(Phase::Run(engine.phase()));
    }

    /// Shows the engine's progress list.
    fn show_progress(&self, engine: &Engine) {
        self.steps.set(engine.progress());
    }

    /// Whether the sign-in check may start: a live run that ended and got a 401 (the core says).
    pub fn can_check_sign_in(&self) -> bool {
        let (Some(endpoint), true) = (self.endpoint.get(), self.run.with_value(Option::is_some))
        else {
            return false;
        };
        self.phase.get().shows_results()
            && self.report.with(|r| {
                r.as_ref()
                    .is_some_and(|r| r.auth_doctor(&endpoint, Default::default(), None).is_ok())
            })
    }

    /// Runs the core's OAuth doctor on the user's click, after the run: each fetch the doctor asks
    /// for goes through the page's network code without the token (SECURITY.md rule 11), each
    /// question of the CORS doctor through its token-free requests; the report then carries the
    /// doctor's cards (the results, the exports and the share link show them).
    pub fn check_sign_in(&self) {
        let (Some(endpoint), Some(run)) = (self.endpoint.get_untracked(), self.run.get_value())
        else {
            return;
        };
        if self.auth_running.get_untracked() {
            return;
        }
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        let doctor = self.report.with_untracked(|r| {
            r.as_ref()
                .map(|r| r.auth_doctor(&endpoint, run.creds.secrets(), Some(&origin)))
        });
        let mut doctor = match doctor {
            Some(Ok(d)) => d,
            Some(Err(why)) => return self.auth_status.set(Some(why.to_string())),
            None => return,
        };
        self.auth_running.set(true);
        let state = *self;
        spawn_local(async move {
            // Never the run's token or extra headers: the doctor's requests carry none.
            let nothing = Credentials::default();
            loop {
                if let Some(out) = doctor.next_fetch() {
                    state.auth_status.set(Some(format!(
                        "Checking sign-in setup: {}…",
                        out.step.title()
                    )));
                    let ex = net::send(&out, &nothing, &run.limits, &run.flights, &|_| {}, &|_| {})
                        .await;
                    doctor.answer(ex);
                } else if let Some((url, question)) = doctor.next_cors_check() {
                    let outcome = net::diagnostic(&url, &question, &run.limits, &run.flights).await;
                    doctor.answer_cors(outcome);
                } else {
                    break;
                }
            }
            state.auth_running.set(false);
            // Only into the run it started from (a new run replaced it: nothing to add).
            let same = state.run.with_value(|r| {
                r.as_ref()
                    .is_some_and(|r| Rc::ptr_eq(&r.engine, &run.engine))
            });
            if same {
                // The machine first: the results re-render on the report and offer the sign-in.
                let auth = doctor.report();
                state.doctor.set_value(Some(Rc::new(doctor)));
                state.report.update(|r| {
                    if let Some(r) = r {
                        r.auth = Some(auth);
                    }
                });
                state.auth_status.set(None);
                state.say("sign-in check ended");
            }
        });
    }

    /// Shows a report made from recorded exchanges (an example or a pasted capture).
    pub fn show_recorded(&self, report: RunReport, endpoint: &str, source: String) {
        if let Some(run) = self.run.get_value() {
            run.engine.borrow_mut().cancel();
            run.flights.abort_all();
        }
        self.run.set_value(None);
        self.steps.set(Vec::new());
        self.diagnosis.set(None);
        self.log.set(Vec::new());
        self.secret_header_names.set(Vec::new());
        self.endpoint.set(
            Endpoint::recorded_stdio(endpoint)
                .or_else(|| crate::net::parse_endpoint(endpoint).ok()),
        );
        self.source.set(Some(source));
        self.report.set(Some(report));
        self.phase
            .set(Phase::Run(RunPhase::Ended(RunEnd::Recorded)));
        focus_results();
    }

    /// The secrets of the current run (for the share link's second redaction pass).
    pub fn secrets(&self) -> mcp_triage::redact::Secrets {
        self.run
            .get_value()
            .map(|r| r.creds.secrets())
            .unwrap_or_default()
    }

    /// True while a run is under way (the form's buttons are off).
    pub fn busy(&self) -> bool {
        matches!(self.phase.get(), Phase::Run(p) if p.under_way())
    }

    /// Starts a run with the form's values and a random seed; does nothing when they do not pass
    /// the form's checks. `handed` is the first wave the boot page sent already (in the order the
    /// engine's first poll gives it).
    pub fn start_form(
        &self,
        mode: Mode,
        form: &FormValues,
        random: u64,
        handed: Vec<Option<net::InFlight>>,
        started_at: Option<f64>,
    ) {
        if let Some((ep, cfg, creds)) = run_config(mode, form, random) {
            self.start(ep, cfg, creds, handed, started_at);
        } else {
            for flight in handed.into_iter().flatten() {
                flight.abort();
            }
        }
    }

    /// Starts a run.
    pub fn start(
        &self,
        endpoint: Endpoint,
        cfg: EngineConfig,
        creds: Credentials,
        handed: Vec<Option<net::InFlight>>,
        started_at: Option<f64>,
    ) {
        self.steps.set(Vec::new());
        self.plan.set(None);
        self.consent.set(Vec::new());
        self.report.set(None);
        self.diagnosis.set(None);
        self.log.set(Vec::new());
        self.secret_header_names.set(creds.header_names());
        self.source.set(None);
        self.auth_status.set(None);
        self.doctor.set_value(None);
        self.sign_in_status.set(None);
        self.endpoint.set(Some(endpoint));
        let limits = cfg.limits.clone();
        let run = Run {
            engine: Rc::new(RefCell::new(Engine::new(cfg))),
            creds,
            flights: Flights::default(),
            limits,
            handed: Rc::new(RefCell::new(Some(handed))),
            started_at: Rc::new(Cell::new(started_at)),
            wake: Rc::new(RefCell::new(None)),
        };
        self.run.set_value(Some(run.clone()));
        self.show_phase(&run.engine.borrow());
        self.say("run started");
        let state = *self;
        spawn_local(async move { state.drive(run).await });
    }

    /// Applies the review form's rows (a person's: [`ConsentPolicy::Person`]) and continues.
    pub fn continue_after_review(&self, rows: &[PlanEntry]) -> Result<(), String> {
        let Some(run) = self.run.get_value() else {
            return Err("no run to continue".into());
        };
        run.engine
            .borrow_mut()
            .apply_plan(ConsentPolicy::Person, rows)?;
        self.show_phase(&run.engine.borrow());
        self.say("plan confirmed");
        let state = *self;
        spawn_local(async move { state.drive(run).await });
        Ok(())
    }

    /// Review first's note under a typed tool name that `tools/list` did not list (the core's rule).
    pub fn unlisted_tool_note(&self, tool: &str) -> Option<&'static str> {
        self.run
            .get_value()
            .and_then(|run| run.engine.borrow().unlisted_tool_note(tool))
    }

    /// Why calling `tool` needs the user's opt-in, or `None` when it may be called without (the
    /// core's one rule: declared read-only, or certainly not a tool of the server).
    pub fn needs_opt_in(&self, tool: &str) -> Option<&'static str> {
        self.run
            .get_value()
            .and_then(|run| run.engine.borrow().needs_opt_in(tool))
    }

    /// The consent step's answer: "Run with these" (`true`) or "Only probe A" (`false`).
    pub fn answer_consent(&self, run_them: bool) {
        let Some(run) = self.run.get_value() else {
            return;
        };
        run.engine.borrow_mut().answer_consent(run_them);
        self.show_phase(&run.engine.borrow());
        self.say(if run_them {
            "you agreed: B, C and D run with the proposed tools"
        } else {
            "only probe A: the proposals were not called"
        });
        if !run.wake() {
            let state = *self;
            spawn_local(async move { state.drive(run).await });
        }
    }

    /// The moving run's time limit, in seconds, and what the page says of it.
    pub fn run_clock(&self) -> Option<(u64, String)> {
        let run = self.run.get_value()?;
        Some((run.limits.run_total_ms / 1_000, run.limits.run_clock_line()))
    }

    /// Cancels: nothing more is sent, and every request in flight is aborted.
    pub fn cancel(&self) {
        let Some(run) = self.run.get_value() else {
            return;
        };
        self.say("cancel requested");
        run.engine.borrow_mut().cancel();
        let n = run.flights.abort_all();
        self.say(format!("aborted {n} request(s) in flight"));
        // A loop still reading the transport checks ends the run itself once they are back.
        if matches!(self.phase.get_untracked(), Phase::Run(p) if p.waits_for_consent())
            && run.wake.borrow().is_none()
        {
            self.report.set(Some(run.engine.borrow().report()));
            self.show_phase(&run.engine.borrow());
            self.say("run cancelled");
        }
    }

    /// True while `run` is the current run (a reset or an example replaces it).
    fn is_current(&self, run: &Run) -> bool {
        self.run
            .get_value()
            .is_some_and(|r| Rc::ptr_eq(&r.engine, &run.engine))
    }

    async fn drive(self, run: Run) {
        let (tx, mut rx) = mpsc::unbounded::<Option<(Step, Exchange)>>();
        *run.wake.borrow_mut() = Some(tx.clone());
        let alive = LoopAlive(run.wake.clone());
        loop {
            if !self.is_current(&run) {
                return;
            }
            let now = run.started_at.take().unwrap_or_else(net::now_ms);
            let poll = run.engine.borrow_mut().poll(now);
            if poll.abort_all {
                let n = run.flights.abort_all();
                self.say(format!("run deadline passed: aborted {n} request(s)"));
            }
            let mut handed = run
                .handed
                .borrow_mut()
                .take()
                .unwrap_or_default()
                .into_iter();
            for out in poll.send {
                let (run2, tx2, state) = (run.clone(), tx.clone(), self);
                // A request the boot page sent already is read, not sent again (when it is the
                // request the engine asks for: otherwise it is let go of).
                let flight = match handed.next().flatten() {
                    Some(f) if f.is(&out) => Some(f),
                    Some(f) => {
                        f.abort();
                        None
                    }
                    None => None,
                };
                spawn_local(async move {
                    let step = out.step;
                    let on_event = |e: FlightEvent| {
                        if e == FlightEvent::Headers {
                            run2.engine.borrow_mut().headers_arrived(step);
                            state.show_progress(&run2.engine.borrow());
                        }
                    };
                    let on_server_request = |request: serde_json::Value| {
                        let reply = run2.engine.borrow_mut().reply(&request);
                        if let Some(reply) = reply {
                            let (run3, tx3) = (run2.clone(), tx2.clone());
                            state.say(format!(
                                "answered a server request ({})",
                                reply.step.label()
                            ));
                            spawn_local(async move {
                                let ex = net::send(
                                    &reply,
                                    &run3.creds,
                                    &run3.limits,
                                    &run3.flights,
                                    &|_| {},
                                    &|_| {},
                                )
                                .await;
                                let _ = tx3.unbounded_send(Some((reply.step, ex)));
                            });
                        }
                    };
                    let ex = match flight {
                        Some(flight) => {
                            net::finish(
                                &out,
                                &run2.creds,
                                flight,
                                &run2.limits,
                                &run2.flights,
                                &on_event,
                                &on_server_request,
                            )
                            .await
                        }
                        None => {
                            net::send(
                                &out,
                                &run2.creds,
                                &run2.limits,
                                &run2.flights,
                                &on_event,
                                &on_server_request,
                            )
                            .await
                        }
                    };
                    let _ = tx2.unbounded_send(Some((step, ex)));
                });
            }
            for extra in handed.flatten() {
                extra.abort();
            }
            self.show_progress(&run.engine.borrow());
            if poll.done {
                break;
            }
            let phase = run.engine.borrow().phase();
            // The consent step, as soon as the core asks (the transport checks may go on).
            if phase == RunPhase::Consent
                && self.phase.get_untracked() != Phase::Run(RunPhase::Consent)
            {
                self.consent.set(run.engine.borrow().consent_rows());
                self.show_phase(&run.engine.borrow());
                self.say("waiting for your OK on the proposed tools");
                focus_heading("consent-heading");
            }
            if run.engine.borrow().in_flight() == 0 {
                match phase {
                    RunPhase::Review => {
                        self.plan.set(Some(run.engine.borrow().plan().clone()));
                        self.tools.set(run.engine.borrow().report().tools);
                        self.report.set(Some(run.engine.borrow().report()));
                        self.show_phase(&run.engine.borrow());
                        self.say("waiting for your review");
                        focus_heading("plan-heading");
                        return;
                    }
                    RunPhase::Consent => return,
                    _ => break,
                }
            }
            if self.phase.get_untracked() == Phase::Run(RunPhase::Connecting)
                && run.engine.borrow().phase() == RunPhase::Running
            {
                self.show_phase(&run.engine.borrow());
            }
            // Wake for the next answer, or for the engine's own deadline, whichever comes first.
            let wake_at = run.engine.borrow().poll_timeout();
            let next = match wake_at {
                Some(at) => {
                    let answer = rx.next();
                    let wake = Box::pin(net::sleep_until(at));
                    match futures::future::select(answer, wake).await {
                        futures::future::Either::Left((answer, _)) => answer,
                        futures::future::Either::Right(_) => continue,
                    }
                }
                None => rx.next().await,
            };
            let Some(next) = next else {
                break;
            };
            let Some((step, ex)) = next else {
                continue;
            };
            if !self.is_current(&run) {
                return;
            }
            let kept = ex
                .response
                .as_ref()
                .map(|r| r.body.as_ref().map_or(0, String::len));
            // Redacting the answer, judging it and drawing its card: three tasks, so that a 4 MiB
            // answer never holds the page for long.
            let read = run.engine.borrow().read(step, ex);
            net::next_task().await;
            if !self.is_current(&run) {
                return;
            }
            run.engine.borrow_mut().handle_read(read);
            net::next_task().await;
            if !self.is_current(&run) {
                return;
            }
            match (run.engine.borrow().progress_of(step), kept) {
                (Progress::Aborted, _) => self.say(format!("{} ended: aborted", step.label())),
                (_, Some(kept)) => self.say(format!(
                    "{}: response read ({kept} bytes kept)",
                    step.label()
                )),
                _ => {}
            }
            self.show_progress(&run.engine.borrow());
            self.report.set(Some(run.engine.borrow().report()));
            // One answer a task: answers that arrived together (a wave's three 4 MiB bodies) are
            // each read and drawn in tasks of their own.
            net::next_task().await;
        }
        drop(alive);
        if !self.is_current(&run) {
            return;
        }
        let report = run.engine.borrow().report();
        let cancelled = report.ended == Some(RunEnd::Cancelled);
        self.report.set(Some(report.clone()));
        if let Some(call) = report.cors_doctor() {
            self.say("a request got no readable response: running the CORS doctor");
            self.run_doctor(&run, &call).await;
        }
        self.show_phase(&run.engine.borrow());
        self.say(if cancelled {
            "run cancelled"
        } else {
            "run finished"
        });
        focus_results();
    }

    async fn run_doctor(&self, run: &Run, call: &cors::DoctorCall) {
        let Some(endpoint) = self.endpoint.get_untracked() else {
            return;
        };
        let mut doctor = cors::Doctor::new(call.modern, &run.creds.all_header_names());
        while let Some(req) = doctor.next_request().cloned() {
            let outcome = net::diagnostic(&endpoint.url, &req, &run.limits, &run.flights).await;
            doctor.record(outcome);
        }
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        self.diagnosis
            .set(doctor.diagnosis_of_run(&origin, &endpoint, call));
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new()
    }
}

/// Moves focus (and the view) to the results heading once it is rendered.
fn focus_results() {
    focus_heading("results-heading");
}

/// Moves focus to a heading once it is drawn (a heading, never a button: a repeated Enter from
/// the form must not press anything). After the frame, so the focus does not force the layout of
/// what was just rendered inside the same task.
pub(crate) fn focus_heading(id: &'static str) {
    use wasm_bindgen::JsCast;
    net::after_next_frame(move || {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
            // At the top of the view: what follows a heading is what the reader came for.
            el.scroll_into_view();
        }
    });
}
