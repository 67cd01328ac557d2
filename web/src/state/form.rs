//! The form's values as plain data, and what a start runs with: the endpoint, the engine's
//! configuration and the credentials they give (the boot page and the app build a run alike).

use mcp_triage::Limits;
use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::{EngineConfig, Era, Mode, RunInput, UrlReader, check_run};
use serde::{Deserialize, Serialize};

use crate::net::{Credentials, read_url};

/// What the form holds, as plain values: what a start runs with, and what the boot page hands to
/// the app module (in memory, never stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormValues {
    /// The endpoint as typed.
    pub endpoint: String,
    /// The bearer token as typed.
    pub token: String,
    /// A value of [`mcp_triage::engine::era_choices`].
    pub era: String,
    /// The run's time limit as typed.
    pub run_seconds: String,
    /// Extra headers: name, value, secret.
    pub extras: Vec<(String, String, bool)>,
}

impl Default for FormValues {
    fn default() -> FormValues {
        FormValues {
            endpoint: String::new(),
            token: String::new(),
            era: Era::default_choice().choice().to_string(),
            run_seconds: mcp_triage::limits::RUN_SECONDS.2.to_string(),
            extras: Vec::new(),
        }
    }
}

/// A run's random seed (request ids, probe arguments), drawn once per start.
pub fn random_seed() -> u64 {
    (js_sys::Math::random() * (u64::MAX as f64)) as u64
}

/// The limits with a test's shorter ones (`globalThis.mcpTriageTestLimits`, which only a test's
/// init script sets: see [`Limits::with_test_overrides`]); a value the core refuses is reported on
/// the console, where the browser tests fail on it, and the limits stay as they were.
fn test_limits(limits: Limits) -> Limits {
    let global = js_sys::global();
    let name = wasm_bindgen::JsValue::from_str(mcp_triage::limits::TEST_LIMITS_GLOBAL);
    let Some(text) = js_sys::Reflect::get(&global, &name)
        .ok()
        .and_then(|v| v.as_string())
    else {
        return limits;
    };
    match limits.clone().with_test_overrides(&text) {
        Ok(shorter) => shorter,
        Err(e) => {
            web_sys::console::error_1(&e.into());
            limits
        }
    }
}

/// What a start runs with: the endpoint, the engine's configuration and the credentials, from the
/// form's values and a seed, checked by the core as every shell's input is; `None` when the
/// values do not pass (each field shows its own problem). The same values and seed give the same
/// run, so the boot page and the app build it alike.
pub fn run_config(
    mode: Mode,
    form: &FormValues,
    random: u64,
) -> Option<(Endpoint, EngineConfig, Credentials)> {
    let secs = mcp_triage::limits::parse_run_seconds(&form.run_seconds).ok()?;
    let (secret, plain): (Vec<_>, Vec<_>) = form.extras.iter().partition(|(_, _, s)| *s);
    let pairs = |v: Vec<&(String, String, bool)>| {
        v.into_iter()
            .map(|(n, v, _)| (n.clone(), v.clone()))
            .collect()
    };
    let input = RunInput {
        endpoint: form.endpoint.clone(),
        token: form.token.clone(),
        secret_headers: pairs(secret),
        plain_headers: pairs(plain),
        era: Era::parse(&form.era).unwrap_or_else(Era::default_choice),
        mode,
        signs_in: false,
    };
    let limits = test_limits(Limits::with_run_seconds(secs));
    let setup = check_run(&input, UrlReader::Browser(&read_url), limits, random).ok()?;
    Some((setup.endpoint, setup.config, setup.credentials))
}

/// Checks an extra header (the core's rule, with the run's size cap); `None` when fine.
pub fn header_problem(name: &str, value: &str, secret: bool) -> Option<String> {
    mcp_triage::endpoint::extra_header_problem(
        name,
        value,
        secret,
        Limits::default().max_token_bytes,
    )
}
