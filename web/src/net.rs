//! The only network code of the app: `fetch` with the safety settings, streamed reading with caps and
//! deadlines, cancellation, the CORS doctor's token-free requests, and the same-origin demo file.
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
use mcp_triage::engine::{Outgoing, unanswered_exchange};
use mcp_triage::exchange::{BodyEnd, Exchange, TransportError, Vantage};
use mcp_triage::redact::redact_exchange;
use mcp_triage::{BodyReader, ReadStep, RequestClock};
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

/// Why a request stopped early, set by whoever stopped it (a deadline timer, or Cancel).
type StopReason = Rc<Cell<Option<BodyEnd>>>;

/// Every request in flight, so Cancel can abort them all.
#[derive(Clone, Default)]
pub struct Flights {
    inner: Rc<RefCell<Vec<(AbortController, StopReason)>>>,
}

impl Flights {
    /// Aborts everything in flight; returns how many requests were aborted.
    pub fn abort_all(&self) -> usize {
        let flights = std::mem::take(&mut *self.inner.borrow_mut());
        let n = flights.len();
        for (controller, reason) in flights {
            if reason.get().is_none() {
                reason.set(Some(BodyEnd::Aborted));
            }
            controller.abort();
        }
        n
    }

    fn add(&self, c: &AbortController, reason: &Rc<Cell<Option<BodyEnd>>>) {
        self.inner.borrow_mut().push((c.clone(), reason.clone()));
    }

    fn remove(&self, c: &AbortController) {
        self.inner.borrow_mut().retain(|(x, _)| x != c);
    }
}

/// A one-shot timer that aborts a request; cleared when dropped.
struct Timer {
    id: i32,
    _closure: Closure<dyn FnMut()>,
}

impl Timer {
    /// A timer for the absolute time `at_ms` on [`now_ms`]'s clock.
    fn at(at_ms: f64, controller: &AbortController, reason: &StopReason) -> Option<Timer> {
        Timer::new(at_ms - now_ms(), controller, reason)
    }

    fn new(
        ms: f64,
        controller: &AbortController,
        reason: &Rc<Cell<Option<BodyEnd>>>,
    ) -> Option<Timer> {
        let controller = controller.clone();
        let reason = reason.clone();
        let closure = Closure::<dyn FnMut()>::new(move || {
            if reason.get().is_none() {
                reason.set(Some(BodyEnd::Deadline));
            }
            controller.abort();
        });
        let id = web_sys::window()?
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                ms.max(0.0).min(i32::MAX as f64) as i32,
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

/// Resolves at `at_ms` on [`now_ms`]'s clock (at once if that has passed): how the run loop wakes
/// for the engine's [`mcp_triage::engine::Engine::poll_timeout`].
pub async fn sleep_until(at_ms: f64) {
    let ms = (at_ms - now_ms()).clamp(0.0, i32::MAX as f64) as i32;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
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
        let reason: StopReason = Rc::new(Cell::new(None));
        Timer::at(
            RequestClock::start(self.started).next_deadline_ms(limits),
            &self.controller,
            &reason,
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
            let mut exchange = unanswered_exchange(out, creds, Vantage::Browser);
            exchange.transport_error = Some(TransportError::Network);
            exchange.transport_error_detail = Some(detail);
            exchange
        }
    }
}

/// Reads the answer to a request [`start`] sent, under the core's deadlines counted from when it
/// was sent, and records the exchange.
pub async fn finish(
    out: &Outgoing,
    creds: &Credentials,
    flight: InFlight,
    limits: &Limits,
    flights: &Flights,
    on_event: &dyn Fn(FlightEvent),
    on_server_request: &dyn Fn(Value),
) -> Exchange {
    let mut exchange = unanswered_exchange(out, creds, Vantage::Browser);
    let InFlight {
        promise,
        controller,
        started,
        ..
    } = flight;
    let reason: Rc<Cell<Option<BodyEnd>>> = Rc::new(Cell::new(None));
    flights.add(&controller, &reason);
    // The core decides the deadlines; this shell arms one timer for the next one.
    let mut clock = RequestClock::start(started);
    let mut timer = Timer::at(clock.next_deadline_ms(limits), &controller, &reason);
    let fetched = JsFuture::from(promise).await;
    let response: web_sys::Response = match fetched.map(|r| r.dyn_into::<web_sys::Response>()) {
        Ok(Ok(r)) => r,
        Ok(Err(_)) | Err(_) => {
            let detail = match &fetched_err_text(&reason) {
                Some(t) => t.clone(),
                None => "fetch rejected (network error, CORS refusal, DNS, refused connection or mixed content)".into(),
            };
            exchange.transport_error = Some(match reason.get() {
                Some(BodyEnd::Deadline) => TransportError::Timeout,
                Some(BodyEnd::Aborted) => TransportError::Aborted,
                _ => TransportError::Network,
            });
            exchange.transport_error_detail = Some(detail);
            exchange.elapsed_ms = Some(now_ms() - started);
            flights.remove(&controller);
            return exchange;
        }
    };
    if response.type_() == ResponseType::Opaqueredirect {
        exchange.transport_error = Some(TransportError::RedirectRefused);
        exchange.transport_error_detail =
            Some("the server answered with a redirect; it was not followed".into());
        exchange.elapsed_ms = Some(now_ms() - started);
        flights.remove(&controller);
        return exchange;
    }
    on_event(FlightEvent::Headers);
    clock.headers(now_ms());
    let mut resp_headers: Vec<(String, String)> = Vec::new();
    if let Ok(Some(iter)) = js_sys::try_iter(&response.headers()) {
        for entry in iter.flatten() {
            let pair = js_sys::Array::from(&entry);
            let k = pair.get(0).as_string().unwrap_or_default();
            let v = pair.get(1).as_string().unwrap_or_default();
            // Recorded as they came: the core redacts the exchange when it is handed back.
            resp_headers.push((k, v));
        }
    }
    let content_type = resp_headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.clone());
    let content_length = resp_headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.clone());
    let mut body_reader = BodyReader::new(content_type.as_deref(), out.expect_id.clone(), limits);
    let mut end = BodyEnd::Complete;
    let is_sse = content_type
        .as_deref()
        .is_some_and(|c| c.contains("text/event-stream"));
    if out.headers_only && is_sse {
        // A GET stream: read only its first event (an old HTTP+SSE endpoint opens with `endpoint`),
        // for at most a moment, then let go of the stream.
        drop(timer);
        timer = Timer::at(clock.first_event_deadline_ms(limits), &controller, &reason);
        end = first_event(&response, &mut body_reader, limits, &reason).await;
    } else if out.headers_only {
        end = BodyEnd::StoppedAfterResponse;
    } else if body_reader.declared_length_too_large(content_length.as_deref()) {
        end = BodyEnd::SizeCap;
    } else if let Some(stream) = response.body()
        && let Ok(reader) = stream
            .get_reader()
            .dyn_into::<ReadableStreamDefaultReader>()
    {
        loop {
            timer = Timer::at(clock.next_deadline_ms(limits), &controller, &reason);
            let chunk = JsFuture::from(reader.read()).await;
            clock.chunk(now_ms());
            let Ok(chunk) = chunk else {
                end = reason.get().unwrap_or(BodyEnd::Aborted);
                break;
            };
            let done = Reflect::get(&chunk, &"done".into())
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(true);
            if done {
                break;
            }
            let Ok(value) = Reflect::get(&chunk, &"value".into()) else {
                break;
            };
            let bytes = Uint8Array::new(&value).to_vec();
            let step = body_reader.push(&bytes);
            for request in body_reader.take_server_requests() {
                on_server_request(request);
            }
            if let ReadStep::Stop(why) = step {
                end = why;
                let _ = reader.cancel();
                break;
            }
        }
    }
    drop(timer);
    if out.headers_only || end != BodyEnd::Complete {
        controller.abort();
    }
    flights.remove(&controller);
    let status = response.status();
    exchange.response = Some(body_reader.into_response(status, resp_headers, end));
    exchange.elapsed_ms = Some(now_ms() - started);
    exchange
}

