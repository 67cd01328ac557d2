//! What a probe run does whatever its transport: the arguments it was given, the engine's
//! configuration, the loop that drives the engine (`poll` / `handle` / `poll_timeout`, the plan and
//! the consent policy), and the terminal report. The HTTP and stdio shells both run through here.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use mcp_triage::engine::{
    ConsentPolicy, DECLINED_WITHOUT_A_PERSON, Engine, EngineConfig, Era, Mode, Outgoing, RunPhase,
    RunReport, Step, exit,
};
use mcp_triage::exchange::{Exchange, Transport};
use mcp_triage::view::{Answer, ReportView, WireView};
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
    let normalise = |s: &str| ureq::http::Uri::try_from(s).ok().map(|u| u.to_string());
    endpoint::parse_endpoint_native(typed, normalise, sends_secret).map_err(|p| p.to_string())
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

/// The engine's configuration for this command line (either transport).
pub(crate) fn config(
    ep: &endpoint::Endpoint,
    args: &ProbeArgs,
    has_token: bool,
    secrets: mcp_triage::redact::Secrets,
    limits: &Limits,
) -> EngineConfig {
    EngineConfig {
        endpoint: ep.url.clone(),
        era: args.era.clone(),
        mode: if args.plan.is_some() {
            Mode::Review
        } else {
            Mode::Quick
        },
        has_token,
        random: seed(),
        limits: limits.clone(),
        client_version: env!("CARGO_PKG_VERSION").into(),
        secrets,
        transport: if args.stdio.is_some() {
            Transport::Stdio
        } else {
            Transport::Http
        },
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

/// Drives the engine to its end over `wire`: the same loop for HTTP and stdio. The plan, the
/// consent step and the progress lines are handled here; what to send is the engine's.
pub(crate) fn drive(
    engine: &mut Engine,
    args: &ProbeArgs,
    secrets: &mcp_triage::redact::Secrets,
    wire: &mut Wire<'_>,
) -> Result<(), (u8, String)> {
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    let err = io::stderr();
    let progress = |line: String| {
        let _ = writeln!(err.lock(), "{line}");
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
            let policy = ConsentPolicy::without_a_person(args.plan.is_some());
            match (engine.phase(), &args.plan) {
                (RunPhase::Review, Some(plan)) => {
                    engine
                        .apply_plan(policy, &plan.probes)
                        .map_err(|e| (exit::USAGE, format!("the plan cannot run: {e}")))?;
                    progress("  running the plan".into());
                    continue;
                }
                (RunPhase::Consent, _) => {
                    if let Some(file) = &args.write_plan {
                        write_plan(file, engine, secrets)?;
                        written = true;
                    }
                    // The report says what was skipped.
                    if let Some(answer) = policy.answer_without_asking() {
                        progress(format!("  {DECLINED_WITHOUT_A_PERSON}"));
                        engine.answer_consent(answer);
                        continue;
                    }
                }
                _ => {}
            }
            // Every request is handed back before the next poll, so nothing is in flight here:
            // the engine waits for nothing this shell can give.
            break;
        }
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
                progress_word(engine, step)
            ));
        }
    }
    if let Some(file) = &args.write_plan
        && !written
    {
        write_plan(file, engine, secrets)?;
    }
    Ok(())
}

/// Writes the run's proposed plan (the core's) to `file`, redacting the run's secrets.
fn write_plan(
    file: &str,
    engine: &Engine,
    secrets: &mcp_triage::redact::Secrets,
) -> Result<(), (u8, String)> {
    let text = mcp_triage::plan_file::encode(engine.proposed_plan(), secrets);
    std::fs::write(file, text).map_err(|e| (exit::LOCAL, format!("cannot write {file}: {e}")))?;
    let _ = writeln!(
        io::stderr(),
        "  wrote the proposed plan to {file}: read it; set \"opt_in\": true where you agree to call a tool that is not declared read-only"
    );
    Ok(())
}

fn progress_word(engine: &Engine, step: mcp_triage::engine::Step) -> String {
    use mcp_triage::engine::Progress;
    match engine.progress_of(step) {
        Progress::Done(s) => s,
        Progress::TimedOut => "timed out".into(),
        Progress::Aborted => "aborted".into(),
        Progress::Sending | Progress::Streaming => "in flight".into(),
    }
}

