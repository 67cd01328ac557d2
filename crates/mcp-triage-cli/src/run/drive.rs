//! What a native run does whatever its transport: the arguments `probe` was given, the run's
//! limits and randomness, and the one loop that drives the engine (`poll` / `handle` /
//! `poll_timeout`, the pauses the core decides). HTTP, stdio and every census target run through
//! here.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use mcp_triage::engine::{Engine, Era, Mode, Outgoing, RunPhase, Step, Unattended, WentOn, exit};
use mcp_triage::exchange::Exchange;
use mcp_triage::redact::Secrets;
use mcp_triage::{Limits, endpoint};

use crate::run::interrupt;
use crate::run::output::Output;

pub(crate) struct ProbeArgs {
    pub(crate) url: String,
    /// `--stdio -- COMMAND ARGS…`: the server to start (then there is no URL).
    pub(crate) stdio: Option<Vec<String>>,
    /// `--secret-env VAR` values: redacted from every output like a token.
    #[cfg_attr(not(unix), allow(dead_code))]
    pub(crate) secret_values: Vec<String>,
    pub(crate) token: Option<String>,
    pub(crate) secret_headers: Vec<(String, String)>,
    pub(crate) plain_headers: Vec<(String, String)>,
    pub(crate) era: Era,
    pub(crate) seconds: u64,
    pub(crate) origin: Option<String>,
    pub(crate) output: Output,
    pub(crate) plan: Option<mcp_triage::plan_file::PlanFile>,
    pub(crate) write_plan: Option<String>,
    /// `--auth-check`: run the OAuth doctor after the run's 401.
    pub(crate) auth_check: bool,
    /// `--oauth`: sign in before the run.
    pub(crate) oauth: Option<OauthArgs>,
}

impl ProbeArgs {
    /// A plan file makes the run Review first (its rows are the review); else Quick check.
    pub(crate) fn mode(&self) -> Mode {
        if self.plan.is_some() {
            Mode::Review
        } else {
            Mode::Quick
        }
    }

    /// Who speaks for the person at the run's pauses: the plan file, or nobody.
    pub(crate) fn unattended(&self) -> Unattended<'_> {
        match &self.plan {
            Some(plan) => Unattended::Plan(&plan.probes),
            None => Unattended::NoPlan,
        }
    }

    /// What the loop says: progress lines, and the plan file when `--write-plan` asks for one.
    pub(crate) fn talk<'a>(&'a self, secrets: &'a Secrets) -> Talk<'a> {
        Talk {
            progress: true,
            write_plan: self.write_plan.as_deref().map(|f| (f, secrets)),
        }
    }
}

/// `--oauth` and its options.
#[derive(Debug, Clone)]
pub(crate) struct OauthArgs {
    /// `--client-id`: a client registered beforehand.
    pub(crate) client_id: Option<String>,
    /// Without `--no-browser`: open the authorization URL in the system's browser.
    pub(crate) open_browser: bool,
}

/// The endpoint as the HTTP client will read it (its own URL parser), judged by the core's rules.
pub(crate) fn endpoint_for(typed: &str, sends_secret: bool) -> Result<endpoint::Endpoint, String> {
    endpoint::parse_endpoint_native(typed, read_url, sends_secret).map_err(|p| p.to_string())
}

/// A URL as the HTTP client reads it (its serialisation), or `None` when it refuses it.
pub(crate) fn read_url(typed: &str) -> Option<String> {
    ureq::http::Uri::try_from(typed).ok().map(|u| u.to_string())
}

/// The run's randomness (probe A's tool name, the run id): the standard library's per-process random
/// hash keys (from the operating system), so nothing derived from it tells when or by which process
/// the run was made.
pub(crate) fn seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// The limits of a run of `seconds`, made shorter where a test asks (`MCP_TRIAGE_TEST_LIMITS`),
/// so the fault tables run in seconds; the same for every command that runs probes.
pub(crate) fn limits(seconds: u64) -> Result<Limits, String> {
    let limits = Limits::with_run_seconds(seconds);
    match std::env::var(mcp_triage::limits::TEST_LIMITS_ENV) {
        Ok(text) => limits.with_test_overrides(&text),
        Err(_) => Ok(limits),
    }
}

/// Hands what happened to a request back to the engine, telling it first of a signal that
/// interrupted the run (the engine then records the cut request as interrupted).
pub(crate) fn hand_back(engine: &mut Engine, step: Step, exchange: Exchange) {
    if let Some(by) = interrupt::caught() {
        engine.interrupt(by);
    }
    engine.handle(step, exchange);
}

/// One request sent over the shell's transport, its answers handed to the engine (replies to
/// server requests first, through [`hand_back`]); `run_left` is what the run's time limit leaves
/// (zero: do not send).
pub(crate) type Wire<'a> = dyn FnMut(&mut Engine, Outgoing, Option<Duration>) + 'a;

