//! How a census stays polite, decided here and kept by the shell's clock: which target may start
//! (at most `concurrency` at once, never two on one host), and when a request to a host may go (at
//! most one in flight per host, each at least `delay_ms` after the last one to that host ended).
//! Sans-IO: the shell asks with the time, waits as told, and says when things end.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// The default number of targets run at once.
pub const DEFAULT_CONCURRENCY: usize = 16;
/// The most targets run at once.
pub const MAX_CONCURRENCY: usize = 256;
/// The default pause between two requests to one host, in milliseconds.
pub const DEFAULT_HOST_DELAY_MS: u64 = 1_000;

/// What the shell does next for a worker that wants a target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pick {
    /// Run this target (its index in the list handed to [`Polite::new`]).
    Run(usize),
    /// Nothing may start before this time: wait until then (or until something ends).
    WaitUntil(f64),
    /// Every host with targets left is busy: wait until something ends.
    Wait,
    /// Nothing is left to start.
    Done,
}

/// When a request may go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gate {
    /// Send it now; say [`Polite::request_ended`] when it ends.
    Go,
    /// Not before this time.
    WaitUntil(f64),
    /// Another request to this host is in flight: wait until something ends.
    Wait,
}

#[derive(Debug, Default)]
struct Host {
    /// A target of this host is running.
    owned: bool,
    /// A request to this host is in flight.
    in_flight: bool,
    /// The earliest time the next request may go.
    free_at: f64,
    /// Its targets not yet started, in list order.
    pending: VecDeque<usize>,
    /// It is in the ready heap.
    queued: bool,
}

/// The census's politeness: targets by host, hosts by when they are free.
#[derive(Debug)]
pub struct Polite {
    concurrency: usize,
    delay_ms: f64,
    hosts: Vec<Host>,
    ids: HashMap<String, usize>,
    host_of_target: Vec<usize>,
    /// Hosts with targets pending and no target running, by the time they are free, then order.
    ready: BinaryHeap<Reverse<(u64, usize)>>,
    running: usize,
}

/// Milliseconds as a key the heap orders by (times here are never negative).
fn key(ms: f64) -> u64 {
    ms.max(0.0) as u64
}

impl Polite {
    /// The targets' host keys in list order (their index is what [`Pick::Run`] gives back), the
    /// number run at once (1 to [`MAX_CONCURRENCY`]) and the pause between requests to one host.
    pub fn new(
        host_keys: impl IntoIterator<Item = String>,
        concurrency: usize,
        delay_ms: u64,
    ) -> Polite {
        let mut p = Polite {
            concurrency: concurrency.clamp(1, MAX_CONCURRENCY),
            delay_ms: delay_ms as f64,
            hosts: Vec::new(),
            ids: HashMap::new(),
            host_of_target: Vec::new(),
            ready: BinaryHeap::new(),
            running: 0,
        };
        for (target, host_key) in host_keys.into_iter().enumerate() {
            let h = p.host_id(host_key);
            p.host_of_target.push(h);
            p.hosts[h].pending.push_back(target);
        }
        for h in 0..p.hosts.len() {
            p.hosts[h].queued = true;
            p.ready.push(Reverse((0, h)));
        }
        p
    }

    fn host_id(&mut self, host_key: String) -> usize {
        let next = self.hosts.len();
        let id = *self.ids.entry(host_key).or_insert(next);
        if id == next {
            self.hosts.push(Host::default());
        }
        id
    }

    /// The next target a worker may start at `now_ms`.
    pub fn pick(&mut self, now_ms: f64) -> Pick {
        if self.running >= self.concurrency {
            return Pick::Wait;
        }
        while let Some(Reverse((at, h))) = self.ready.peek().copied() {
            let host = &self.hosts[h];
            // An entry whose host became busy or later since it was queued is put back right.
            let free_at = key(host.free_at);
            if host.in_flight {
                self.ready.pop();
                self.hosts[h].queued = false;
                continue;
            }
            if free_at > at {
                self.ready.pop();
                self.ready.push(Reverse((free_at, h)));
                continue;
            }
            if at > key(now_ms) {
                return Pick::WaitUntil(at as f64);
            }
            self.ready.pop();
            let host = &mut self.hosts[h];
            host.queued = false;
            let Some(target) = host.pending.pop_front() else {
                continue;
            };
            host.owned = true;
            self.running += 1;
            return Pick::Run(target);
        }
        if self.running > 0 || self.hosts.iter().any(|h| !h.pending.is_empty()) {
            Pick::Wait
        } else {
            Pick::Done
        }
    }

