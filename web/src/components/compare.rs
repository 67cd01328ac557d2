//! "Compare with…": another run (a share link, a baseline file, or its text) read and compared
//! with the one on screen by the core (`compare`), the comparison drawn side by side per probe,
//! and a link that carries both runs, or why there is none and this run's baseline file to keep
//! instead. Nothing is sent or stored.

use leptos::prelude::*;
use mcp_triage::compare::{self, Change, Comparison, RowComparison};
use mcp_triage::share::{self, Share};
use wasm_bindgen::JsCast;

use super::copy_button::CopyButton;
use super::export_bar::download;
use super::markup::{Node, el, render};
use super::share_panel::page_base;

/// The longest text read from the box or a file (a baseline or a report; the core caps it too).
const MAX_INPUT: usize = compare::MAX_RUN_FILE;

fn mark(change: Change) -> (&'static str, &'static str) {
    match change {
        Change::Better => ("better", "better"),
        Change::Worse => ("worse", "worse"),
        Change::Mixed => ("mixed", "better and worse"),
        Change::Neutral => ("neutral", ""),
    }
}

fn row_markup(row: &RowComparison) -> Node {
    let (class, said) = mark(row.overall);
    let changes: Vec<Node> = row
        .changes
        .iter()
        .map(|c| {
            let (cls, word) = mark(c.change);
            el("li")
                .class(format!("change {cls}"))
                .child(el("code").text(c.field.as_str()))
                .text(" ")
                .shown(c.before.clone(), 200)
                .text(" → ")
                .shown(c.after.clone(), 200)
                .child_if((!word.is_empty()).then(|| el("strong").text(format!(" {word}"))))
                .into()
        })
        .collect();
    let changes: Node = if changes.is_empty() {
        el("p").class("help").text("unchanged").into()
    } else {
        el("ul").children(changes).into()
    };
    el("tr")
        .class(format!("compare-row {class}"))
        .testid(format!("compare-row-{}", row.step))
        .child(el("th").text(row.title.clone()).child_if(
            (!said.is_empty()).then(|| el("span").class(format!("badge {class}")).text(said)),
        ))
        .child(el("td").child(el("code").shown(row.before.clone(), 300)))
        .child(el("td").child(el("code").shown(row.after.clone(), 300)))
        .child(el("td").child(changes))
        .into()
}

/// A comparison as the page draws it: the summary first, what differs between the runs, the
/// score, then each probe before and after.
pub fn comparison_markup(c: &Comparison) -> Node {
    let (score_class, _) = mark(c.score_change);
    el("section")
        .class("comparison")
        .testid("comparison")
        .named("Comparison with another run")
        .child(
            el("p")
                .class("finding")
                .testid("comparison-summary")
                .shown(c.summary.clone(), 2000),
        )
        .children(
            c.context
                .iter()
                .map(|line| -> Node { el("p").class("note").shown(line.clone(), 600).into() }),
        )
        .child(
            el("p")
                .class(format!("score {score_class}"))
                .testid("comparison-score")
                .text(format!(
                    "{} better, {} worse · score {} → {}",
                    c.better, c.worse, c.score_before, c.score_after
                )),
        )
        .child(
            el("table").class("compare-table").children([
                el("thead")
                    .child(
                        el("tr")
                            .child(el("th").text("Probe"))
                            .child(el("th").text("Before (the other run)"))
                            .child(el("th").text("After (this run)"))
                            .child(el("th").text("What changed")),
                    )
                    .into(),
                el("tbody").children(c.rows.iter().map(row_markup)).into(),
            ]),
        )
        .into()
}

/// The comparison a v13 link carries (the run it holds against the run inside it), if any.
pub fn carried(link: &Share) -> Option<Comparison> {
    link.compare
        .as_deref()
        .map(|before| compare::compare(before, link))
}

/// How another run is read: links and baseline files (a share view), or JSON reports too (the
/// tool's results, which hold the replay).
pub type Reader = fn(&str) -> Result<Share, mcp_triage::problem::Problem>;

/// What the tool's results add: a link with both runs, and this run as a baseline file. A share
/// view has neither (it holds no link encoder: its link already is the run to keep).
#[derive(Clone, Copy)]
pub struct Keep {
    /// Makes the link with both runs.
    pub link: fn(&Share, &Share, &str) -> Result<share::Link, share::ShareError>,
    /// A run as a baseline file's text.
    pub baseline: fn(&Share) -> String,
}

/// The tool's results: reports read (replayed), the link with both runs, the baseline file.
pub const FULL: (Reader, Option<Keep>) = (
    compare::read_run,
    Some(Keep {
        link: share::comparison_link,
        baseline: compare::baseline_json,
    }),
);

