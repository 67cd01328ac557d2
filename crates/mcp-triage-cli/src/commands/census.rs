//! `mcp-triage census`: the same check, safe and polite, over a long list of servers, one JSON
//! line each, resumable; and `mcp-triage census report`, the summary drawn from those lines. What
//! runs, which target starts when and when a request may go are the core's (`census::plan`,
//! `census::Polite`); this shell keeps the clock, runs workers on threads and writes lines.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mcp_triage::census::{self, CensusLine, Gate, Pick, Polite, Reach, Target, Timings};
use mcp_triage::engine::{Engine, EngineConfig, Era, Mode, Outgoing, Unattended, exit};
use mcp_triage::redact::{Credentials, Secrets};
use mcp_triage::{Limits, endpoint};

use crate::args::{self, EraArg, HELP_TEMPLATE, after_help, intro};
use crate::run::drive::{self, endpoint_for};
use crate::run::interrupt;
use crate::transports::http;

/// The command, as its messages name it.
pub(crate) const COMMAND: &str = "mcp-triage census";

const EXAMPLES: &[&str] = &[
    "mcp-triage census servers.txt --out census.jsonl --contact https://example.com/me",
    "mcp-triage census report census.jsonl --html census.html > census.md",
];

const ABOUT: &str =
    "Runs the check over every server of TARGETS (one URL a line, or the MCP registry's
server.json documents: one, a JSON array, JSON Lines or a registry listing, of which
the streamable-http remotes are taken), duplicates merged, and writes one
mcp-triage-census/1 line per target (docs/mcp-triage-census-1.schema.json).

Only what has no side effect: connecting, tools/list (counted, never copied), probe A
(an unknown tool) and the GET check; no token, and no tool of the server's is called.
A server that asks for a token is recorded as such, with the OAuth doctor's findings.

Polite: at most --concurrency targets at once, never two on one host (host and port),
one request in flight per host, and --host-delay-ms between two requests to one host
(lower it only for servers of your own).";

/// `mcp-triage census`'s command line, as clap reads it: a census, or one of its two drawings.
#[derive(clap::Args)]
#[command(
    about = "Check a list of servers, safely and politely, one JSON line each",
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = intro(EXAMPLES, ABOUT),
    after_help = after_help(""),
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    drawing: Option<Drawing>,
    /// The servers: a file of URLs or of the registry's server.json documents
    #[arg(value_name = "TARGETS", required = true)]
    targets: Option<String>,
    /// The output (JSON Lines); refused if it exists, unless --resume
    #[arg(long, value_name = "FILE", required = true)]
    out: Option<String>,
    /// Skip targets already in --out (a line cut short is dropped)
    #[arg(long)]
    resume: bool,
    /// Targets at once
    #[arg(long, value_name = "N", default_value_t = census::DEFAULT_CONCURRENCY,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
              .range(1..=census::MAX_CONCURRENCY as u64))]
    concurrency: usize,
    /// The pause between two requests to one host, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = census::DEFAULT_HOST_DELAY_MS)]
    host_delay_ms: u64,
    /// Each target's time limit, in seconds (2 to 600)
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = mcp_triage::limits::parse_run_seconds)]
    deadline: u64,
    #[arg(long, value_name = "VERSION", value_enum, default_value_t = EraArg::default(),
          hide_possible_values = true, hide_default_value = true,
          help = args::era_help("The protocol era to speak", true))]
    era: EraArg,
    /// Named in the User-Agent, so an operator can reach you
    #[arg(long, value_name = "URL", value_parser = contact)]
    contact: Option<String>,
    /// Do not run the OAuth doctor after a 401
    #[arg(long)]
    no_auth_check: bool,
    /// No progress lines (there are none when stderr is not a terminal)
    #[arg(long)]
    quiet: bool,
}

