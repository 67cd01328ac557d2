//! `mcp-triage probe --stdio -- COMMAND ARGS…`: the stdio shell. It starts the server in its own
//! process group, writes the core's requests as lines on its stdin, hands stdout's bytes to the
//! core (`stdio::LineSplitter`, `stdio::Waiting`) and keeps stderr's tail (`stdio::StderrTail`);
//! deadlines, records and verdicts are the core's. At the end it closes stdin, gives the server a
//! grace period, then ends the whole group (`npx`, `uv` and `sh -c` leave grandchildren holding
//! stdout open) with the `kill` command: the workspace forbids `unsafe`. A signal (Ctrl-C, SIGTERM)
//! wakes the wait for an answer: the run stops there and the server gets the same teardown (a
//! second signal skips the grace periods and ends the group at once).

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::{Engine, EngineConfig, Outgoing, Step, exit};
use mcp_triage::exchange::{Exchange, ProcessExit};
use mcp_triage::limits::Limits;
use mcp_triage::redact::Credentials;
use mcp_triage::stdio::{Ending, Heard, Line, LineSplitter, StderrTail, Waiting};

use crate::run::drive::{self, ProbeArgs};
use crate::run::interrupt::{self, WakeGuard};

/// How long a server may take to exit after its stdin closes, before its group is terminated.
const GRACE: Duration = Duration::from_secs(2);
/// How long the group may take to go after SIGTERM, before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(1);
/// Stdout lines buffered between the reader thread and the run (the reader waits past it).
const QUEUE: usize = 256;

/// What the reader threads report.
enum Event {
    Line(Line),
    /// Stdout closed.
    Closed,
    /// The process ended.
    Exited(ProcessExit),
    /// Stderr closed: its tail is complete.
    StderrClosed,
    /// Every reader is done: nothing more will ever arrive.
    Gone,
    /// A signal arrived (see [`interrupt::caught`]).
    Signal,
}

/// A started server.
struct Server {
    pgid: u32,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<StderrTail>>,
    exit: Option<ProcessExit>,
    stdout_closed: bool,
    stderr_closed: bool,
    /// The exit and the rest of stderr were waited for once (a grandchild may hold stderr open).
    settled: bool,
    started: Instant,
    /// Wakes the waits on `events` when a signal arrives, for the server's whole life.
    _woken: WakeGuard,
}

fn exit_of(status: std::process::ExitStatus) -> ProcessExit {
    use std::os::unix::process::ExitStatusExt;
    ProcessExit {
        code: status.code(),
        signal: status.signal(),
    }
}

