//! What `probe` and `replay` print: the report as text, JSON or Markdown on standard output, a JUnit
//! file, and a share link — each made by the core (`export`, `share`); this module only picks the
//! form, writes the bytes and passes the exit status the core decides.

use std::io::{self, Write};

use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::redact::Secrets;
use mcp_triage::share::HOSTED_PAGE;
use mcp_triage::{compare, export, share};

/// The output options `probe` and `replay` take (standard output carries one form of the report).
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Output (standard output carries one form of the report)")]
pub(crate) struct Output {
    /// The report as JSON (the page's "Download JSON")
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// The report as Markdown (the page's "Copy as Markdown")
    #[arg(long)]
    markdown: bool,
    /// Also write a JUnit XML file: one test case per probe and check
    /// (a spec deviation fails, a probe that could not run is skipped,
    /// a run that could not connect is an error)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    junit: Option<String>,
    /// Also write the Markdown report to FILE (a CI job summary),
    /// whatever standard output carries
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    markdown_file: Option<String>,
    /// Also print a share link (verdicts and evidence, never the server's
    /// content or a secret) opening in the page at --share-base URL, else
    /// $MCP_TRIAGE_PAGE, else the hosted page (MCP_TRIAGE_PAGE= for the
    /// #r=… fragment alone); with --json it is the "share" field
    #[arg(long, verbatim_doc_comment)]
    share: bool,
    /// The page's http(s) address a share link starts with
    #[arg(long, value_name = "URL", value_parser = page_address)]
    share_base: Option<String>,
    /// Show the endpoint's path and query (keys often live there);
    /// by default every output shows its origin only
    #[arg(long, verbatim_doc_comment)]
    include_path: bool,
    /// Exit 5 when fewer than N pairs of A, B, C are told apart by
    /// structure ("n/a" is below any N of at least 1)
    #[arg(long, value_name = "N", verbatim_doc_comment,
          value_parser = clap::value_parser!(u8).range(0..=3))]
    pub(crate) fail_under: Option<u8>,
    /// Compare the run with a baseline (a baseline file, a JSON report
    /// or a file holding a share link): the comparison follows the report,
    /// JUnit gets a case per probe; exit 7 when anything got worse
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    baseline: Option<String>,
    /// Write this run as a baseline file (mcp-triage-baseline/1: verdicts
    /// and evidence, no server content, no secret), safe to commit
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    write_baseline: Option<String>,
}

/// The form of the report on standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Text,
    Json,
    Markdown,
}

/// Where a share link opens, and what the run says about it on standard error.
#[derive(Debug, PartialEq, Eq)]
enum PageBase {
    /// `--share-base`, or `$MCP_TRIAGE_PAGE`.
    Given(String),
    /// `$MCP_TRIAGE_PAGE` set empty: the bare `#r=…` fragment.
    None,
    /// Neither: the project's hosted page.
    Hosted,
}

impl Output {
    /// The form standard output carries.
    fn form(&self) -> Form {
        if self.json {
            Form::Json
        } else if self.markdown {
            Form::Markdown
        } else {
            Form::Text
        }
    }

    /// The page a share link opens in: `--share-base`, else `$MCP_TRIAGE_PAGE` (checked like
    /// `--share-base`; set empty, none: the bare fragment), else the project's hosted page.
    fn page_base(&self, env: Option<String>) -> Result<PageBase, String> {
        if let Some(b) = &self.share_base {
            return Ok(PageBase::Given(b.clone()));
        }
        match env {
            Some(b) if b.trim().is_empty() => Ok(PageBase::None),
            Some(b) => page_address(b.trim())
                .map(PageBase::Given)
                .map_err(|e| format!("$MCP_TRIAGE_PAGE {e}")),
            None => Ok(PageBase::Hosted),
        }
    }

