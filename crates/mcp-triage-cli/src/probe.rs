//! `mcp-triage probe URL`: the page's check from a terminal, over the same core. This module reads
//! the command line, drives the engine (`poll` / `handle` / `poll_timeout`) with the blocking HTTP
//! shell in `http.rs`, and prints what the core reports. It decides nothing the core could.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use mcp_triage::engine::{
    ConsentPolicy, DECLINED_WITHOUT_A_PERSON, Engine, EngineConfig, Era, Mode, Outgoing, RunPhase,
    RunReport, Step, exit,
};
use mcp_triage::exchange::{Exchange, Transport};
use mcp_triage::redact::Credentials;
use mcp_triage::{Limits, endpoint};

use crate::output::{self, Output};
use crate::{http, interrupt};

/// The whole usage text.
pub(crate) fn usage() -> String {
    USAGE
        .replace("{OUTPUT}", output::USAGE)
        .replace("{EXIT}", &exit::table_text())
}

pub(crate) const USAGE: &str = r#"usage: mcp-triage probe URL [options]
       mcp-triage probe [options] --stdio -- COMMAND [ARGS...]

Runs MCP Triage's check against a Streamable HTTP endpoint from this machine
(no browser, so no CORS): probes A (unknown tool), B (schema-invalid
arguments), C (a call whose backend fails), D (a success), and the transport
checks, then prints each verdict, the finding and the score.

With --stdio it starts COMMAND as its clients do (a child process speaking
newline-delimited JSON-RPC on stdin/stdout) and runs A to D over it. It also
finds what only stdio has: lines on stdout that are not JSON-RPC (a server
that logs there breaks its clients), a process that exits or crashes during
a call (its exit status and the end of its stderr), a reply that never comes.
At the end stdin is closed, the server gets 2 s to exit, then its whole
process group is ended (SIGTERM, then SIGKILL). Outputs show the program's
name only (stdio:node), never its arguments or environment; its stderr is
in the text and JSON reports, never in a share link.
  --secret-env VAR        a value the server may print (a key it was given), from
                          environment variable VAR: redacted from every output like
                          a token (repeatable; --stdio only)

Secrets never go on the command line (they would show in `ps`):
  --token-env VAR         the bearer token, from environment variable VAR
  --token-stdin           the bearer token, from the first line of standard input
  --header-env NAME=VAR   an extra secret header, its value from VAR (repeatable)
  --header NAME=VALUE     an extra plain header (repeatable)
