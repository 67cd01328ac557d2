//! The only network code of the app: `fetch` with the safety settings, streamed reading that reports
//! what the browser shows to the core's `RequestReader` (which decides caps, media types, redirects,
//! deadlines and how each request ends), cancellation, the CORS doctor's token-free requests, and
//! the same-origin demo file.
//!
//! Every request: `redirect: "manual"`, `credentials: "omit"`, `referrerPolicy: "no-referrer"`,
//! `cache: "no-store"`, its own AbortController. The token goes only into the `Authorization` header
//! of requests to the endpoint the user typed; what comes back is handed to the core, which redacts it
//! before anything reads or records it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use mcp_triage::Limits;
use mcp_triage::cors::{DiagOutcome, DiagRequest};
use mcp_triage::engine::Outgoing;
use mcp_triage::exchange::{Exchange, Vantage};
use mcp_triage::{Next, ReadEvent, ReadFailure, RequestReader};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStreamDefaultReader, ReferrerPolicy, RequestCache,
    RequestCredentials, RequestInit, RequestMode, RequestRedirect, ResponseType,
};

pub use mcp_triage::redact::Credentials;

/// Set when Cancel (or the run's deadline) let go of a request, so its reader reports a Cancel
/// rather than the failure the abort causes.
type Cancelled = Rc<Cell<bool>>;

/// Every request in flight, so Cancel can abort them all.
#[derive(Clone, Default)]
pub struct Flights {
    inner: Rc<RefCell<Vec<(AbortController, Cancelled)>>>,
}

impl Flights {
    /// Aborts everything in flight; returns how many requests were aborted.
    pub fn abort_all(&self) -> usize {
        let flights = std::mem::take(&mut *self.inner.borrow_mut());
        let n = flights.len();
        for (controller, cancelled) in flights {
            cancelled.set(true);
            controller.abort();
        }
        n
    }

    fn add(&self, c: &AbortController) -> Cancelled {
        let cancelled = Rc::new(Cell::new(false));
        self.inner.borrow_mut().push((c.clone(), cancelled.clone()));
        cancelled
    }

    fn remove(&self, c: &AbortController) {
        self.inner.borrow_mut().retain(|(x, _)| x != c);
    }
}

/// A one-shot timer that aborts a request at a moment the core named; cleared when dropped.
struct Timer {
    id: i32,
    _closure: Closure<dyn FnMut()>,
}

impl Timer {
    /// A timer for the absolute time `at_ms` on [`now_ms`]'s clock.
    fn at(at_ms: f64, controller: &AbortController) -> Option<Timer> {
        let controller = controller.clone();
        let closure = Closure::<dyn FnMut()>::new(move || controller.abort());
        let id = web_sys::window()?
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                timeout_ms(at_ms),
            )
            .ok()?;
        Some(Timer {
            id,
            _closure: closure,
        })
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            w.clear_timeout_with_handle(self.id);
        }
    }
}

/// The delay `setTimeout` needs to fire no sooner than `at_ms` (it counts whole milliseconds).
fn timeout_ms(at_ms: f64) -> i32 {
    (at_ms - now_ms()).ceil().clamp(0.0, i32::MAX as f64) as i32
}

/// A promise that resolves at a moment, and the timeout behind it, cleared when dropped: how a
/// read waits for the core's next moment.
struct Alarm {
    future: JsFuture,
    id: Option<i32>,
}

impl Alarm {
    fn at(at_ms: f64) -> Alarm {
        let mut id = None;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            id = web_sys::window().and_then(|w| {
                w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, timeout_ms(at_ms))
                    .ok()
            });
        });
        Alarm {
            future: JsFuture::from(promise),
            id,
        }
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        if let (Some(w), Some(id)) = (web_sys::window(), self.id) {
            w.clear_timeout_with_handle(id);
        }
    }
}

/// What came first: the promise (its outcome) or the core's moment (`None`).
async fn before(
    promise: &mut JsFuture,
    until_ms: f64,
) -> Option<Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>> {
    let mut alarm = Alarm::at(until_ms);
    match futures::future::select(promise, &mut alarm.future).await {
        futures::future::Either::Left((outcome, _)) => Some(outcome),
        futures::future::Either::Right(_) => None,
    }
}

/// Resolves at `at_ms` on [`now_ms`]'s clock (at once if that has passed): how the run loop wakes
/// for the engine's [`mcp_triage::engine::Engine::poll_timeout`].
pub async fn sleep_until(at_ms: f64) {
    let mut alarm = Alarm::at(at_ms);
    let _ = (&mut alarm.future).await;
}