    /// Writes every output the options ask for; returns the exit status (the core's, or
    /// `exit::LOCAL` when an output could not be made or written; a signal's status first).
    pub(crate) fn emit(
        &self,
        report: &RunReport,
        ep: &Endpoint,
        secrets: &Secrets,
        text: impl Fn(&RunReport, &Endpoint, bool) -> String,
    ) -> u8 {
        let mut local_failure = false;
        let link = if self.share {
            match self.link(report, ep, secrets) {
                Ok(l) => Some(l),
                Err(e) => {
                    eprintln!("mcp-triage: no share link: {e}");
                    local_failure = true;
                    None
                }
            }
        } else {
            None
        };
        // The run as a baseline (the share link's payload): the baseline file and the comparison.
        let run = share::redact_payload(
            &share::build(
                report,
                ep,
                self.link_options(),
                secrets,
                &iso_now(),
                env!("CARGO_PKG_VERSION"),
            )
            .payload,
            secrets,
        );
        let comparison = match &self.baseline {
            Some(file) => match read_baseline(file) {
                Ok(before) => Some(compare::compare(&before, &run)),
                Err(e) => {
                    eprintln!("mcp-triage: --baseline {e}");
                    local_failure = true;
                    None
                }
            },
            None => None,
        };
        if let Some(file) = &self.write_baseline
            && let Err(e) = std::fs::write(file, compare::baseline_json(&run))
        {
            eprintln!("mcp-triage: cannot write {file}: {e}");
            local_failure = true;
        }
        // Made once, for --markdown and --markdown-file alike.
        let markdown = (matches!(self.form(), Form::Markdown) || self.markdown_file.is_some())
            .then(|| {
                let mut md = export::markdown_with_share(
                    report,
                    ep,
                    self.include_path,
                    secrets,
                    link.as_deref(),
                );
                if let Some(c) = &comparison {
                    md.push('\n');
                    md.push_str(&c.markdown());
                }
                md
            });
        let body = match self.form() {
            Form::Json => {
                let json = export::report_json_with_share(
                    report,
                    ep,
                    self.include_path,
                    secrets,
                    link.as_deref(),
                );
                match &comparison {
                    Some(c) => with_field(&json, "comparison", c),
                    None => json,
                }
            }
            Form::Markdown => markdown.clone().unwrap_or_default(),
            Form::Text => {
                let mut t = text(report, ep, self.include_path);
                if let Some(l) = &link {
                    t.push_str(&format!("\nShare: {l}\n"));
                }
                if let Some(c) = &comparison {
                    t.push_str("\nCompared with the baseline:\n");
                    t.push_str(&c.text());
                }
                t
            }
        };
        if let (Some(file), Some(md)) = (&self.markdown_file, &markdown) {
            let md = mcp_triage::redact::redact(md, secrets).0;
            if let Err(e) = std::fs::write(file, md) {
                eprintln!("mcp-triage: cannot write {file}: {e}");
                local_failure = true;
            }
        }
        // Redacted once more on the way out (the core redacts each form; a backstop), a line at a
        // time as it is written, so no second copy of a large report is made.
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let mut written = Ok(());
        mcp_triage::redact::redact_by_line(body.trim_end_matches('\n'), secrets, |line| {
            if written.is_ok() {
                written = out.write_all(line.as_bytes());
            }
        });
        drop(body);
        // A reader that closed the pipe (`| head`) wanted no more: the run keeps its status.
        // Any other failure to write is a local failure.
        if let Err(e) = written
            .and_then(|_| out.write_all(b"\n"))
            .and_then(|_| out.flush())
            && e.kind() != io::ErrorKind::BrokenPipe
        {
            local_failure = true;
        }
        if let Some(file) = &self.junit {
            let extra = comparison
                .as_ref()
                .map(compare::Comparison::junit_cases)
                .unwrap_or_default();
            let xml = export::junit(
                report,
                ep,
                self.include_path,
                secrets,
                self.fail_under,
                &extra,
            );
            if let Err(e) = std::fs::write(file, xml) {
                eprintln!("mcp-triage: cannot write {file}: {e}");
                local_failure = true;
            }
        }
        let regressed = comparison
            .as_ref()
            .is_some_and(compare::Comparison::regressed);
        report.exit_status(self.fail_under, local_failure, regressed)
    }