/// A wave's requests sent together over the shell's transport, their answers handed to the engine
/// (in the wave's order, through [`hand_back`]); `run_left` as for [`Wire`], the same for all of
/// them since they go at once.
pub(crate) type WaveWire<'a> = dyn FnMut(&mut Engine, Vec<Outgoing>, Option<Duration>) + 'a;

/// How a shell sends what a poll asks for.
pub(crate) enum Sender<'a, 'b> {
    /// One request at a time: stdio's one pipe, a census's one request in flight per host.
    OneByOne(&'a mut Wire<'b>),
    /// A wave's requests together, as the page sends them (HTTP).
    Together(&'a mut WaveWire<'b>),
}

/// What a loop says along the way: `probe`'s progress lines on standard error and its
/// `--write-plan` file; a census says nothing.
#[derive(Default)]
pub(crate) struct Talk<'a> {
    /// Progress lines (`→ step`, `← step: verdict`, the pauses' lines) on standard error.
    pub(crate) progress: bool,
    /// `--write-plan FILE`: the run's proposed plan, written with the run's secrets redacted.
    pub(crate) write_plan: Option<(&'a str, &'a Secrets)>,
}

/// Drives the engine to its end over `wire`: the one native loop, for HTTP, stdio and every
/// census target. What to send is the engine's, and so is what happens at a pause
/// ([`Engine::go_on`] with `how`); this loop keeps the clock, passes signals on, and says what
/// `talk` asks.
pub(crate) fn drive(
    engine: &mut Engine,
    how: Unattended<'_>,
    talk: &Talk<'_>,
    mut sender: Sender<'_, '_>,
) -> Result<(), (u8, String)> {
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    let err = io::stderr();
    let progress = |line: String| {
        if talk.progress {
            let _ = writeln!(err.lock(), "{line}");
        }
    };
    let mut written = false;
    let mut said_interrupted = false;
    loop {
        if let Some(by) = interrupt::caught() {
            engine.interrupt(by);
            if !said_interrupted {
                said_interrupted = true;
                progress(format!(
                    "  {}: stopping the run; what was recorded is still written",
                    by.signal_name()
                ));
            }
        }
        let poll = engine.poll(now());
        if poll.done {
            break;
        }
        if poll.send.is_empty() {
            // The plan as proposed, before the consent step's answer changes it.
            if let (RunPhase::Consent, Some((file, secrets))) = (engine.phase(), talk.write_plan) {
                write_plan(file, engine, secrets)?;
                written = true;
            }
            match engine.go_on(how).map_err(|e| (exit::USAGE, e))? {
                WentOn::Again(line) => {
                    if let Some(line) = line {
                        progress(format!("  {line}"));
                    }
                    continue;
                }
                // Every request is handed back before the next poll, so nothing is in flight
                // here: the engine waits for nothing this shell can give.
                WentOn::Stuck => break,
            }
        }
        let wire = match &mut sender {
            Sender::OneByOne(wire) => wire,
            Sender::Together(wave) => {
                // The wave goes out at once, as the page sends it: answers are the same in any
                // order (the core's guarantee), and each request gives up when the run's time
                // limit does.
                let run_left = engine
                    .poll_timeout()
                    .map(|at| Duration::from_millis((at - now()).max(0.0) as u64));
                let steps: Vec<Step> = poll.send.iter().map(|o| o.step).collect();
                if run_left != Some(Duration::ZERO) && interrupt::caught().is_none() {
                    for step in &steps {
                        progress(format!("→ {}", step.label()));
                    }
                }
                wave(engine, poll.send, run_left);
                for step in steps {
                    progress(format!(
                        "← {}: {}",
                        step.label(),
                        engine.progress_of(step).words()
                    ));
                }
                continue;
            }
        };
        // One request at a time: answers are the same in any order (the core's guarantee). Each
        // request gives up when the run's time limit does; what the limit left unsent goes back
        // to the engine as never sent.
        for out in poll.send {
            let run_left = engine
                .poll_timeout()
                .map(|at| Duration::from_millis((at - now()).max(0.0) as u64));
            let step = out.step;
            // Nothing is sent once the run's time limit passed or a signal came.
            if run_left != Some(Duration::ZERO) && interrupt::caught().is_none() {
                progress(format!("→ {}", step.label()));
            }
            wire(engine, out, run_left);
            progress(format!(
                "← {}: {}",
                step.label(),
                engine.progress_of(step).words()
            ));
        }
    }
    if let (Some((file, secrets)), false) = (talk.write_plan, written) {
        write_plan(file, engine, secrets)?;
    }
    Ok(())
}

/// Writes the run's proposed plan (the core's) to `file`, redacting the run's secrets.
fn write_plan(file: &str, engine: &Engine, secrets: &Secrets) -> Result<(), (u8, String)> {
    let text = mcp_triage::plan_file::encode(engine.proposed_plan(), secrets);
    std::fs::write(file, text).map_err(|e| (exit::LOCAL, format!("cannot write {file}: {e}")))?;
    let _ = writeln!(
        io::stderr(),
        "  wrote the proposed plan to {file}: read it; set \"opt_in\": true where you agree to call a tool that is not declared read-only"
    );
    Ok(())
}
