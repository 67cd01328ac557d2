//! The run loop: what to send at each poll, the deadline, connect per era, and the closing DELETE.

use crate::vocabulary::header;
use crate::vocabulary::probe::Check;
use serde_json::json;

use super::config::{EngineConfig, Era, Mode, Poll};
use super::state::{CatalogueState, Engine};
use crate::vocabulary::cause::RunEnd;
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::{Outgoing, Step};

impl Engine {
    /// When the shell must call [`Engine::poll`] again even if nothing arrives: the run's
    /// deadline (on the shell's clock, once the run has started and until it has ended). A shell
    /// arms one timer for it, as for a request's `crate::decode::reader::RequestClock`.
    pub fn poll_timeout(&self) -> Option<f64> {
        if self.ended.is_some() {
            return None;
        }
        self.started_ms
            .map(|s| s + self.cfg.limits.run_total_ms as f64 + 1.0)
    }

    /// Requests to send now. `now_ms` is the shell's clock; the run deadline is checked against it.
    ///
    /// The shell contract (in the docs of `run/engine/mod.rs`): call `poll` at the start, after
    /// every [`Engine::handle`], after the user answers a review or consent step, and when
    /// [`Engine::poll_timeout`] comes; send every request it returns as it is, abort everything in
    /// flight when `abort_all`, and stop when `done`.
    pub fn poll(&mut self, now_ms: f64) -> Poll {
        let started = *self.started_ms.get_or_insert(now_ms);
        if self.ended.is_none() && now_ms - started > self.cfg.limits.run_total_ms as f64 {
            self.end(RunEnd::DeadlinePassed);
            return Poll {
                send: Vec::new(),
                abort_all: true,
                done: self.in_flight.is_empty(),
            };
        }
        let mut send = Vec::new();
        if self.ended.is_some() {
            return Poll {
                send,
                abort_all: false,
                done: self.in_flight.is_empty(),
            };
        }

        let base_wave = self.connect(&mut send);
        if self.speaking_modern.is_none() {
            // Auto: wait for discover to say which era.
            return self.finish_poll(send);
        }
        if self.connect_failed {
            // A GET tells an endpoint of the old HTTP+SSE transport (2024-11-05) from a broken one.
            if !self.was_sent(Step::Check(Check::Get)) && !self.stdio() {
                send.push(self.get_request(base_wave + 1));
            } else if self.in_flight.is_empty() {
                self.end(RunEnd::ConnectFailed);
            }
            return self.finish_poll(send);
        }

        // After connecting: when may the catalogue and probe A go out, and in which wave?
        let list_wave = if self.modern() {
            if self.cfg.era == Era::Auto {
                Some(2)
            } else {
                Some(1)
            }
        } else if self.negotiated.is_some() {
            let init_wave = self.wave_of(Step::Initialize).unwrap_or(1);
            if !self.was_sent(Step::Initialized) {
                let w = init_wave + 1;
                send.push(self.outgoing(
                    Step::Initialized,
                    w,
                    "notifications/initialized",
                    None,
                    json!({}),
                    None,
                ));
            }
            if self.session.is_some() {
                // Some servers refuse requests that overtake notifications/initialized.
                self.is_done(Step::Initialized).then_some(init_wave + 2)
            } else {
                Some(init_wave + 1)
            }
        } else {
            None
        };
        let Some(list_wave) = list_wave else {
            return self.finish_poll(send);
        };

        if !self.was_sent(Step::ToolsList(1)) {
            let id = self.id();
            send.push(self.outgoing(
                Step::ToolsList(1),
                list_wave,
                "tools/list",
                Some(id),
                json!({}),
                None,
            ));
            if !self.was_sent(Step::Check(Check::Get)) && !self.stdio() {
                send.push(self.get_request(list_wave));
            }
            self.plan_a();
        }
        if let Some(cursor) = self.cursor.take() {
            let page = self.pages + 1;
            let id = self.id();
            send.push(self.outgoing(
                Step::ToolsList(page),
                list_wave,
                "tools/list",
                Some(id),
                json!({"cursor": cursor}),
                None,
            ));
        }
        let review_wait = self.cfg.mode == Mode::Review && !self.review_applied;
        if !review_wait {
            self.send_probe(ProbeName::A, list_wave, &mut send);
        }
        if self.catalogue != CatalogueState::Pending && !review_wait {
            for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
                self.send_probe(p, list_wave + 1, &mut send);
            }
        }
        // Close the session once everything else is done: not while the consent step may still
        // send B, C and D on it.
        let probes_done = !self.waiting_for_consent()
            && ProbeName::ALL.iter().all(|p| {
                let pl = &self.planned[p.index()];
                pl.skipped.is_some() || self.is_done(Step::Probe(*p))
            });
        if probes_done
            && self.session.is_some()
            && !self.was_sent(Step::Delete)
            && self.in_flight.is_empty()
        {
            let mut del = self.outgoing(Step::Delete, 0, "DELETE", None, json!({}), None);
            del.method = "DELETE";
            del.body = None;
            del.headers.retain(|(k, _)| k != "Content-Type");
            send.push(del);
        }
        self.finish_poll(send)
    }

    /// The run's connect requests, the first its first [`Engine::poll`] sends: the connect request
    /// of `cfg`'s era and the no-token check. For a legacy or auto run that is the whole first
    /// poll; a 2026-07-28 run's first poll goes on with the tool list, the GET check and probe A.
    /// A shell that starts a run before its engine is there (the page's boot module, at the click)
    /// sends these: the decision is the one `poll` makes, without the rest of the run in the
    /// shell's code.
    pub fn first_requests(cfg: EngineConfig) -> Vec<Outgoing> {
        let mut engine = Engine::new(cfg);
        let mut send = Vec::new();
        engine.connect(&mut send);
        send
    }

    /// Connect: the connect request of the run's era (discover or initialize) and the no-token
    /// check, each once. Returns the connect request's wave.
    pub(super) fn connect(&mut self, send: &mut Vec<Outgoing>) -> u32 {
        if self.speaking_modern.is_none() {
            self.speaking_modern = match self.cfg.era {
                Era::Modern => Some(true),
                Era::Legacy(_) => Some(false),
                Era::Auto => None,
            };
        }
        let connect_step = if self.modern() || self.speaking_modern.is_none() {
            Step::Discover
        } else {
            Step::Initialize
        };
        let base_wave = if self.cfg.era == Era::Auto && connect_step == Step::Initialize {
            2
        } else {
            1
        };
        if !self.was_sent(connect_step) {
            let id = self.id();
            let (method, params) = self.connect_params();
            send.push(self.outgoing(connect_step, base_wave, method, Some(id), params, None));
        }
        // The no-token check repeats the connect request of the run's era without the token; auto
        // sends it once discover has said which era (a bare discover to a legacy server would
        // report "method not found", not how it treats a missing token).
        if self.speaking_modern.is_some()
            && self.cfg.has_token
            && !self.stdio()
            && !self.was_sent(Step::Check(Check::NoToken))
        {
            let id = self.id();
            let wave = if self.cfg.era == Era::Auto && connect_step == Step::Discover {
                base_wave + 1
            } else {
                base_wave
            };
            let (method, params) = self.connect_params();
            let mut out = self.outgoing(
                Step::Check(Check::NoToken),
                wave,
                method,
                Some(id),
                params,
                None,
            );
            out.with_token = false;
            send.push(out);
        }
        base_wave
    }

    pub(super) fn finish_poll(&mut self, send: Vec<Outgoing>) -> Poll {
        let done = send.is_empty()
            && self.in_flight.is_empty()
            && !self.waiting_for_review()
            && !self.waiting_for_consent();
        if done && self.ended.is_none() {
            self.ended = Some(RunEnd::Complete);
        }
        Poll {
            send,
            abort_all: false,
            done,
        }
    }

    pub(super) fn get_request(&mut self, wave: u32) -> Outgoing {
        let mut headers = self.headers("", None);
        headers.retain(|(k, _)| k != "Content-Type" && k != header::METHOD);
        for h in headers.iter_mut() {
            if h.0 == "Accept" {
                h.1 = "text/event-stream".into();
            }
        }
        self.sent.push((Step::Check(Check::Get), wave));
        self.in_flight.push(Step::Check(Check::Get));
        Outgoing {
            step: Step::Check(Check::Get),
            method: "GET",
            url: self.cfg.endpoint.url.clone(),
            headers,
            body: None,
            with_token: true,
            expect_id: None,
            headers_only: true,
            intent: Step::Check(Check::Get).intent().map(String::from),
            wave,
        }
    }
}