/// What a census's lines are drawn as.
#[derive(clap::Subcommand)]
enum Drawing {
    /// Draw a census's summary: Markdown, and with --html FILE a page with charts
    #[command(
        long_about = None,
        help_template = HELP_TEMPLATE,
        before_help = intro(
            &["mcp-triage census report census.jsonl > census.md",
              "mcp-triage census report census.jsonl --html census.html --markdown census.md"],
            "Draws the summary of a census's lines: Markdown on standard output, or to --markdown
FILE, and with --html FILE one self-contained HTML page with charts (no script,
nothing fetched).",
        ),
        after_help = after_help(""),
    )]
    Report {
        /// The census's output (JSON Lines)
        #[arg(value_name = "RESULTS.jsonl")]
        file: String,
        /// Also write one self-contained HTML page with charts
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// Write the Markdown to FILE instead of standard output
        #[arg(long, value_name = "FILE")]
        markdown: Option<String>,
    },
    /// Draw the SDK matrix of docs/ecosystem.md, and with --svg FILE its picture
    #[command(
        long_about = None,
        help_template = HELP_TEMPLATE,
        before_help = intro(
            &["mcp-triage census matrix rows.json > matrix.md",
              "mcp-triage census matrix rows.json --svg matrix.svg"],
            "Draws rows of SDK configurations (a JSON array: name, live, version, cells by probe
as verdicts) as the Markdown table of docs/ecosystem.md, and with --svg FILE its
picture.",
        ),
        after_help = after_help(""),
    )]
    Matrix {
        /// The rows (a JSON array)
        #[arg(value_name = "ROWS.json")]
        file: String,
        /// Also write the matrix as an SVG picture
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
    },
}

/// `--contact`: a value that can go in a header.
fn contact(text: &str) -> Result<String, String> {
    endpoint::check_header_value(text, 512, false).map_err(|p| p.to_string())?;
    Ok(text.to_string())
}

struct Args {
    targets: String,
    out: String,
    resume: bool,
    concurrency: usize,
    delay_ms: u64,
    seconds: u64,
    era: Era,
    contact: Option<String>,
    auth_check: bool,
    quiet: bool,
}

/// Runs `mcp-triage census …`; returns the exit status.
pub(crate) fn main(cli: Cli) -> u8 {
    match cli.drawing {
        Some(Drawing::Report {
            file,
            html,
            markdown,
        }) => return report(file, html, markdown),
        Some(Drawing::Matrix { file, svg }) => return matrix(file, svg),
        None => {}
    }
    let (Some(targets), Some(out)) = (cli.targets, cli.out) else {
        return args::refuse_with(COMMAND, "name the targets file and --out FILE");
    };
    let args = Args {
        targets,
        out,
        resume: cli.resume,
        concurrency: cli.concurrency,
        delay_ms: cli.host_delay_ms,
        seconds: cli.deadline,
        era: cli.era.era(),
        contact: cli.contact,
        auth_check: !cli.no_auth_check,
        quiet: cli.quiet,
    };
    match run(&args) {
        Ok(code) => code,
        Err((code, msg)) => {
            eprintln!("mcp-triage census: {msg}");
            code
        }
    }
}

/// What the workers share: the politeness, the output and the tally of how far targets got.
struct Shared {
    polite: Polite,
    out: File,
    written: usize,
    /// Targets run and written (refused URLs' lines are not counted here).
    targets_done: usize,
    /// Every worker has returned (the progress line's end).
    workers_done: bool,
    reach: BTreeMap<Reach, usize>,
    failed_write: Option<String>,
}