Options:
  --era E                 2025-11-25 (default), 2025-06-18, 2025-03-26, 2026-07-28 or auto
  --time-limit SECONDS    the whole run's time limit (2 to 600; default 120)
  --origin ORIGIN         send this Origin header (to test the server's Origin check)
  --write-plan FILE       write the calls this run would make (declared read-only
                          tools, else the proposals for tools that declare nothing,
                          with "opt_in": false) as a plan file to read and commit
  --plan FILE             run a plan file (the page's Review first format): its
                          calls as written; a tool not declared read-only runs only
                          where the plan says "opt_in": true
Without a plan, only tools the server declares read-only are called: tools it
does not annotate are not called, and the report says what was skipped and why.
http:// is accepted only for loopback hosts when a secret is sent.
Progress goes to standard error; colour is never used.

{OUTPUT}

Ctrl-C (SIGINT) or SIGTERM stops the run at once: a stdio server gets the same
teardown as at the end of a run (a second signal skips its grace periods), and
every output asked for is still written, saying the run was interrupted.

{EXIT}"#;

pub(crate) struct ProbeArgs {
    url: String,
    /// `--stdio -- COMMAND ARGS…`: the server to start (then there is no URL).
    pub(crate) stdio: Option<Vec<String>>,
    /// `--secret-env VAR` values: redacted from every output like a token.
    #[cfg_attr(not(unix), allow(dead_code))]
    pub(crate) secret_values: Vec<String>,
    token: Option<String>,
    secret_headers: Vec<(String, String)>,
    plain_headers: Vec<(String, String)>,
    era: Era,
    seconds: u64,
    origin: Option<String>,
    pub(crate) output: Output,
    plan: Option<mcp_triage::plan_file::PlanFile>,
    write_plan: Option<String>,
}

fn split_pair(text: &str, flag: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("{flag} takes NAME=VALUE, not {text:?}"))
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<ProbeArgs, String> {
    let mut url = None;
    let mut token = None;
    let mut secret_headers = Vec::new();
    let mut plain_headers = Vec::new();
    let mut era = Era::default_choice();
    let mut seconds = mcp_triage::limits::RUN_SECONDS.2;
    let mut origin = None;
    let mut output = Output::default();
    let mut plan = None;
    let mut write_plan = None;
    let mut stdio_flag = false;
    let mut command = None;
    let mut secret_values = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--" {
            command = Some(args.by_ref().collect::<Vec<_>>());
            break;
        }
        if output.take(&arg, &mut || args.next())? {
            continue;
        }
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--token" => {
                return Err("a token on the command line shows in `ps` and shell history: use --token-env VAR or --token-stdin".into());
            }
            "--token-env" => {
                let var = value("--token-env")?;
                token = Some(
                    std::env::var(&var)
                        .map_err(|_| format!("environment variable {var} is not set"))?,
                );
            }
            "--token-stdin" => {
                let mut line = String::new();
                io::stdin()
                    .read_to_string(&mut line)
                    .map_err(|e| format!("cannot read the token from standard input: {e}"))?;
                token = Some(line.lines().next().unwrap_or("").trim().to_string());
            }
            "--header-env" => {
                let (name, var) = split_pair(&value("--header-env")?, "--header-env")?;
                let v = std::env::var(&var)
                    .map_err(|_| format!("environment variable {var} is not set"))?;
                secret_headers.push((name, v));
            }
            "--header" => plain_headers.push(split_pair(&value("--header")?, "--header")?),
            "--era" => {
                let e = value("--era")?;
                era = Era::parse(&e).ok_or(format!("unknown era {e:?}"))?;
            }
            "--time-limit" => {
                seconds = mcp_triage::limits::parse_run_seconds(&value("--time-limit")?)?
            }
            "--origin" => origin = Some(value("--origin")?),
            "--plan" => {
                let file = value("--plan")?;
                let text = std::fs::read(&file).map_err(|e| format!("cannot read {file}: {e}"))?;
                if text.len() > mcp_triage::plan_file::MAX_PLAN_BYTES {
                    return Err(format!(
                        "{file}: {}",
                        mcp_triage::plan_file::PlanProblem::TooLarge
                    ));
                }
                let text = String::from_utf8_lossy(&text);
                plan =
                    Some(mcp_triage::plan_file::decode(&text).map_err(|e| format!("{file}: {e}"))?);
            }
            "--write-plan" => write_plan = Some(value("--write-plan")?),
            "--stdio" => stdio_flag = true,
            "--secret-env" => {
                let var = value("--secret-env")?;
                let v = std::env::var(&var)
                    .map_err(|_| format!("environment variable {var} is not set"))?;
                // Checked as the token is: the same rule for what redaction can tell apart.
                endpoint::check_header_value(
                    &v,
                    mcp_triage::limits::Limits::default().max_token_bytes,
                    true,
                )
                .map_err(|p| format!("{var}: {p}"))?;
                secret_values.push(v);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown flag {flag:?}")),
            _ if url.is_none() => url = Some(arg),
            _ => return Err(format!("one URL only (got another: {arg:?})")),
        }
    }
    let stdio = match (stdio_flag, command) {
        (true, Some(cmd)) if !cmd.is_empty() && !cmd[0].is_empty() => Some(cmd),
        (true, _) => return Err("--stdio needs the server's command after --: mcp-triage probe --stdio -- node server.js".into()),
        (false, Some(_)) => return Err("a command after -- is for --stdio".into()),
        (false, None) => None,
    };
    if stdio.is_none() && !secret_values.is_empty() {
        return Err("--secret-env is for --stdio; over HTTP the secrets are the token and --header-env values".into());
    }
    if stdio.is_some() {
        if let Some(u) = &url {
            return Err(format!(
                "--stdio starts a server from its command; a URL ({u:?}) is for HTTP"
            ));
        }
        if token.is_some()
            || !secret_headers.is_empty()
            || !plain_headers.is_empty()
            || origin.is_some()
        {
            return Err("a stdio server has no headers: the token, --header, --header-env and --origin are for HTTP (mark secrets with --secret-env VAR)".into());
        }
    }
    Ok(ProbeArgs {
        url: match &stdio {
            Some(cmd) => mcp_triage::stdio::endpoint_of(&cmd[0]),
            None => url.ok_or("missing URL (or --stdio -- COMMAND)")?,
        },
        stdio,
        secret_values,
        token,
        secret_headers,
        plain_headers,
        era,
        seconds,
        origin,
        output,
        plan,
        write_plan,
    })
}

/// The endpoint as the HTTP client will read it (its own URL parser), judged by the core's rules.
pub(crate) fn endpoint_for(typed: &str, sends_secret: bool) -> Result<endpoint::Endpoint, String> {
    let normalise = |s: &str| ureq::http::Uri::try_from(s).ok().map(|u| u.to_string());
    endpoint::parse_endpoint_native(typed, normalise, sends_secret).map_err(|p| p.to_string())
}