/// Resolves in a later task (a zero-delay timeout): what lets the browser draw and answer input
/// between two answers that arrived together, instead of reading all of them in one long task.
pub async fn next_task() {
    sleep_until(now_ms()).await;
}

/// Runs `f` in a task of its own (a zero-delay timeout), so that two pieces of work never make
/// one long task that holds input and frames. A page always has a window and a timeout with a
/// function is never refused, so `f` always runs.
pub fn in_next_task(f: impl FnOnce() + 'static) {
    let later = Closure::once_into_js(f);
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 0);
    }
}

/// Runs `f` once the browser has drawn its next frame (an animation frame, then a task): work
/// done then, a focus, finds the layout done instead of forcing it inside the task that changed
/// the page. In a tab that draws no frames (hidden), it waits until the tab draws again.
pub fn after_next_frame(f: impl FnOnce() + 'static) {
    let then = Closure::once_into_js(move || in_next_task(f));
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(then.unchecked_ref());
    }
}

/// Milliseconds since the page loaded (the shell's clock; the core never reads one).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Events the UI can show while a request is in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlightEvent {
    /// Headers arrived; the body (maybe a stream) is being read.
    Headers,
}

fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "fetch failed".into())
}

fn build_init(
    method: &str,
    headers: &Headers,
    body: Option<&str>,
    mode: RequestMode,
    signal: &web_sys::AbortSignal,
) -> RequestInit {
    let init = RequestInit::new();
    init.set_method(method);
    init.set_headers(headers);
    if let Some(b) = body {
        init.set_body(&wasm_bindgen::JsValue::from_str(b));
    }
    init.set_mode(mode);
    init.set_credentials(RequestCredentials::Omit);
    // The Fetch standard refuses no-cors requests unless redirects are followed. Only the CORS doctor's
    // first probe is no-cors: it carries no token and no credentials, and its answer is opaque.
    init.set_redirect(if mode == RequestMode::NoCors {
        RequestRedirect::Follow
    } else {
        RequestRedirect::Manual
    });
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_cache(RequestCache::NoStore);
    init.set_signal(Some(signal));
    init
}

/// A request on its way: its fetch promise, its abort controller and when it was sent. The boot
/// page sends a run's connect requests this way and hands it to the app (see [`InFlight::to_js`]),
/// which reads it with [`finish`] as if it had sent it.
pub struct InFlight {
    promise: js_sys::Promise,
    controller: AbortController,
    started: f64,
    method: String,
    url: String,
    body: Option<String>,
}

impl InFlight {
    /// True when this is the request `out` describes (the app checks what the boot page sent).
    pub fn is(&self, out: &Outgoing) -> bool {
        self.method == out.method && self.url == out.url && self.body == out.body
    }

    /// Lets go of a request nobody will read.
    pub fn abort(&self) {
        self.controller.abort();
    }

    /// Aborts the request at the core's first deadline for it (no headers by then), until the
    /// guard is dropped: the boot page holds one while its first wave waits for the app module.
    pub fn deadline_guard(&self, limits: &Limits) -> Option<DeadlineGuard> {
        Timer::at(
            mcp_triage::head_deadline_ms(self.started, limits),
            &self.controller,
        )
        .map(DeadlineGuard)
    }

    /// The request as a plain JS object, to cross from the boot module to the app module.
    pub fn to_js(&self) -> wasm_bindgen::JsValue {
        let o = js_sys::Object::new();
        let set = |k: &str, v: &wasm_bindgen::JsValue| {
            let _ = Reflect::set(&o, &k.into(), v);
        };
        set("promise", &self.promise);
        set("controller", &self.controller);
        set("started", &self.started.into());
        set("method", &self.method.as_str().into());
        set("url", &self.url.as_str().into());
        set(
            "body",
            &self
                .body
                .as_deref()
                .map_or(wasm_bindgen::JsValue::NULL, Into::into),
        );
        o.into()
    }

    /// Reads what [`InFlight::to_js`] made; `None` for anything else.
    pub fn from_js(value: &wasm_bindgen::JsValue) -> Option<InFlight> {
        let get = |k: &str| Reflect::get(value, &k.into()).ok();
        Some(InFlight {
            promise: get("promise")?.dyn_into().ok()?,
            controller: get("controller")?.dyn_into().ok()?,
            started: get("started")?.as_f64()?,
            method: get("method")?.as_string()?,
            url: get("url")?.as_string()?,
            body: get("body")?.as_string(),
        })
    }
}

