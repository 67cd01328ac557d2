//! What `probe` and `replay` print: the report as text, JSON or Markdown on standard output, a JUnit
//! file, and a share link — each made by the core (`export`, `share`); this module only picks the
//! form, writes the bytes and passes the exit status the core decides.

use std::io::{self, Write};

use mcp_triage::endpoint::Endpoint;
use mcp_triage::engine::RunReport;
use mcp_triage::redact::Secrets;
use mcp_triage::{compare, export, share};

/// The output options both commands take.
pub(crate) const USAGE: &str = r#"Output (standard output carries one form of the report):
  --json                  the report as JSON (the page's "Download JSON")
  --markdown              the report as Markdown (the page's "Copy as Markdown")
  --junit FILE            also write a JUnit XML file: one test case per probe and check;
                          a spec deviation fails, a probe that could not run is skipped,
                          a run that could not connect is an error
  --markdown-file FILE    also write the Markdown report to FILE (a CI job summary), whatever
                          standard output carries
  --share                 also print a share link (verdicts and evidence, never the
                          server's content or a secret): the page's address from
                          --share-base URL or $MCP_TRIAGE_PAGE, then #r=…; only the
                          fragment when neither is set. With --json it is the "share" field
  --include-path          show the endpoint's path and query (keys often live there);
                          by default every output shows its origin only
  --fail-under N          exit 5 when fewer than N pairs of A, B, C are told apart by
                          structure ("n/a" is below any N of at least 1)
  --baseline FILE         compare the run with a baseline (a baseline file, a JSON report
                          or a file holding a share link): the comparison follows the
                          report (text, Markdown, the JSON's "comparison" field), JUnit
                          gets one case per probe, failing where it got worse; exit 7
                          when anything got worse (see mcp-triage diff)
  --write-baseline FILE   write this run as a baseline file (mcp-triage-baseline/1: the
                          share link's verdicts and evidence as JSON, no server content,
                          no secret), safe to commit"#;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Text,
    Json,
    Markdown,
}

/// The output options as given.
#[derive(Debug, Clone)]
pub(crate) struct Output {
    form: Form,
    junit: Option<String>,
    markdown_file: Option<String>,
    share: bool,
    share_base: Option<String>,
    include_path: bool,
    pub(crate) fail_under: Option<u8>,
    baseline: Option<String>,
    write_baseline: Option<String>,
}

impl Default for Output {
    fn default() -> Output {
        Output {
            form: Form::Text,
            junit: None,
            markdown_file: None,
            share: false,
            share_base: None,
            include_path: false,
            fail_under: None,
            baseline: None,
            write_baseline: None,
        }
    }
}

impl Output {
    /// Reads `flag` (and its value from `next`) when it is an output option: `Ok(true)` when it
    /// was one.
    pub(crate) fn take(
        &mut self,
        flag: &str,
        next: &mut dyn FnMut() -> Option<String>,
    ) -> Result<bool, String> {
        let mut value = |f: &str| next().ok_or(format!("{f} needs a value"));
        let form = |current: Form, wanted: Form| {
            if current != Form::Text && current != wanted {
                Err("--json and --markdown: choose one form for standard output".to_string())
            } else {
                Ok(wanted)
            }
        };
        match flag {
            "--json" => self.form = form(self.form, Form::Json)?,
            "--markdown" => self.form = form(self.form, Form::Markdown)?,
            "--junit" => self.junit = Some(value("--junit")?),
            "--markdown-file" => self.markdown_file = Some(value("--markdown-file")?),
            "--share" => self.share = true,
            "--share-base" => {
                let base = value("--share-base")?;
                self.share_base =
                    Some(page_address(&base).map_err(|e| format!("--share-base {e}"))?);
            }
            "--include-path" => self.include_path = true,
            "--baseline" => self.baseline = Some(value("--baseline")?),
            "--write-baseline" => self.write_baseline = Some(value("--write-baseline")?),
            "--fail-under" => {
                let n = value("--fail-under")?;
                self.fail_under = Some(n.parse::<u8>().ok().filter(|n| *n <= 3).ok_or(format!(
                    "--fail-under takes 0 to 3 (pairs of A, B, C), not {n:?}"
                ))?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The page address a share link starts with: `--share-base`, else `$MCP_TRIAGE_PAGE` (checked
    /// like `--share-base`), else none (the bare fragment).
    fn share_base(&self) -> Result<String, String> {
        if let Some(b) = &self.share_base {
            return Ok(b.clone());
        }
        match std::env::var("MCP_TRIAGE_PAGE") {
            Ok(b) if !b.trim().is_empty() => {
                page_address(b.trim()).map_err(|e| format!("$MCP_TRIAGE_PAGE {e}"))
            }
            _ => Ok(String::new()),
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
        let markdown =
            (matches!(self.form, Form::Markdown) || self.markdown_file.is_some()).then(|| {
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
        let body = match self.form {
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
        let base = self.share_base()?;
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
    fn one_form_on_standard_output_and_a_share_base_that_is_a_page_address() {
        let mut o = Output::default();
        let mut none = || None;
        assert_eq!(o.take("--json", &mut none), Ok(true));
        assert!(o.take("--markdown", &mut none).is_err());
        assert_eq!(o.take("--url", &mut none), Ok(false));
        for bad in [
            "javascript:alert(1)",
            "https://x.example/#r=",
            "ftp://x",
            "https://a b",
        ] {
            let mut v = Some(bad.to_string());
            assert!(o.take("--share-base", &mut || v.take()).is_err(), "{bad}");
        }
        let mut v = Some("https://triage.example/app/".to_string());
        assert_eq!(o.take("--share-base", &mut || v.take()), Ok(true));
    }
}