impl Server {
    fn start(command: &[String], limits: &Limits) -> std::io::Result<Server> {
        use std::os::unix::process::CommandExt;
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("no command"))?;
        let mut child: Child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: the end of the run ends every process the command started.
            .process_group(0)
            .spawn()?;
        let pgid = child.id();
        let (tx, events) = mpsc::sync_channel(QUEUE);
        // The reader threads hold the only strong senders, so when all have ended the channel
        // disconnects (`Event::Gone`); the waker reaches it while any lives.
        let tx = Arc::new(tx);
        let signal_tx = Arc::downgrade(&tx);
        let woken = interrupt::on_signal(move || {
            if let Some(tx) = signal_tx.upgrade() {
                let _ = tx.try_send(Event::Signal);
            }
        });
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        if let Some(out) = child.stdout.take() {
            let tx = Arc::clone(&tx);
            let splitter = LineSplitter::new(limits);
            thread::spawn(move || read_stdout(out, splitter, tx));
        }
        if let Some(mut err) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            let tx = Arc::clone(&tx);
            thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.push(&buf[..n]);
                    }
                }
                let _ = tx.send(Event::StderrClosed);
            });
        }
        let stdin = child.stdin.take();
        thread::spawn(move || {
            if let Ok(status) = child.wait() {
                let _ = tx.send(Event::Exited(exit_of(status)));
            }
        });
        Ok(Server {
            pgid,
            stdin,
            events,
            stderr,
            exit: None,
            stdout_closed: false,
            stderr_closed: false,
            settled: false,
            started: Instant::now(),
            _woken: woken,
        })
    }

    fn now(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn stderr_tail(&self) -> Option<String> {
        self.stderr.lock().ok().and_then(|t| t.text())
    }

    fn write_line(&mut self, body: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let ok = stdin
            .write_all(body.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .is_ok();
        if !ok {
            self.stdin = None;
        }
        ok
    }

    /// The next event before `until` (the server's clock); `None` when the time ran out. What
    /// the event says about the process is noted on the way.
    fn next(&mut self, until: f64) -> Option<Event> {
        let wait = Duration::from_micros(((until - self.now()).max(0.0) * 1000.0) as u64);
        let event = match self.events.recv_timeout(wait) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => Event::Gone,
        };
        match &event {
            Event::Exited(e) => self.exit = Some(*e),
            Event::Closed => self.stdout_closed = true,
            Event::StderrClosed => self.stderr_closed = true,
            Event::Gone => {
                self.stdout_closed = true;
                self.stderr_closed = true;
            }
            Event::Line(_) | Event::Signal => {}
        }
        Some(event)
    }

    /// After stdout closed: how the process ended and the rest of its stderr, waiting at most
    /// the grace period for both (once). Lines that still arrive are given to `waiting`.
    fn learn_exit(&mut self, mut waiting: Option<(&mut Waiting, &Limits)>) -> Option<ProcessExit> {
        let until = self.now() + GRACE.as_secs_f64() * 1000.0;
        while !self.settled && (self.exit.is_none() || !self.stderr_closed) {
            match self.next(until) {
                None | Some(Event::Gone) => break,
                Some(Event::Line(line)) => {
                    if let Some((w, limits)) = waiting.as_mut() {
                        let now = self.now();
                        w.hear(line, now, limits);
                    }
                }
                Some(Event::Closed | Event::Exited(_) | Event::StderrClosed | Event::Signal) => {}
            }
        }
        self.settled = true;
        self.exit
    }

    /// Sends `out` and waits for its answer; server requests are answered with the engine's replies
    /// (handed back through `replies`). `run_left` caps the wait.
    fn exchange(
        &mut self,
        engine: &mut Engine,
        out: &Outgoing,
        limits: &Limits,
        run_left: Option<Duration>,
        replies: &mut Vec<(Step, Exchange)>,
    ) -> Exchange {
        let started = self.now();
        let mut waiting = Waiting::new(out, started);
        let run_end = run_left.map(|d| started + d.as_secs_f64() * 1000.0);
        if run_left == Some(Duration::ZERO) {
            // Not sent: the run's time limit had passed (a deadline; the command line has no Cancel).
            return waiting.into_exchange(out, Ending::Deadline, started, None);
        }
        if interrupt::caught().is_some() {
            // Not sent: a signal interrupted the run before this request's turn.
            return waiting.into_exchange(out, Ending::Aborted, started, None);
        }
        if self.exit.is_some()
            || self.stdout_closed
            || !self.write_line(out.body.as_deref().unwrap_or(""))
        {
            let exit = self.learn_exit(None);
            let tail = self.stderr_tail();
            return waiting.into_exchange(out, Ending::NotWritten(exit), self.now(), tail);
        }
        if waiting.expects_nothing() {
            return waiting.into_exchange(out, Ending::Answered, self.now(), None);
        }
        let ending = loop {
            if interrupt::caught().is_some() {
                // The engine hears of the interrupt before this record, and says so in it.
                break Ending::Aborted;
            }
            let request_end = waiting.deadline_ms(limits);
            let until = run_end.map_or(request_end, |r| r.min(request_end));
            match self.next(until) {
                // The request's deadline or the run's: either is a deadline (the CLI has no Cancel).
                None => break Ending::Deadline,
                Some(Event::Line(line)) => match waiting.hear(line, self.now(), limits) {
                    Heard::Ours | Heard::Full => break Ending::Answered,
                    Heard::ServerRequest(request) => {
                        if let Some(reply) = engine.reply(&request) {
                            let sent = self.write_line(reply.body.as_deref().unwrap_or(""));
                            let how = if sent {
                                Ending::Answered
                            } else {
                                Ending::NotWritten(self.exit)
                            };
                            let ex = Waiting::new(&reply, self.now()).into_exchange(
                                &reply,
                                how,
                                self.now(),
                                None,
                            );
                            replies.push((reply.step, ex));
                        }
                    }
                    Heard::Other => {}
                },
                Some(Event::StderrClosed | Event::Signal) => {}
                Some(Event::Closed | Event::Exited(_) | Event::Gone) => {
                    // Lines still on their way belong to this answer: read them before judging.
                    let exit = self.learn_exit(Some((&mut waiting, limits)));
                    if waiting.answered() {
                        break Ending::Answered;
                    }
                    break Ending::Closed(exit);
                }
            }
        };
        // Whether the tail is evidence for this ending is the core's call.
        let tail = self.stderr_tail();
        waiting.into_exchange(out, ending, self.now(), tail)
    }

    /// Ends the server: stdin closed, a grace period, then SIGTERM and SIGKILL to its whole group.
    /// The same after an interrupt; a second signal skips the grace periods.
    fn stop(mut self) {
        self.stdin = None;
        let until = self.now() + GRACE.as_secs_f64() * 1000.0;
        while self.exit.is_none() && !interrupt::asked_twice() {
            if matches!(self.next(until), None | Some(Event::Gone)) {
                break;
            }
        }
        // The group outlives its leader when a wrapper started children: end them all.
        if group_alive(self.pgid) {
            signal_group(self.pgid, "TERM");
            let deadline = Instant::now() + TERM_GRACE;
            while group_alive(self.pgid) && Instant::now() < deadline && !interrupt::asked_twice() {
                thread::sleep(Duration::from_millis(20));
            }
            if group_alive(self.pgid) {
                signal_group(self.pgid, "KILL");
                // SIGKILL is not instant: the run is over when the group is gone (or only
                // zombies remain, which `kill -0` still counts, so the wait is bounded).
                let deadline = Instant::now() + TERM_GRACE;
                while group_alive(self.pgid) && Instant::now() < deadline {
                    thread::sleep(Duration::from_millis(20));
                }
            }
        }
        // Reap the leader when it was still running (the waiter thread reports it).
        let until = self.now() + TERM_GRACE.as_secs_f64() * 1000.0;
        while self.exit.is_none() {
            if matches!(self.next(until), None | Some(Event::Gone)) {
                break;
            }
        }
    }
}