/// See [`InFlight::deadline_guard`]: the timer is cleared when this is dropped.
pub struct DeadlineGuard(#[allow(dead_code)] Timer);

thread_local! {
    /// A handler that does nothing, attached to every fetch promise as it is made: a request the
    /// boot page sent waits for the app module to read it, and a refusal in between must not be
    /// an unhandled rejection (the reading side still sees the refusal on the promise itself).
    static IGNORE: Closure<dyn FnMut(wasm_bindgen::JsValue)> = Closure::new(|_| {});
}

/// Sends one request of the plan (the fetch only; [`finish`] reads the answer).
pub fn start(out: &Outgoing, creds: &Credentials) -> Result<InFlight, String> {
    let window = web_sys::window().ok_or("no window")?;
    let headers = Headers::new().map_err(|e| js_error_text(&e))?;
    for (k, v) in &out.headers {
        let _ = headers.append(k, v);
    }
    if out.with_token {
        for (k, v) in creds.request_headers() {
            let _ = headers.append(&k, &v);
        }
    }
    let controller = AbortController::new().map_err(|e| js_error_text(&e))?;
    let started = now_ms();
    let init = build_init(
        out.method,
        &headers,
        out.body.as_deref(),
        RequestMode::Cors,
        &controller.signal(),
    );
    let promise = window.fetch_with_str_and_init(&out.url, &init);
    IGNORE.with(|ignore| {
        let _ = promise.catch(ignore);
    });
    Ok(InFlight {
        promise,
        controller,
        started,
        method: out.method.to_string(),
        url: out.url.clone(),
        body: out.body.clone(),
    })
}

/// Sends one request of the plan and records it as an `mcp-exchange/1` with `vantage: "browser"`,
/// as it came (the engine redacts it in `handle`). Never fails: a rejected fetch becomes an exchange
/// without a response.
pub async fn send(
    out: &Outgoing,
    creds: &Credentials,
    limits: &Limits,
    flights: &Flights,
    on_event: &dyn Fn(FlightEvent),
    on_server_request: &dyn Fn(Value),
) -> Exchange {
    match start(out, creds) {
        Ok(flight) => {
            finish(
                out,
                creds,
                flight,
                limits,
                flights,
                on_event,
                on_server_request,
            )
            .await
        }
        Err(detail) => {
            let now = now_ms();
            let mut reader = RequestReader::new(out, creds, Vantage::Browser, limits, now);
            reader.on(
                now,
                ReadEvent::Failed {
                    kind: ReadFailure::Other,
                    detail,
                },
            );
            reader.finish(now)
        }
    }
}

/// Reads the answer to a request [`start`] sent and records the exchange. What the browser shows
/// goes to the core's reader as it comes (the head, each chunk, a failure, the end, the core's next
/// moment passing, Cancel); the reader says when to let go and how the request ended.
pub async fn finish(
    out: &Outgoing,
    creds: &Credentials,
    flight: InFlight,
    limits: &Limits,
    flights: &Flights,
    on_event: &dyn Fn(FlightEvent),
    on_server_request: &dyn Fn(Value),
) -> Exchange {
    let InFlight {
        promise,
        controller,
        started,
        ..
    } = flight;
    let cancelled = flights.add(&controller);
    let mut reader = RequestReader::new(out, creds, Vantage::Browser, limits, started);
    read(
        &mut reader,
        promise,
        &cancelled,
        on_event,
        on_server_request,
    )
    .await;
    // Letting go: a body read to its end is not affected; anything else stops here.
    controller.abort();
    flights.remove(&controller);
    reader.finish(now_ms())
}

/// A failed promise as the reader hears it: a Cancel when Cancel caused it, else a failure the
/// browser does not name (it never says whether a connection was reset).
fn failed(cancelled: &Cancelled, e: &wasm_bindgen::JsValue) -> ReadEvent<'static> {
    if cancelled.get() {
        ReadEvent::Cancel
    } else {
        ReadEvent::Failed {
            kind: ReadFailure::Other,
            detail: js_error_text(e),
        }
    }
}

