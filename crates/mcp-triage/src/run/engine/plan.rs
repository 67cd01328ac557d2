//! The plan of probes A to D: choosing calls, the consent step, Review first's edits, and how a run
//! is cancelled, interrupted or ended.

use crate::vocabulary::probe::Check;
use serde_json::json;

use super::config::Mode;
use super::state::{CatalogueState, ConsentState, Engine};
use crate::run::catalogue::{self, Choice, SkipReason, ToolInfo};
use crate::run::consent::{
    self, CHOSEN_BY_YOU, ConsentPolicy, ConsentRow, PlanEntry, PlannedProbe, ProbeEdit, Proposal,
};
use crate::vocabulary::cause::{Interrupt, RunEnd};
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::{Outgoing, Step};

impl Engine {
    pub(super) fn plan_a(&mut self) {
        if self.planned[0].choice.is_some() || self.planned[0].skipped.is_some() {
            return;
        }
        let name = catalogue::unknown_tool_name(self.cfg.random, &self.tools);
        let choice = Choice {
            tool: name,
            arguments: json!({}),
            why: "a name that is certainly not in the catalogue".into(),
        };
        self.set_choice(ProbeName::A, Ok(choice));
    }

    /// For each of B, C and D without a declared read-only tool, a proposal for the user's OK; asks
    /// when there is at least one.
    pub(super) fn propose(&mut self) {
        for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
            if !self.planned[p.index()]
                .skipped
                .is_some_and(SkipReason::no_declared_read_only_tool)
            {
                continue;
            }
            let Some(choice) = catalogue::propose(p, &self.tools) else {
                continue;
            };
            let id = self.id();
            let payload = self.request_body(
                Some(id),
                "tools/call",
                json!({"name": choice.tool, "arguments": choice.arguments}),
            );
            let tool = self.tools.iter().find(|t| t.name == choice.tool).cloned();
            self.proposals[p.index()] = Some(Proposal {
                choice,
                id,
                payload,
                tool,
            });
        }
        if self.proposals.iter().any(Option::is_some) {
            self.consent = ConsentState::Asking;
        }
    }

    /// The consent step's rows: every probe of B, C and D with no declared read-only tool.
    pub fn consent_rows(&self) -> Vec<ConsentRow> {
        [ProbeName::B, ProbeName::C, ProbeName::D]
            .into_iter()
            .filter(|p| {
                self.proposals[p.index()].is_some()
                    || self.planned[p.index()]
                        .skipped
                        .is_some_and(SkipReason::no_declared_read_only_tool)
            })
            .map(|p| ConsentRow {
                probe: p,
                proposal: self.proposals[p.index()].clone(),
                reason: self.planned[p.index()].skipped,
            })
            .collect()
    }

    pub(super) fn waiting_for_consent(&self) -> bool {
        self.consent == ConsentState::Asking && self.ended.is_none() && !self.connect_failed
    }

    /// The plan this run would send, as a plan file's entries for a person to read and commit:
    /// each probe's declared read-only choice, else the consent step's proposal (its `opt_in`
    /// false: whoever commits the plan sets it to agree), else skipped with nothing to call.
    pub fn proposed_plan(&self) -> Vec<crate::run::plan_file::PlanEntry> {
        ProbeName::ALL
            .iter()
            .map(|p| {
                let planned = &self.planned[p.index()];
                let choice = planned
                    .choice
                    .as_ref()
                    .filter(|_| planned.skipped.is_none())
                    .or_else(|| self.proposals[p.index()].as_ref().map(|x| &x.choice));
                crate::run::plan_file::PlanEntry {
                    probe: *p,
                    skip: choice.is_none(),
                    tool: choice.map(|c| c.tool.clone()),
                    arguments: choice.map(|c| c.arguments.clone()),
                    opt_in: false,
                }
            })
            .collect()
    }

    /// True when Quick check waits at the consent step and what the step rests on is in: the
    /// catalogue and probe A (and any reply to the server). The shell shows the step then, while
    /// the transport checks may still be in flight: a GET check whose stream stays open waits up
    /// to its first-event window, and a person need not wait with it.
    pub(super) fn awaiting_consent(&self) -> bool {
        self.waiting_for_consent() && self.in_flight.iter().all(Step::is_transport_check)
    }

    /// The user's answer: "Run with these" (`true`) calls the proposals, "Only probe A" (`false`)
    /// skips them. The run deadline restarts: the time spent reading does not count.
    pub fn answer_consent(&mut self, run_them: bool) {
        if self.consent != ConsentState::Asking {
            return;
        }
        for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
            let Some(proposal) = self.proposals[p.index()].clone() else {
                continue;
            };
            if run_them {
                let mut choice = proposal.choice;
                choice.why.push_str("; you agreed");
                self.set_choice_as(p, Ok(choice), proposal.id);
            } else {
                self.set_choice(p, Err(SkipReason::SkippedByUser));
            }
        }
        self.consent = ConsentState::Answered(run_them);
        self.started_ms = None;
    }

    /// The consent step's answer when nobody is there: the proposals are not called, and each
    /// probe keeps why it had no tool (none is declared read-only), which is not a person's skip.
    pub(super) fn decline_without_a_person(&mut self) {
        if self.consent != ConsentState::Asking {
            return;
        }
        self.consent = ConsentState::Answered(false);
        self.started_ms = None;
    }

    pub(super) fn set_choice(&mut self, probe: ProbeName, choice: Result<Choice, SkipReason>) {
        let id = self.id();
        self.set_choice_as(probe, choice, id);
    }

    pub(super) fn set_choice_as(
        &mut self,
        probe: ProbeName,
        choice: Result<Choice, SkipReason>,
        id: i64,
    ) {
        let risk = choice.as_ref().ok().and_then(|c| {
            self.tools
                .iter()
                .find(|t| t.name == c.tool)
                .map(ToolInfo::risk)
        });
        let payload = choice.as_ref().ok().map(|c| {
            self.request_body(
                Some(id),
                "tools/call",
                json!({"name": c.tool, "arguments": c.arguments}),
            )
        });
        let p = &mut self.planned[probe.index()];
        p.id = id;
        p.risk = risk;
        p.payload = payload;
        match choice {
            Ok(c) => {
                p.choice = Some(c);
                p.skipped = None;
            }
            Err(reason) => {
                p.choice = None;
                p.skipped = Some(reason);
            }
        }
    }

    pub(super) fn send_probe(&mut self, probe: ProbeName, wave: u32, send: &mut Vec<Outgoing>) {
        let step = Step::Probe(probe);
        if self.was_sent(step) {
            return;
        }
        let p = self.planned[probe.index()].clone();
        if p.skipped.is_some() {
            return;
        }
        let Some(choice) = p.choice else { return };
        let out = self.outgoing(
            step,
            wave,
            "tools/call",
            Some(p.id),
            json!({"name": choice.tool, "arguments": choice.arguments}),
            Some(&choice.tool),
        );
        send.push(out);
    }

    pub(super) fn waiting_for_review(&self) -> bool {
        self.cfg.mode == Mode::Review
            && !self.review_applied
            && self.ended.is_none()
            && !self.connect_failed
            && self.catalogue != CatalogueState::Pending
    }

    /// True when Review first is waiting for the user's edits.
    pub(super) fn awaiting_review(&self) -> bool {
        self.waiting_for_review()
            && self
                .in_flight
                .iter()
                .all(|s| matches!(s, Step::Check(Check::Get) | Step::Check(Check::NoToken)))
    }

    /// The plan as it stands (choices, payloads, skip reasons).
    pub fn plan(&self) -> &[PlannedProbe; 4] {
        &self.planned
    }

    /// The catalogue, with each tool's risk.
    pub fn tools(&self) -> &[ToolInfo] {
        &self.tools
    }

    /// The one rule for calling a tool the user named (see `consent::needs_opt_in`).
    pub fn needs_opt_in(&self, tool: &str) -> Option<&'static str> {
        consent::needs_opt_in(&self.tools, self.catalogue_read_whole(), tool)
    }

    /// `tools/list` was read to its end: a name not in it is certainly not a tool of the server.
    pub(super) fn catalogue_read_whole(&self) -> bool {
        self.catalogue == CatalogueState::Complete
    }

    /// What Review first says under a tool name the user typed that `tools/list` did not list (see
    /// `consent::unlisted_tool_note`).
    pub fn unlisted_tool_note(&self, tool: &str) -> Option<&'static str> {
        consent::unlisted_tool_note(&self.tools, self.catalogue_read_whole(), tool)
    }

    /// Applies a plan's rows (the page's review form, a committed plan file) as `policy` reads
    /// them, and lets the run continue: [`ConsentPolicy::edits`], then [`Engine::apply_review`].
    pub fn apply_plan(&mut self, policy: ConsentPolicy, rows: &[PlanEntry]) -> Result<(), String> {
        let edits = policy.edits(&self.planned, rows);
        self.apply_edits(&edits, policy.keeps_file_opt_in())
    }

    /// Applies the user's edits (Review first) and lets the run continue.
    pub fn apply_review(&mut self, edits: &[(ProbeName, ProbeEdit)]) -> Result<(), String> {
        self.apply_edits(edits, false)
    }

    /// Applies edits, a refusal saying how to agree where they came from (`from_file`: a
    /// committed plan file, else a person's form).
    fn apply_edits(
        &mut self,
        edits: &[(ProbeName, ProbeEdit)],
        from_file: bool,
    ) -> Result<(), String> {
        for (probe, edit) in edits {
            consent::allowed(*probe, edit, |tool| self.needs_opt_in(tool), from_file)?;
        }
        // In probe order, whatever order the edits came in (a plan file lists them as its author
        // wrote them): each change takes the next JSON-RPC id, so the same plan gives the same
        // requests, and a replay of its report the same report.
        let in_order = ProbeName::ALL
            .iter()
            .flat_map(|p| edits.iter().filter(move |(probe, _)| probe == p));
        for (probe, edit) in in_order {
            match edit {
                ProbeEdit::Keep => {}
                ProbeEdit::Skip => self.set_choice(*probe, Err(SkipReason::SkippedByUser)),
                ProbeEdit::Replace {
                    tool, arguments, ..
                } => self.set_choice(
                    *probe,
                    Ok(Choice {
                        tool: tool.clone(),
                        arguments: arguments.clone(),
                        why: CHOSEN_BY_YOU.into(),
                    }),
                ),
            }
        }
        self.review_applied = true;
        // The time the user spent reading the plan does not count against the run deadline.
        self.started_ms = None;
        Ok(())
    }

    /// Cancels the run: nothing more is sent; the shell aborts what is in flight.
    pub fn cancel(&mut self) {
        self.end(RunEnd::Cancelled);
    }

    /// Secrets that came during the run (a renewed sign-in's tokens): every exchange handed in
    /// from now on is redacted with them too.
    pub fn add_secrets(&mut self, more: &[String]) {
        self.cfg.secrets = self.cfg.secrets.and(more);
    }

    /// A signal interrupted the run (the command line's Ctrl-C or SIGTERM): nothing more is sent,
    /// the shell aborts what is in flight and hands it back, and each such record says the run
    /// was interrupted. A run that had already ended keeps its ending.
    pub fn interrupt(&mut self, by: Interrupt) {
        if self.ended.is_none() {
            self.interrupted_by = Some(by);
        }
        self.end(RunEnd::Interrupted);
    }

    pub(super) fn end(&mut self, why: RunEnd) {
        if self.ended.is_none() {
            self.ended = Some(why);
        }
        for p in self.planned.iter_mut() {
            if p.skipped.is_none() && !self.sent.iter().any(|(s, _)| *s == Step::Probe(p.probe)) {
                p.skipped = Some(SkipReason::RunEnded);
            }
        }
    }

    /// Why the run ended, once it has.
    pub fn ended(&self) -> Option<RunEnd> {
        self.ended
    }
}