/// The run's randomness (probe A's tool name, the run id): the standard library's per-process random
/// hash keys (from the operating system), so nothing derived from it tells when or by which process
/// the run was made.
fn seed() -> u64 {
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

/// Runs `mcp-triage probe …`; returns the exit status.
pub(crate) fn main(args: impl Iterator<Item = String>) -> u8 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(msg) if msg.is_empty() => {
            println!("{}", usage());
            return exit::OK;
        }
        Err(msg) => {
            eprintln!("mcp-triage probe: {msg}\n\n{}", usage());
            return exit::USAGE;
        }
    };
    // From here on a signal stops the run, not the process: what was recorded is still written.
    if let Err(e) = interrupt::install() {
        eprintln!("mcp-triage probe: {e}; Ctrl-C will end the process without a report");
    }
    let limits = Limits::with_run_seconds(args.seconds);
    // Test-only: shorter deadlines and caps, so the fault table runs in seconds.
    let limits = match std::env::var(mcp_triage::limits::TEST_LIMITS_ENV) {
        Ok(text) => match limits.with_test_overrides(&text) {
            Ok(shorter) => shorter,
            Err(e) => {
                eprintln!("mcp-triage probe: {e}");
                return exit::USAGE;
            }
        },
        Err(_) => limits,
    };
    if args.stdio.is_some() {
        #[cfg(unix)]
        return crate::stdio::probe(&args, &limits);
        #[cfg(not(unix))]
        {
            eprintln!("mcp-triage probe: --stdio needs a Unix system (process groups)");
            return exit::USAGE;
        }
    }
    if let Some(t) = &args.token
        && let Err(p) = endpoint::check_token(t, limits.max_token_bytes)
    {
        eprintln!("mcp-triage probe: the token: {p}");
        return exit::USAGE;
    }
    for (name, value) in &args.secret_headers {
        if let Some(p) = endpoint::extra_header_problem(name, value, true, limits.max_token_bytes) {
            eprintln!("mcp-triage probe: header {name}: {p}");
            return exit::USAGE;
        }
    }
    for (name, value) in &args.plain_headers {
        if let Some(p) = endpoint::extra_header_problem(name, value, false, limits.max_token_bytes)
        {
            eprintln!("mcp-triage probe: header {name}: {p}");
            return exit::USAGE;
        }
    }
    let creds = Credentials::new(
        args.token.clone().unwrap_or_default(),
        args.secret_headers.clone(),
        args.plain_headers.clone(),
    );
    let sends_secret = creds.has_token() || !args.secret_headers.is_empty();
    let ep = match endpoint_for(&args.url, sends_secret) {
        Ok(e) => e,
        Err(p) => {
            eprintln!("mcp-triage probe: {p}");
            return exit::USAGE;
        }
    };
    let report = match run(&ep, &args, &creds, &limits) {
        Ok(r) => r,
        Err((code, msg)) => {
            eprintln!("mcp-triage probe: {msg}");
            return code;
        }
    };
    args.output.emit(&report, &ep, &creds.secrets(), render)
}