/// Feeds `reader` until it says stop (or the stream ends).
async fn read(
    reader: &mut RequestReader,
    promise: js_sys::Promise,
    cancelled: &Cancelled,
    on_event: &dyn Fn(FlightEvent),
    on_server_request: &dyn Fn(Value),
) {
    let mut until = reader.until_ms();
    let mut fetched = JsFuture::from(promise);
    let response: web_sys::Response = loop {
        let event = match before(&mut fetched, until).await {
            None => ReadEvent::Timer,
            Some(Ok(value)) => match value.dyn_into::<web_sys::Response>() {
                Ok(response) => break response,
                Err(_) => ReadEvent::Failed {
                    kind: ReadFailure::Other,
                    detail: "fetch answered with something that is not a Response".into(),
                },
            },
            Some(Err(e)) => failed(cancelled, &e),
        };
        match reader.on(now_ms(), event) {
            Next::ReadOn { until_ms } => until = until_ms,
            Next::Stop => return,
        }
    };
    let head = if response.type_() == ResponseType::Opaqueredirect {
        ReadEvent::OpaqueRedirect
    } else {
        let mut headers: Vec<(String, String)> = Vec::new();
        if let Ok(Some(iter)) = js_sys::try_iter(&response.headers()) {
            for entry in iter.flatten() {
                let pair = js_sys::Array::from(&entry);
                let k = pair.get(0).as_string().unwrap_or_default();
                let v = pair.get(1).as_string().unwrap_or_default();
                // As they came (a browser joins a repeated header with ", "): the core reads the
                // media type and redacts the exchange when it is handed back.
                headers.push((k, v));
            }
        }
        ReadEvent::Head {
            status: response.status(),
            headers,
        }
    };
    let next = reader.on(now_ms(), head);
    if reader.has_head() {
        on_event(FlightEvent::Headers);
    }
    let Next::ReadOn { until_ms } = next else {
        return;
    };
    until = until_ms;
    let Some(stream) = response.body() else {
        reader.on(now_ms(), ReadEvent::End);
        return;
    };
    let Ok(body) = stream
        .get_reader()
        .dyn_into::<ReadableStreamDefaultReader>()
    else {
        reader.on(
            now_ms(),
            ReadEvent::Failed {
                kind: ReadFailure::Other,
                detail: "the body could not be read".into(),
            },
        );
        return;
    };
    let mut pending = JsFuture::from(body.read());
    loop {
        let bytes;
        let event = match before(&mut pending, until).await {
            None => ReadEvent::Timer,
            Some(Err(e)) => failed(cancelled, &e),
            Some(Ok(chunk)) => {
                pending = JsFuture::from(body.read());
                let done = Reflect::get(&chunk, &"done".into())
                    .ok()
                    .and_then(|d| d.as_bool())
                    .unwrap_or(true);
                match Reflect::get(&chunk, &"value".into()) {
                    Ok(value) if !done => {
                        bytes = Uint8Array::new(&value).to_vec();
                        ReadEvent::Chunk(&bytes)
                    }
                    _ => ReadEvent::End,
                }
            }
        };
        let next = reader.on(now_ms(), event);
        for request in reader.take_server_requests() {
            on_server_request(request);
        }
        match next {
            Next::ReadOn { until_ms } => until = until_ms,
            Next::Stop => {
                // Cancelling a stream that already failed rejects: nobody waits for that answer.
                let cancelled = body.cancel();
                IGNORE.with(|ignore| {
                    let _ = cancelled.catch(ignore);
                });
                return;
            }
        }
    }
}

/// Runs one CORS-doctor request (never with the real token).
pub async fn diagnostic(
    url: &str,
    req: &DiagRequest,
    limits: &Limits,
    flights: &Flights,
) -> DiagOutcome {
    let Some(window) = web_sys::window() else {
        return DiagOutcome::Rejected {
            detail: "no window".into(),
        };
    };
    let (Ok(headers), Ok(controller)) = (Headers::new(), AbortController::new()) else {
        return DiagOutcome::Rejected {
            detail: "cannot build request".into(),
        };
    };
    for (k, v) in &req.headers {
        let _ = headers.append(k, v);
    }
    let mode = if req.mode == "no-cors" {
        RequestMode::NoCors
    } else {
        RequestMode::Cors
    };
    flights.add(&controller);
    let _timer = Timer::at(mcp_triage::head_deadline_ms(now_ms(), limits), &controller);
    let init = build_init(
        req.method,
        &headers,
        req.body.as_deref(),
        mode,
        &controller.signal(),
    );
    let result = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await;
    controller.abort();
    flights.remove(&controller);
    match result.map(|r| r.dyn_into::<web_sys::Response>()) {
        Ok(Ok(r)) => DiagOutcome::Answered { status: r.status() },
        Ok(Err(e)) | Err(e) => DiagOutcome::Rejected {
            detail: js_error_text(&e),
        },
    }
}