/// The panel: the other run in, the comparison out. `current` makes the run on screen as a link
/// holds it, once, when a comparison or a baseline first needs it: for a run of large answers that
/// takes a while, and the results are drawn without waiting for it.
#[component]
pub fn ComparePanel(
    current: Callback<(), Share>,
    with: (Reader, Option<Keep>),
    #[prop(optional)] open: bool,
) -> impl IntoView {
    let (read, keep) = with;
    let open = RwSignal::new(open);
    let input = RwSignal::new(String::new());
    let made = StoredValue::new(None::<Share>);
    let current = move || {
        if made.with_value(Option::is_none) {
            made.set_value(Some(current.run(())));
        }
        made
    };
    // The other run as the core read it, or what was wrong with it.
    type Outcome = Result<(Comparison, Option<Result<String, String>>), String>;
    let result = RwSignal::new(None::<Outcome>);
    let run_compare = move |text: String| {
        let outcome = read(&text).map_err(|p| p.message).and_then(|before| {
            current().with_value(|after| {
                let after = after.as_ref().ok_or("This run could not be read.")?;
                let link = keep.map(|k| {
                    (k.link)(&before, after, &page_base())
                        .map(|l| l.url)
                        .map_err(|e| e.to_string())
                });
                Ok((compare::compare(&before, after), link))
            })
        });
        result.set(Some(outcome));
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        if file.size() > MAX_INPUT as f64 {
            result.set(Some(Err(
                "That file is larger than 16 MiB: not a run MCP Triage wrote.".into(),
            )));
            return;
        }
        let promise = file.text();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(text) => run_compare(text.as_string().unwrap_or_default()),
                Err(_) => result.set(Some(Err("That file could not be read.".into()))),
            }
        });
    };
    let save = move |_| {
        if let Some(k) = keep {
            current().with_value(|run| {
                if let Some(run) = run {
                    download(
                        "mcp-triage-baseline.json",
                        "application/json",
                        &(k.baseline)(run),
                    )
                }
            })
        }
    };
    view! {
        <section class="compare" aria-label="Compare with another run">
            <button type="button" data-testid="compare-open" on:click=move |_| {
                open.update(|o| *o = !*o);
                if open.get_untracked() {
                    crate::state::run::focus_heading("compare-heading");
                }
            }>
                "Compare with…"</button>
            <Show when=move || open.get()>
                <div class="card" data-testid="compare-panel">
                    <h3 id="compare-heading" tabindex="-1">"Compare with another run"</h3>
                    <p>"Another run of this check — its share link or its baseline file ("
                        <code>"mcp-triage probe --write-baseline"</code>
                        {keep.map(|_| "), or its JSON report,").unwrap_or(")")}
                        " as the run before this one. It is read here: nothing is sent or stored."</p>
                    <label for="compare-input">"Share link, or the file's text"</label>
                    <textarea id="compare-input" rows="3" data-testid="compare-input" spellcheck="false"
                        prop:value=move || input.get()
                        on:input=move |ev| input.set(event_target_value(&ev).chars().take(MAX_INPUT).collect())></textarea>
                    <p>
                        <button type="button" class="primary" data-testid="compare-go"
                            on:click=move |_| run_compare(input.get_untracked())>"Compare"</button>
                        " or "
                        <label class="file">"choose a file "
                            <input type="file" accept=".json,application/json,text/plain" data-testid="compare-file" on:change=on_file />
                        </label>
                    </p>
                    {move || result.get().map(|r| match r {
                        Err(message) => view! { <p class="error" role="alert" data-testid="compare-problem">{message}</p> }.into_any(),
                        Ok((comparison, link)) => {
                            let drawn = render(comparison_markup(&comparison), None);
                            let link = match link {
                                None => ().into_any(),
                                Some(Ok(url)) => view! {
                                    <p>"A link with both runs (" {url.len()} " characters): it opens as this comparison."</p>
                                    <input type="text" readonly data-testid="compare-link" prop:value=url.clone() />
                                    <CopyButton label="Copy link with both runs" text=url testid="compare-copy" />
                                }.into_any(),
                                Some(Err(why)) => view! {
                                    <p class="warn" data-testid="compare-too-long">{format!("No link holds both runs: {why}. Keep this run as a baseline file instead, and compare with it later.")}</p>
                                }.into_any(),
                            };
                            view! { {drawn} {link} }.into_any()
                        }
                    })}
                    {keep.map(|_| view! {
                        <p class="help">"To compare later: "
                            <button type="button" data-testid="compare-baseline" on:click=save>"Download this run as a baseline file"</button>
                            " (verdicts and evidence only, as a link holds them)."
                        </p>
                    })}
                </div>
            </Show>
        </section>
    }
    .into_any()
}