fn run(args: &Args) -> Result<u8, (u8, String)> {
    let limits = drive::limits(args.seconds).map_err(|e| (exit::USAGE, e))?;
    let bytes = read_capped(&args.targets, census::MAX_TARGETS_BYTES)
        .map_err(|e| (exit::USAGE, format!("cannot read {}: {e}", args.targets)))?;
    let label = std::path::Path::new(&args.targets)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| args.targets.clone());
    let (candidates, without) =
        census::read_candidates(&label, &bytes).map_err(|e| (exit::USAGE, e))?;
    drop(bytes);
    let list = census::merge(candidates, without, |url| endpoint_for(url, false));

    let done = prepare_output(args)?;
    let out = OpenOptions::new()
        .append(true)
        .create(true)
        .open(&args.out)
        .map_err(|e| (exit::LOCAL, format!("cannot open {}: {e}", args.out)))?;
    let listed = list.targets.len();
    let todo: Vec<Target> = list
        .targets
        .into_iter()
        .filter(|t| !done.contains(&t.key))
        .collect();
    let rejected: Vec<CensusLine> = list
        .rejected
        .iter()
        .filter(|r| !done.contains(&r.url))
        .map(CensusLine::of_rejected)
        .collect();
    let skipped = listed - todo.len();
    drop(done);
    let polite = Polite::new(
        todo.iter().map(Target::host_key),
        args.concurrency,
        args.delay_ms,
    );
    let shared = Arc::new((
        Mutex::new(Shared {
            polite,
            out,
            written: 0,
            targets_done: 0,
            workers_done: false,
            reach: BTreeMap::new(),
            failed_write: None,
        }),
        Condvar::new(),
    ));
    // Refused URLs first: each gets its line once, like a target.
    for line in &rejected {
        write_line(&shared, line);
    }
    if let Err(e) = interrupt::install() {
        eprintln!("mcp-triage census: {e}; Ctrl-C will end the process at once");
    }
    let show_progress = !args.quiet && io::stderr().is_terminal();
    let clock = Instant::now();
    let todo = Arc::new(todo);
    let workers: Vec<_> = (0..args.concurrency.min(todo.len().max(1)))
        .map(|_| {
            let shared = Arc::clone(&shared);
            let todo = Arc::clone(&todo);
            let limits = limits.clone();
            let era = args.era.clone();
            let agent_header = census::user_agent(
                env!("CARGO_PKG_VERSION"),
                args.contact
                    .as_deref()
                    .unwrap_or(env!("CARGO_PKG_REPOSITORY")),
            );
            let auth_check = args.auth_check;
            std::thread::spawn(move || {
                worker(
                    &shared,
                    &todo,
                    &limits,
                    &era,
                    &agent_header,
                    auth_check,
                    clock,
                )
            })
        })
        .collect();
    let total = todo.len();
    // Progress on a thread of its own, ended when every worker has (whatever became of them).
    let progress = show_progress.then(|| {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || progress_until_done(&shared, total, clock))
    });
    for w in workers {
        let _ = w.join();
    }
    if let Some(p) = progress {
        if let Ok(mut s) = shared.0.lock() {
            s.workers_done = true;
        }
        shared.1.notify_all();
        let _ = p.join();
    }
    let (lock, _) = &*shared;
    let state = lock
        .lock()
        .map_err(|_| (exit::LOCAL, "a worker failed".to_string()))?;
    if let Some(e) = &state.failed_write {
        return Err((exit::LOCAL, format!("cannot write {}: {e}", args.out)));
    }
    let counts: Vec<String> = state
        .reach
        .iter()
        .map(|(r, n)| format!("{} {n}", r.label()))
        .collect();
    println!(
        "census: {} lines written to {}{}{}{}",
        state.written,
        args.out,
        if counts.is_empty() {
            String::new()
        } else {
            format!(" ({})", counts.join(", "))
        },
        if skipped > 0 {
            format!("; {skipped} already there")
        } else {
            String::new()
        },
        if list.merged > 0 || list.without_remote > 0 {
            format!(
                "; {} listed again and merged, {} registry entries without a streamable-http remote",
                list.merged, list.without_remote
            )
        } else {
            String::new()
        }
    );
    Ok(match interrupt::caught() {
        Some(by) => {
            eprintln!(
                "mcp-triage census: {}: stopped; the targets in flight were not written (--resume runs them)",
                by.signal_name()
            );
            exit::of_interrupt(by)
        }
        None => exit::OK,
    })
}