    /// The target `target` ended at `now_ms`: its host may take its next one.
    pub fn target_ended(&mut self, target: usize, now_ms: f64) {
        let Some(&h) = self.host_of_target.get(target) else {
            return;
        };
        self.running = self.running.saturating_sub(1);
        let host = &mut self.hosts[h];
        host.owned = false;
        host.free_at = host.free_at.max(now_ms);
        self.requeue(h);
    }

    fn requeue(&mut self, h: usize) {
        let host = &mut self.hosts[h];
        if !host.owned && !host.in_flight && !host.queued && !host.pending.is_empty() {
            host.queued = true;
            self.ready.push(Reverse((key(host.free_at), h)));
        }
    }

    /// May a request to `host_key` go at `now_ms`? On [`Gate::Go`] the host counts it as in
    /// flight until [`Polite::request_ended`].
    pub fn request(&mut self, host_key: &str, now_ms: f64) -> Gate {
        let h = self.host_id(host_key.to_string());
        let host = &mut self.hosts[h];
        if host.in_flight {
            return Gate::Wait;
        }
        if host.free_at > now_ms {
            return Gate::WaitUntil(host.free_at);
        }
        host.in_flight = true;
        Gate::Go
    }

    /// The request to `host_key` ended at `now_ms`: the next may go `delay_ms` later.
    pub fn request_ended(&mut self, host_key: &str, now_ms: f64) {
        let Some(&h) = self.ids.get(host_key) else {
            return;
        };
        let host = &mut self.hosts[h];
        host.in_flight = false;
        host.free_at = now_ms + self.delay_ms;
        self.requeue(h);
    }

    /// Targets running now.
    pub fn running(&self) -> usize {
        self.running
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn hosts(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn never_two_targets_of_one_host_and_never_more_than_the_concurrency() {
        let mut p = Polite::new(hosts(&["a:1", "a:1", "b:1", "c:1"]), 2, 1000);
        assert_eq!(p.pick(0.0), Pick::Run(0));
        assert_eq!(p.pick(0.0), Pick::Run(2), "a:1 is taken: the next host");
        assert_eq!(p.pick(0.0), Pick::Wait, "two running");
        p.target_ended(2, 5.0);
        assert_eq!(p.pick(5.0), Pick::Run(3));
        p.target_ended(3, 6.0);
        assert_eq!(p.pick(6.0), Pick::Wait, "a:1's second waits for its first");
        p.target_ended(0, 7.0);
        assert_eq!(p.pick(7.0), Pick::Run(1));
        p.target_ended(1, 8.0);
        assert_eq!(p.pick(8.0), Pick::Done);
    }

    #[test]
    fn requests_to_one_host_go_one_at_a_time_and_the_delay_apart() {
        let mut p = Polite::new(hosts(&["a:1", "a:1"]), 4, 1000);
        assert_eq!(p.request("a:1", 0.0), Gate::Go);
        assert_eq!(p.request("a:1", 1.0), Gate::Wait, "one in flight");
        assert_eq!(p.request("as:443", 1.0), Gate::Go, "another host is free");
        p.request_ended("a:1", 10.0);
        assert_eq!(p.request("a:1", 500.0), Gate::WaitUntil(1010.0));
        assert_eq!(p.request("a:1", 1010.0), Gate::Go);
        p.request_ended("a:1", 1020.0);
        // A target of a host whose last request just ended waits the delay too.
        assert_eq!(p.pick(1020.0), Pick::WaitUntil(2020.0));
        assert_eq!(p.pick(2020.0), Pick::Run(0));
    }

    #[test]
    fn concurrency_is_clamped() {
        let mut p = Polite::new(hosts(&["a:1", "b:1"]), 0, 0);
        assert_eq!(p.pick(0.0), Pick::Run(0));
        assert_eq!(p.pick(0.0), Pick::Wait, "at least one, at most the cap");
        assert_eq!(p.running(), 1);
    }
}