/// What `demo.json` (written only by the README's first command, next to the app) offers the form.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct DemoConfig {
    /// The demo MCP endpoint.
    pub endpoint: String,
    /// The demo token, shown as a hint (never sent anywhere by itself).
    pub token_hint: String,
    /// What the demo server is, in words.
    pub server: String,
}

/// GETs a same-origin file as text (no credentials, no cache) of at most `max` bytes.
async fn get_same_origin(path: &str, max: usize) -> Option<String> {
    let response = gloo_net::http::Request::get(path)
        .credentials(web_sys::RequestCredentials::Omit)
        .cache(web_sys::RequestCache::NoStore)
        .send()
        .await
        .ok()?;
    if !response.ok() {
        return None;
    }
    let text = response.text().await.ok()?;
    (text.len() <= max).then_some(text)
}

/// The name of the page's client ID metadata document, beside the page (written for an address by
/// `scripts/client-metadata.mjs`; a build without an address has none).
const METADATA_DOCUMENT: &str = "client-metadata.json";

/// The page's client ID metadata document: its absolute URL and its text, or
/// nothing when this build has none (the core's cap on its size).
pub async fn load_metadata_document() -> Option<(String, String)> {
    let href = web_sys::window()?.location().href().ok()?;
    let url = web_sys::Url::new_with_base(METADATA_DOCUMENT, &href)
        .ok()?
        .href();
    let text = get_same_origin(METADATA_DOCUMENT, mcp_triage::auth::MAX_METADATA_DOCUMENT).await?;
    Some((url, text))
}

/// Checks a typed endpoint as the browser will send it: the browser's own URL parser reads it first
/// (`URL`, the parser `fetch` uses) and the core's rules apply to that reading.
pub fn parse_endpoint(
    typed: &str,
) -> Result<mcp_triage::endpoint::Endpoint, mcp_triage::endpoint::EndpointProblem> {
    mcp_triage::endpoint::parse_endpoint_with(typed, read_url)
}

/// A URL as the browser reads it (`URL`'s serialisation), or `None` when it refuses it.
pub fn read_url(typed: &str) -> Option<String> {
    web_sys::Url::new(typed).ok().map(|u| u.href())
}

/// Reads `demo.json` with the browser's own JSON parser: an object of exactly the three string
/// fields, or nothing. This is the boot page's only JSON reading, and serde_json's reader would
/// add ≈ 9 KB to every visit's gzip bytes. Unlike serde, a repeated key keeps its last value and a
/// lone surrogate escape is read lossily: the file is ours, and its endpoint must still be a
/// loopback URL.
pub fn parse_demo_config(text: &str) -> Option<DemoConfig> {
    let value = js_sys::JSON::parse(text).ok()?;
    if js_sys::Array::is_array(&value) {
        return None;
    }
    let object = value.dyn_into::<js_sys::Object>().ok()?;
    if js_sys::Object::keys(&object).length() != 3 {
        return None;
    }
    let field = |name: &str| {
        js_sys::Reflect::get(&object, &wasm_bindgen::JsValue::from_str(name))
            .ok()?
            .as_string()
    };
    Some(DemoConfig {
        endpoint: field("endpoint")?,
        token_hint: field("token_hint")?,
        server: field("server")?,
    })
}

/// Fetches `demo.json` from the page's own origin; `None` when absent or unreadable (a normal host).
pub async fn load_demo_config() -> Option<DemoConfig> {
    let text = get_same_origin("demo.json", 4096).await?;
    let config = parse_demo_config(&text)?;
    // Only a loopback demo endpoint is accepted from the file.
    let endpoint = parse_endpoint(&config.endpoint).ok()?;
    endpoint.is_page_loopback().then_some(config)
}

/// Fetches a same-origin example report file (`examples/<name>.json`) on demand.
pub async fn load_example(name: &str) -> Option<String> {
    let safe = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    if !safe {
        return None;
    }
    get_same_origin(&format!("examples/{name}.json"), 4 * 1024 * 1024).await
}

/// Loads the app module (the boot page's on-demand step): the page's loader script
/// (`pattern_script` in Trunk.toml) imports it and runs its start; this hands back its exports.
/// The loader keeps one load in flight and forgets a failed one, so calling again retries.
pub async fn load_app_module() -> Result<wasm_bindgen::JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let load = Reflect::get(&window, &"mcpTriageLoadApp".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("this page has no module loader")?;
    let promise = load
        .call0(&window)
        .map_err(|e| js_error_text(&e))?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| "the module loader did not answer with a promise".to_string())?;
    JsFuture::from(promise).await.map_err(|e| js_error_text(&e))
}