/// A file's bytes, at most `cap` and one more (so the core can say it is over the cap).
fn read_capped(path: &str, cap: usize) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    File::open(path)?
        .take(cap as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The keys already written (`--resume`, the file cut back to its last whole line), or a refusal
/// to overwrite an output that exists.
fn prepare_output(args: &Args) -> Result<std::collections::HashSet<String>, (u8, String)> {
    let existing = match std::fs::read(&args.out) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err((exit::LOCAL, format!("cannot read {}: {e}", args.out))),
    };
    if !args.resume {
        if existing.is_empty() {
            return Ok(Default::default());
        }
        return Err((
            exit::USAGE,
            format!(
                "{} exists: --resume continues it, or name another file",
                args.out
            ),
        ));
    }
    let resume = census::read_resume(&existing)
        .map_err(|e| (exit::USAGE, format!("--resume {}: {e}", args.out)))?;
    if let Some(why) = &resume.dropped {
        eprintln!("mcp-triage census: {}: {why}", args.out);
    }
    if resume.keep_bytes < existing.len() {
        let f = OpenOptions::new()
            .write(true)
            .open(&args.out)
            .map_err(|e| (exit::LOCAL, format!("cannot open {}: {e}", args.out)))?;
        f.set_len(resume.keep_bytes as u64)
            .map_err(|e| (exit::LOCAL, format!("cannot cut {}: {e}", args.out)))?;
    }
    Ok(resume.done)
}

/// Writes one line with one write call, so a crash leaves at most that line cut short.
fn write_line(shared: &(Mutex<Shared>, Condvar), line: &CensusLine) {
    let (lock, _) = shared;
    let Ok(mut s) = lock.lock() else {
        return;
    };
    // After a failure nothing more is written, so the file ends with whole lines and resumes.
    if s.failed_write.is_some() {
        return;
    }
    let mut text = line.to_json_line();
    text.push('\n');
    let before = s.out.metadata().map(|m| m.len()).ok();
    match s.out.write_all(text.as_bytes()) {
        Ok(()) => {
            s.written += 1;
            *s.reach.entry(line.reach).or_default() += 1;
        }
        Err(e) => {
            // A short write (a full disk) is cut back to the last whole line.
            if let Some(len) = before {
                let _ = s.out.set_len(len);
            }
            s.failed_write = Some(e.to_string());
        }
    }
}

/// What the workers hold of the shared state.
type Held = Arc<(Mutex<Shared>, Condvar)>;

fn worker(
    shared: &Held,
    todo: &[Target],
    limits: &Limits,
    era: &Era,
    user_agent: &str,
    auth_check: bool,
    clock: Instant,
) {
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    loop {
        if interrupt::caught().is_some() {
            return;
        }
        let pick = {
            let (lock, cv) = &**shared;
            let Ok(mut s) = lock.lock() else { return };
            if s.failed_write.is_some() {
                return;
            }
            match s.polite.pick(now()) {
                Pick::Run(i) => Some(i),
                Pick::Done => return,
                Pick::WaitUntil(at) => {
                    let wait = Duration::from_secs_f64(((at - now()) / 1000.0).max(0.0));
                    let _ = cv.wait_timeout(s, wait.min(Duration::from_millis(250)));
                    None
                }
                Pick::Wait => {
                    let _ = cv.wait_timeout(s, Duration::from_millis(250));
                    None
                }
            }
        };
        let Some(i) = pick else { continue };
        // The target's end is told whatever happens in its run (even a panic), so no other
        // worker waits for its host for ever.
        let _ends = TargetEnds {
            shared: Arc::clone(shared),
            target: i,
            clock,
        };
        let Some(target) = todo.get(i) else { return };
        let line = run_target(shared, target, limits, era, user_agent, auth_check, clock);
        if let Some(line) = line {
            write_line(shared, &line);
            if let Ok(mut s) = shared.0.lock() {
                s.targets_done += 1;
            }
        }
    }
}

/// Tells the politeness that a target ended when dropped.
struct TargetEnds {
    shared: Held,
    target: usize,
    clock: Instant,
}

impl Drop for TargetEnds {
    fn drop(&mut self) {
        let (lock, cv) = &*self.shared;
        if let Ok(mut s) = lock.lock() {
            s.polite
                .target_ended(self.target, self.clock.elapsed().as_secs_f64() * 1000.0);
        }
        cv.notify_all();
    }
}