fn run(
    ep: &endpoint::Endpoint,
    args: &ProbeArgs,
    creds: &Credentials,
    limits: &Limits,
) -> Result<RunReport, (u8, String)> {
    let mut engine = Engine::new(config(ep, args, creds.has_token(), creds.secrets(), limits));
    let agent = http::agent();
    let origin = args.origin.as_deref();
    drive(
        &mut engine,
        args,
        &creds.secrets(),
        &mut |engine, out, run_left| {
            if run_left == Some(Duration::ZERO) {
                hand_back(engine, out.step, http::not_sent(&out, creds));
                return;
            }
            let mut replies = Vec::new();
            let ex = http::send(
                &agent,
                &out,
                creds,
                origin,
                limits,
                run_left,
                &mut |request| {
                    if let Some(reply) = engine.reply(&request) {
                        let ex = http::send(
                            &agent,
                            &reply,
                            creds,
                            origin,
                            limits,
                            run_left,
                            &mut |_| {},
                        );
                        replies.push((reply.step, ex));
                    }
                },
            );
            for (step, ex) in replies {
                hand_back(engine, step, ex);
            }
            hand_back(engine, out.step, ex);
        },
    )?;
    Ok(engine.report())
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
            match engine.phase() {
                RunPhase::Review if args.plan.is_some() => {
                    let Some(plan) = &args.plan else { break };
                    engine
                        .apply_plan(ConsentPolicy::CommittedPlan, &plan.probes)
                        .map_err(|e| (exit::USAGE, format!("the plan cannot run: {e}")))?;
                    progress("  running the plan".into());
                    continue;
                }
                RunPhase::Consent => {
                    if let Some(file) = &args.write_plan {
                        write_plan(file, engine, secrets)?;
                        written = true;
                    }
                    // No plan: the policy for a run without a person answers; the report says
                    // what was skipped.
                    let policy = ConsentPolicy::Unattended;
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
    let mut out = String::new();
    out.push_str(&format!("MCP Triage — {}\n\n", ep.url));
    out.push_str(&format!("{}\n\n", report.headline));
    out.push_str(&format!(
        "Distinguishability by structure alone: {}\n",
        mcp_triage::score_text(report.summary.score, Some(report.summary.judged))
    ));
    out.push_str(&format!(
        "Server: {} · protocol {}{}\n\n",
        report
            .server_text()
            .unwrap_or_else(|| "unknown server".into()),
        report.protocol_text(),
        report
            .rounds_text()
            .map(|r| format!(" · {r}"))
            .unwrap_or_default()
    ));
    let groups = report.card_groups();
    for r in groups
        .connect_failed
        .iter()
        .chain(&groups.probes)
        .chain(&groups.checks)
    {
        let a = &r.assessment;
        let v = &a.verdict;
        out.push_str(&format!("{}\n", r.step.title()));
        out.push_str(&format!("  {}\n", v.outcome_line()));
        for e in v.evidence.iter().take(3) {
            out.push_str(&format!("  evidence: {}\n", e.fact));
        }
        let flags: Vec<&str> = v
            .flags
            .iter()
            .filter(|f| !f.once_per_run())
            .map(|f| f.as_str())
            .collect();
        if !flags.is_empty() {
            out.push_str(&format!("  flags: {}\n", flags.join(", ")));
        }
        match r.exchange.stop_reason() {
            Some(why) => out.push_str(&format!("  {}\n", why.not_answered())),
            None => out.push_str(&format!(
                "  agent: {} — {}\n  server: {}\n",
                a.advice.action.as_str().replace('_', " "),
                a.advice.agent,
                a.advice.server
            )),
        }
        if let Some(s) = &a.spec {
            out.push_str(&format!(
                "  spec {}: {} — {}\n",
                s.version, s.conformance, s.reason
            ));
        }
        if let Some(tail) = r
            .exchange
            .stdio
            .as_ref()
            .and_then(|io| io.stderr_tail.as_ref())
        {
            out.push_str("  stderr (its last lines):\n");
            let lines: Vec<&str> = tail.lines().collect();
            for line in &lines[lines.len().saturating_sub(STDERR_LINES_SHOWN)..] {
                out.push_str(&format!("    | {line}\n"));
            }
        }
        out.push('\n');
    }
    for line in report.probes.iter().filter_map(|p| p.skip_line()) {
        out.push_str(&format!("{line}\n"));
    }

    for n in &report.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The URL checked is the URL sent: whatever is accepted names the host ureq will connect to,
    /// and what ureq's parser reads differently from the text is refused or judged as it reads it.
    #[test]
    fn the_endpoint_is_judged_as_the_http_clients_parser_reads_it() {
        let host_sent = |u: &str| {
            ureq::http::Uri::try_from(u)
                .ok()
                .and_then(|u| u.host().map(str::to_string))
        };
        for typed in [
            "https://a.example\\b.example/mcp",
            "http://127.1:8787/mcp",
            "http://0x7f.1:8787/mcp",
            "http://localhost.:8787/mcp",
            "https://%6Cocalhost/mcp",
            "https://bücher.example/mcp",
            "https://mcp.example.com/mcp",
            "http://[::1]:8787/mcp",
            "http://127.0.0.1:8787/mcp",
        ] {
            match endpoint_for(typed, true) {
                Ok(e) => {
                    let sent = host_sent(typed).expect("accepted, so the client reads a host");
                    assert_eq!(
                        e.host, sent,
                        "{typed}: judged host is the host connected to"
                    );
                    if e.scheme == "http" {
                        assert!(
                            e.is_loopback() || e.host == "[::1]",
                            "{typed}: cleartext with a secret"
                        );
                    }
                }
                Err(p) => assert!(!p.is_empty(), "{typed}"),
            }
        }
        // Short IPv4 forms are not judged loopback by their text: with a secret over http, refused.
        assert!(endpoint_for("http://127.1:8787/mcp", true).is_err());
        assert!(endpoint_for("http://[::1]:8787/mcp", true).is_ok());
        assert!(endpoint_for("http://mcp.example.com/mcp", false).is_ok());
    }
}