    /// What a link (and a baseline) of this run holds: the endpoint's path only when asked, never
    /// a secret-shaped server value.
    fn link_options(&self) -> share::BuildOptions {
        share::BuildOptions {
            include_path: self.include_path,
            include_secret_shaped: false,
        }
    }

    /// The share link (or bare fragment), made by the core as the page makes it.
    fn link(&self, report: &RunReport, ep: &Endpoint, secrets: &Secrets) -> Result<String, String> {
        let base = match self.page_base(std::env::var("MCP_TRIAGE_PAGE").ok())? {
            PageBase::Given(base) => base,
            PageBase::None => String::new(),
            PageBase::Hosted => {
                eprintln!(
                    "mcp-triage: the share link opens in the hosted page, {HOSTED_PAGE} (--share-base URL or $MCP_TRIAGE_PAGE for another)"
                );
                HOSTED_PAGE.to_string()
            }
        };
        let made = share::make_link(
            report,
            ep,
            self.link_options(),
            secrets,
            &iso_now(),
            env!("CARGO_PKG_VERSION"),
            &base,
        );
        if made.withheld > 0 {
            eprintln!(
                "mcp-triage: {} secret-shaped server values were withheld from the share link",
                made.withheld
            );
        }
        made.link.map(|l| l.url).map_err(|e| e.to_string())
    }
}

/// The run a `--baseline` file holds (at most [`compare::MAX_RUN_FILE`]).
fn read_baseline(file: &str) -> Result<share::Share, String> {
    let meta = std::fs::metadata(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    if meta.len() > compare::MAX_RUN_FILE as u64 {
        return Err(format!(
            "{file}: larger than 16 MiB: not a run MCP Triage wrote"
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    compare::read_run(&text).map_err(|p| format!("{file}: {}", p.message))
}

/// `json` (an object's text) with one more top-level field.
fn with_field(json: &str, name: &str, value: &compare::Comparison) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    if let (Some(map), Ok(value)) = (v.as_object_mut(), serde_json::to_value(value)) {
        map.insert(name.into(), value);
    }
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// A page address a share link may start with: http(s), no fragment, no blanks or controls.
fn page_address(base: &str) -> Result<String, String> {
    if !(base.starts_with("https://") || base.starts_with("http://"))
        || base.contains('#')
        || base.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "takes the page's http(s) address without a fragment, not {base:?}"
        ));
    }
    Ok(base.to_string())
}

/// Now as ISO 8601 UTC (`2026-12-03T15:04:05Z`), from the system clock.
fn iso_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    iso_of(secs)
}

/// Seconds since 1970 as ISO 8601 UTC (days to a civil date: Howard Hinnant's algorithm).
fn iso_of(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601_utc() {
        assert_eq!(iso_of(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_of(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_of(1_796_310_245), "2026-12-03T15:04:05Z");
    }

    #[test]
    fn a_share_base_is_a_page_address() {
        for bad in [
            "javascript:alert(1)",
            "https://x.example/#r=",
            "ftp://x",
            "https://a b",
        ] {
            assert!(page_address(bad).is_err(), "{bad}");
        }
        assert!(page_address("https://triage.example/app/").is_ok());
    }

    #[test]
    fn a_link_opens_in_the_page_given_else_the_hosted_one_and_an_empty_variable_means_none() {
        let given = Output {
            share_base: Some("https://a.example/".into()),
            ..Output::default()
        };
        let env = |v: &str| Some(v.to_string());
        assert_eq!(
            given.page_base(env("https://b.example/")),
            Ok(PageBase::Given("https://a.example/".into()))
        );
        let plain = Output::default();
        assert_eq!(
            plain.page_base(env(" https://b.example/ ")),
            Ok(PageBase::Given("https://b.example/".into()))
        );
        assert_eq!(plain.page_base(env("")), Ok(PageBase::None));
        assert_eq!(plain.page_base(None), Ok(PageBase::Hosted));
        assert!(plain.page_base(env("ftp://x")).is_err());
    }
}