/// Waits until the politeness lets a request to `host` go; returns the milliseconds waited, or
/// `None` when a signal came first or the target's `deadline` passed while waiting.
fn gate(
    shared: &(Mutex<Shared>, Condvar),
    host: &str,
    clock: Instant,
    deadline: Instant,
) -> Option<f64> {
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    let start = now();
    let (lock, cv) = shared;
    loop {
        if interrupt::caught().is_some() || Instant::now() >= deadline {
            return None;
        }
        let Ok(mut s) = lock.lock() else { return None };
        let wait = match s.polite.request(host, now()) {
            Gate::Go => return Some(now() - start),
            Gate::WaitUntil(at) => Duration::from_secs_f64(((at - now()) / 1000.0).max(0.0)),
            Gate::Wait => Duration::from_millis(250),
        };
        let _ = cv.wait_timeout(s, wait.min(Duration::from_millis(250)));
    }
}

fn ended(shared: &(Mutex<Shared>, Condvar), host: &str, clock: Instant) {
    let (lock, cv) = shared;
    if let Ok(mut s) = lock.lock() {
        s.polite
            .request_ended(host, clock.elapsed().as_secs_f64() * 1000.0);
    }
    cv.notify_all();
}

/// The host a request goes to, as politeness counts it.
fn host_of(url: &str) -> String {
    endpoint_for(url, false)
        .map(|ep| census::host_key(&ep))
        .unwrap_or_else(|_| url.to_string())
}

/// One target's run: the engine driven through the census plan, each request gated by the
/// politeness; then the OAuth doctor after a 401. `None` when a signal cut it (not written).
fn run_target(
    shared: &Held,
    target: &Target,
    limits: &Limits,
    era: &Era,
    user_agent: &str,
    auth_check: bool,
    clock: Instant,
) -> Option<CensusLine> {
    let started = Instant::now();
    let now = || started.elapsed().as_secs_f64() * 1000.0;
    let mut waited = 0.0;
    let mut requests = 0;
    // No token, no headers: a census sends nothing secret.
    let mut engine = Engine::new(EngineConfig::new(
        target.endpoint.clone(),
        &Credentials::default(),
        era.clone(),
        Mode::Review,
        limits.clone(),
        drive::seed(),
    ));
    let agent = http::agent();
    let creds = Credentials::default();
    // The target's deadline (--deadline): waiting to be polite counts against it too.
    let deadline = started + Duration::from_millis(limits.run_total_ms);
    let send = |mut out: mcp_triage::engine::Outgoing,
                until: Instant,
                waited: &mut f64|
     -> Option<mcp_triage::exchange::Exchange> {
        let host = host_of(&out.url);
        *waited += gate(shared, &host, clock, until.min(deadline))?;
        let run_left = Some(
            until
                .min(deadline)
                .saturating_duration_since(Instant::now()),
        );
        out.headers
            .push(("User-Agent".into(), user_agent.to_string()));
        // The host counts the request in flight until the connection is let go of, which may be
        // after the core has its answer (a stream read to its first event).
        let on_release = Arc::clone(shared);
        let released = move || ended(&on_release, &host, clock);
        Some(http::send_released(
            &agent,
            &out,
            &creds,
            None,
            limits,
            run_left,
            &mut |_| {},
            Some(Box::new(released)),
        ))
    };
    {
        // Each request goes when the politeness lets it, within the run's time and the target's
        // deadline; one that cannot goes back to the engine as never sent.
        let mut wire = |engine: &mut Engine, out: Outgoing, run_left: Option<Duration>| {
            let step = out.step;
            let until = run_left.map_or(deadline, |left| Instant::now() + left);
            let ex = if Instant::now() >= until.min(deadline) {
                http::not_sent(&out, &creds)
            } else {
                match send(out.clone(), until, &mut waited) {
                    Some(ex) => {
                        requests += 1;
                        ex
                    }
                    None => http::not_sent(&out, &creds),
                }
            };
            drive::hand_back(engine, step, ex);
        };
        // The census plan cannot fail to run, and a census writes no plan file.
        let _ = drive::drive(
            &mut engine,
            Unattended::Census,
            &drive::Talk::default(),
            drive::Sender::OneByOne(&mut wire),
        );
    }
    if interrupt::caught().is_some() {
        return None;
    }
    let mut report = engine.report();
    if auth_check
        && let Ok(mut doctor) = report.auth_doctor(&target.endpoint, Secrets::default(), None)
    {
        // Its fetches share the target's deadline; one it cannot send in time ends the doctor
        // with what it found so far (a signal: the target is not written).
        while let Some(out) = doctor.next_fetch() {
            let Some(ex) = send(out.clone(), deadline, &mut waited) else {
                if interrupt::caught().is_some() {
                    return None;
                }
                break;
            };
            requests += 1;
            doctor.answer(ex);
        }
        report.auth = Some(doctor.report());
    }
    Some(CensusLine::of_run(
        target,
        &report,
        Timings {
            elapsed_ms: now() as u64,
            waited_ms: waited as u64,
            requests,
        },
    ))
}

