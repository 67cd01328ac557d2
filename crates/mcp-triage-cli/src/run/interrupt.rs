//! Ctrl-C and SIGTERM for `probe`: a signal does not end the process, it becomes an event the run
//! waits on like any other. `signal-hook` (a thread reading its self-pipe) catches SIGINT and
//! SIGTERM; this module notes the first one and wakes whatever waits at that moment (an HTTP read,
//! a stdio server's answer). What the run does next is the core's (`Engine::interrupt`), and the
//! exit status too (`exit::TABLE`).

use std::sync::{Mutex, MutexGuard, OnceLock};

use mcp_triage::cause::Interrupt;

/// Something to call when a signal arrives (it must not block: it only queues a wake-up).
type Waker = Box<dyn Fn() + Send>;

#[derive(Default)]
struct State {
    /// The first signal caught.
    caught: Option<Interrupt>,
    /// How many signals were caught (a second one hurries the teardown).
    count: u32,
    /// What waits now, by registration number.
    wakers: Vec<(u64, Waker)>,
    next: u64,
}

fn state() -> MutexGuard<'static, State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    let lock = STATE.get_or_init(|| Mutex::new(State::default())).lock();
    // A waker that panicked cannot leave the state half-written (it is called after the update).
    lock.unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Catches SIGINT and SIGTERM from now on (once a process; later calls do nothing).
#[cfg(not(unix))]
pub(crate) fn install() -> Result<(), String> {
    Err("signals are caught on Unix systems only".into())
}

/// Catches SIGINT and SIGTERM from now on (once a process; later calls do nothing).
#[cfg(unix)]
pub(crate) fn install() -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = Signals::new([SIGINT, SIGTERM])
        .map_err(|e| format!("cannot catch SIGINT and SIGTERM: {e}"))?;
    let _ = INSTALLED.set(());
    std::thread::spawn(move || {
        for signal in signals.forever() {
            note(if signal == SIGTERM {
                Interrupt::Sigterm
            } else {
                Interrupt::Sigint
            });
        }
    });
    Ok(())
}

#[cfg_attr(not(unix), allow(dead_code))]
fn note(by: Interrupt) {
    let mut s = state();
    s.caught.get_or_insert(by);
    s.count += 1;
    for (_, wake) in &s.wakers {
        wake();
    }
}

/// The first signal caught, if any.
pub(crate) fn caught() -> Option<Interrupt> {
    state().caught
}

/// True once a second signal arrived: the user asks twice, so the teardown skips its grace.
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) fn asked_twice() -> bool {
    state().count >= 2
}

/// While the returned guard lives, `wake` is called on every signal (at once when one was already
/// caught), so a wait on a channel returns and looks at [`caught`].
pub(crate) fn on_signal(wake: impl Fn() + Send + 'static) -> WakeGuard {
    let mut s = state();
    let id = s.next;
    s.next += 1;
    if s.caught.is_some() {
        wake();
    }
    s.wakers.push((id, Box::new(wake)));
    WakeGuard(id)
}

/// Unregisters its waker when dropped.
pub(crate) struct WakeGuard(u64);

impl Drop for WakeGuard {
    fn drop(&mut self) {
        state().wakers.retain(|(id, _)| *id != self.0);
    }
}