fn read_stdout(
    mut out: std::process::ChildStdout,
    mut splitter: LineSplitter,
    tx: Arc<SyncSender<Event>>,
) {
    let mut buf = [0u8; 8192];
    loop {
        match out.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                for line in splitter.push(&buf[..n]) {
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    }
    if let Some(line) = splitter.finish() {
        let _ = tx.send(Event::Line(line));
    }
    let _ = tx.send(Event::Closed);
}

/// True while any process of the group exists (`kill -0`).
fn group_alive(pgid: u32) -> bool {
    Command::new("kill")
        .args(["-0", "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn signal_group(pgid: u32, signal: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Runs `probe --stdio`; returns the exit status.
pub(crate) fn probe(args: &ProbeArgs, limits: &Limits) -> u8 {
    let Some(command) = &args.stdio else {
        return exit::USAGE;
    };
    let ep = Endpoint::stdio(&command[0]);
    // No token and no headers over stdio: the secrets are the values it may print.
    let config = EngineConfig::new(
        ep.clone(),
        &Credentials::default(),
        args.era.clone(),
        args.mode(),
        limits.clone(),
        drive::seed(),
    )
    .with_secrets(&args.secret_values);
    let secrets = config.secrets.clone();
    let mut server = match Server::start(command, limits) {
        Ok(s) => s,
        Err(e) => {
            let missing = e.kind() == std::io::ErrorKind::NotFound;
            eprintln!(
                "mcp-triage probe: {}",
                mcp_triage::stdio::not_started(&command[0], &e.to_string(), missing)
            );
            return exit::UNREACHABLE;
        }
    };
    let mut engine = Engine::new(config);
    let talk = args.talk(&secrets);
    let result = drive::drive(
        &mut engine,
        args.unattended(),
        &talk,
        drive::Sender::OneByOne(&mut |engine, out, run_left| {
            let mut replies = Vec::new();
            let ex = server.exchange(engine, &out, limits, run_left, &mut replies);
            for (step, reply) in replies {
                drive::hand_back(engine, step, reply);
            }
            drive::hand_back(engine, out.step, ex);
        }),
    );
    server.stop();
    if let Err((code, msg)) = result {
        eprintln!("mcp-triage probe: {msg}");
        return code;
    }
    let report = engine.report();
    args.output
        .emit(&report, &ep, &secrets, mcp_triage::export::text)
}