/// Reads a GET stream until its first event; the caller's timer lets go of it at the core's
/// first-event deadline.
async fn first_event(
    response: &web_sys::Response,
    body_reader: &mut BodyReader,
    limits: &Limits,
    reason: &StopReason,
) -> BodyEnd {
    let Some(stream) = response.body() else {
        return BodyEnd::Complete;
    };
    let Ok(reader) = stream
        .get_reader()
        .dyn_into::<ReadableStreamDefaultReader>()
    else {
        return BodyEnd::Complete;
    };
    let mut events = mcp_triage::SseParser::new(limits);
    loop {
        let Ok(chunk) = JsFuture::from(reader.read()).await else {
            // Our own moment passed: the stream was held open, which is what a GET stream does.
            return match reason.get() {
                Some(BodyEnd::Deadline) => BodyEnd::StoppedAfterResponse,
                other => other.unwrap_or(BodyEnd::Aborted),
            };
        };
        if Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true)
        {
            return BodyEnd::Complete;
        }
        let Ok(value) = Reflect::get(&chunk, &"value".into()) else {
            return BodyEnd::Complete;
        };
        let bytes = Uint8Array::new(&value).to_vec();
        let step = body_reader.push(&bytes);
        if !events.push(&bytes).is_empty() || matches!(step, ReadStep::Stop(_)) {
            let _ = reader.cancel();
            return BodyEnd::StoppedAfterResponse;
        }
    }
}

fn fetched_err_text(reason: &Rc<Cell<Option<BodyEnd>>>) -> Option<String> {
    match reason.get() {
        Some(BodyEnd::Deadline) => Some("no response headers before the deadline".into()),
        Some(BodyEnd::Aborted) => Some("cancelled".into()),
        _ => None,
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
    let reason = Rc::new(Cell::new(None));
    flights.add(&controller, &reason);
    let _timer = Timer::at(
        RequestClock::start(now_ms()).next_deadline_ms(limits),
        &controller,
        &reason,
    );
    let init = build_init(
        "POST",
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

/// Checks a typed endpoint as the browser will send it: the browser's own URL parser reads it first
/// (`URL`, the parser `fetch` uses) and the core's rules apply to that reading.
pub fn parse_endpoint(
    typed: &str,
) -> Result<mcp_triage::endpoint::Endpoint, mcp_triage::endpoint::EndpointProblem> {
    mcp_triage::endpoint::parse_endpoint_with(typed, |t| {
        web_sys::Url::new(t).ok().map(|u| u.href())
    })
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
    endpoint.is_loopback().then_some(config)
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

/// Fetches `resource_metadata` on the user's click: the core's request (endpoint origin only, never
/// with the token).
pub async fn fetch_resource_metadata(
    url: &str,
    endpoint_origin: &str,
    limits: &Limits,
    flights: &Flights,
    creds: &Credentials,
) -> Result<Exchange, String> {
    let out = mcp_triage::engine::resource_metadata_request(url, endpoint_origin)?;
    // Never with the token (`with_token: false`), but what comes back is redacted with the run's
    // secrets all the same, by the core.
    let mut exchange = send(&out, creds, limits, flights, &|_| {}, &|_| {}).await;
    redact_exchange(&mut exchange, &creds.secrets());
    Ok(exchange)
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