/// The terminal report: what the page's summary and cards say, as text (no colour), the endpoint's
/// path and query hidden unless `include_path` (as in every other form).
pub(crate) fn render(report: &RunReport, ep: &endpoint::Endpoint, include_path: bool) -> String {
    let text = render_all(report, ep);
    if include_path {
        text
    } else {
        mcp_triage::export::Scrub::new(ep).apply(&text)
    }
}

/// Lines of a stdio server's stderr tail the text report shows (the JSON report holds all of it).
const STDERR_LINES_SHOWN: usize = 8;

fn render_all(report: &RunReport, ep: &endpoint::Endpoint) -> String {
    let view = ReportView::of_report(report, &[]);
    let summary = &view.summary;
    let mut out = String::new();
    out.push_str(&format!("MCP Triage — {}\n\n", ep.url));
    out.push_str(&format!("{}\n\n", summary.headline));
    out.push_str(&format!("{}: {}\n", summary.score_label, summary.score));
    out.push_str(&format!(
        "Server: {} · protocol {}{}\n\n",
        summary.server_text(),
        summary.protocol,
        summary
            .rounds
            .as_deref()
            .map(|r| format!(" · {r}"))
            .unwrap_or_default()
    ));
    for w in &summary.warnings {
        out.push_str(&format!("warning: {w}\n\n"));
    }
    let mut skipped = Vec::new();
    for card in view.cards() {
        if let Answer::Skipped { line, .. } = &card.answer {
            skipped.push(line.as_str());
            continue;
        }
        out.push_str(&format!("{}\n", card.title));
        out.push_str(&format!("  {}\n", card.outcome_line()));
        if let Some(d) = &card.decided_by {
            out.push_str(&format!("  decided by {}\n", d.label));
        }
        for e in card.evidence.iter().take(3) {
            out.push_str(&format!("  evidence: {}\n", e.fact));
        }
        if !card.flags.is_empty() {
            let flags: Vec<&str> = card.flags.iter().map(|f| f.label.as_str()).collect();
            out.push_str(&format!("  flags: {}\n", flags.join(", ")));
        }
        match &card.answer {
            Answer::NotAnswered(why) => out.push_str(&format!("  {why}\n")),
            Answer::Advice(a) => out.push_str(&format!(
                "  agent: {} — {}\n  server: {}\n",
                a.action.label,
                a.agent.as_deref().unwrap_or_default(),
                a.server.as_deref().unwrap_or_default()
            )),
            Answer::Skipped { .. } | Answer::Nothing => {}
        }
        if let Some(s) = &card.spec {
            out.push_str(&format!(
                "  spec {}: {} — {}\n",
                s.version, s.conformance.label, s.reason
            ));
        }
        if let Some(WireView::Stdio {
            stderr_tail: Some(tail),
            ..
        }) = &card.wire
        {
            out.push_str("  stderr (its last lines):\n");
            let lines: Vec<&str> = tail.lines().collect();
            for line in &lines[lines.len().saturating_sub(STDERR_LINES_SHOWN)..] {
                out.push_str(&format!("    | {line}\n"));
            }
        }
        out.push('\n');
    }
    for line in skipped {
        out.push_str(&format!("{line}\n"));
    }

    for n in &summary.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(auth) = &view.auth {
        out.push_str(&format!("\nAuthorization discovery · {}\n", auth.heading));
        out.push_str(&format!("{}\n\n", auth.browser));
        for card in &auth.cards {
            out.push_str(&format!("{}\n", card.title));
            if let Some(url) = &card.url {
                out.push_str(&format!("  {url}\n"));
            }
            out.push_str(&format!("  {}\n", card.outcome));
            if let Some(b) = &card.browser {
                out.push_str(&format!("  {}\n", b.line()));
            }
            for f in &card.findings {
                out.push_str(&format!("  {}\n", f.line()));
                if let (Some(rule), Some(link)) = (&f.rule, &f.link) {
                    out.push_str(&format!("    rule: {rule} ({link})\n"));
                }
                if let Some(e) = &f.elsewhere {
                    out.push_str(&format!("    otherwise in {e}\n"));
                }
            }
            out.push('\n');
        }
    }
    out
}