/// Progress on stderr about once a second, until every target is written or a signal comes.
fn progress_until_done(shared: &(Mutex<Shared>, Condvar), total: usize, clock: Instant) {
    let (lock, cv) = shared;
    loop {
        let Ok(s) = lock.lock() else { return };
        let done = s.targets_done;
        let finished = done >= total || s.workers_done;
        eprint!(
            "\r{}   ",
            census::progress_line(done, total, clock.elapsed().as_secs_f64() * 1000.0)
        );
        if finished || interrupt::caught().is_some() || s.failed_write.is_some() {
            eprintln!();
            return;
        }
        let _ = cv.wait_timeout(s, Duration::from_secs(1));
    }
}

/// `census report FILE [--html FILE] [--markdown FILE]`.
fn report(file: String, html: Option<String>, markdown: Option<String>) -> u8 {
    let f = match File::open(&file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("mcp-triage census report: cannot read {file}: {e}");
            return exit::USAGE;
        }
    };
    let mut tally = census::Tally::default();
    // Line by line: memory does not grow with the file. A line longer than a census line can be
    // is counted as unreadable without being kept.
    let mut reader = io::BufReader::new(f);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_capped_line(&mut reader, &mut buf) {
            Ok(0) => break,
            Ok(_) => tally.add(&String::from_utf8_lossy(&buf)),
            Err(e) => {
                eprintln!("mcp-triage census report: cannot read {file}: {e}");
                return exit::USAGE;
            }
        }
    }
    if tally.lines() == 0 {
        eprintln!("mcp-triage census report: {file} holds no census line");
        return exit::USAGE;
    }
    let outputs = [(markdown, tally.markdown()), (html, tally.html())];
    for (target, text) in &outputs {
        if let Some(path) = target {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("mcp-triage census report: cannot write {path}: {e}");
                return exit::LOCAL;
            }
            eprintln!("wrote {path}");
        }
    }
    if outputs[0].0.is_none() {
        print!("{}", outputs[0].1);
    }
    exit::OK
}

/// `census matrix ROWS.json [--svg FILE]`: the ecosystem matrix as Markdown (stdout) and SVG.
fn matrix(file: String, svg: Option<String>) -> u8 {
    let rows = match std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {file}: {e}"))
        .and_then(|t| census::read_rows(&t))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-triage census matrix: {e}");
            return exit::USAGE;
        }
    };
    if let Some(path) = svg
        && let Err(e) = std::fs::write(&path, census::matrix_svg(&rows))
    {
        eprintln!("mcp-triage census matrix: cannot write {path}: {e}");
        return exit::LOCAL;
    }
    print!("{}", census::matrix_markdown(&rows));
    exit::OK
}

/// The longest line the report reads whole (a census line is far smaller).
const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Reads one line into `buf`, keeping at most [`MAX_LINE_BYTES`] of it (the rest is skipped).
fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(total);
        }
        let (part, end) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let n = part.len();
        reader.consume(n);
        total += n;
        if end {
            return Ok(total);
        }
    }
}
