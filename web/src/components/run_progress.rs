//! Per-request progress while a run is going, the Cancel button, and the run's event log.

use leptos::prelude::*;

use crate::state::run::{AppState, Phase};

/// Progress and Cancel.
#[component]
pub fn RunProgress() -> impl IntoView {
    let state = expect_context::<AppState>();
    let running = move || matches!(state.phase.get(), Phase::Run(p) if p.is_moving());
    view! {
        <section class="progress" data-testid="progress" aria-label="Progress" aria-live="polite">
            <h2>{move || match state.phase.get() {
                Phase::Run(p) => p.heading(),
                Phase::Form => "Run",
            }}</h2>
            // While the run moves only: a disabled Cancel after the end offers nothing.
            <button type="button" data-testid="cancel" hidden=move || !running() on:click=move |_| state.cancel()>"Cancel (Esc)"</button>
            // The time gone against the run's limit, drawn by CSS over the limit (no timer): the
            // clock is made when the run starts moving, as the core's deadline is.
            {move || running().then(|| state.run_clock()).flatten().map(|(secs, line)| view! {
                <p class="clock" data-testid="run-clock">
                    <span class="bar" aria-hidden="true" style:animation-duration=format!("{secs}s")></span>
                    {line}
                </p>
            })}
            <ol class="steps">
                {move || state.steps.get().into_iter().map(|(step, progress)| {
                    let (symbol, word) = (progress.symbol(), progress.words());
                    view! { <li data-testid="step"><span aria-hidden="true">{symbol}" "</span>{step.label()}" — "<span class="state">{word}</span></li> }.into_any()
                }).collect_view()}
            </ol>
            // Below the steps, so what it folds is only the log.
            <details class="log">
                <summary>"Run log"</summary>
                <ol data-testid="run-log">{move || state.log.get().into_iter().map(|l| view! { <li>{l}</li> }.into_any()).collect_view()}</ol>
            </details>
        </section>
    }.into_any()
}
