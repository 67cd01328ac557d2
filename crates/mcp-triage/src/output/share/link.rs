//! The link for the share panel: the whole pipeline from report to URL (build, redact again, fit,
//! encode), the trimming that makes a payload fit [`MAX_LINK`], and the payload exactly as the link
//! opens.

use crate::run::endpoint::Endpoint;
use crate::run::engine::RunReport;
use crate::secrets::redact::Secrets;

use super::build::{BuildOptions, build, redact_payload};
use super::cap::clip;
use super::codec::encode;
use super::decode::decode;
use super::error::{MAX_LINK, ShareError};
use super::payload::Share;

/// The project's hosted page: where a share link opens when its maker names no page of its own (the
/// command line without `--share-base` or `$MCP_TRIAGE_PAGE`; the GitHub Action's default
/// `page-url`).
pub const HOSTED_PAGE: &str = "https://mcp-triage.github.io/mcp-triage/";

/// A link made for the share panel: the whole link, and the payload exactly as it will be opened
/// (what the panel shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// `page_base#r=v12.…`.
    pub url: String,
    /// The payload as the link decodes, pretty-printed: exactly what is shared.
    pub shown: String,
}

/// What the share panel shows: the link, or why there is none, and how many secret-shaped server
/// values were withheld from the payload either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkOutcome {
    /// The link, or why it cannot be made (too large even trimmed).
    pub link: Result<Link, ShareError>,
    /// Secret-shaped server values withheld from the payload.
    pub withheld: usize,
}

/// The whole pipeline, decided once: build the allowlisted payload, redact it a second time, trim it
/// to fit [`MAX_LINK`] after `page_base` (the page's URL without its fragment), encode it, and
/// decode it again for what the panel shows.
pub fn make_link(
    report: &RunReport,
    endpoint: &Endpoint,
    options: BuildOptions,
    secrets: &Secrets,
    date: &str,
    tool_version: &str,
    page_base: &str,
) -> LinkOutcome {
    let built = build(report, endpoint, options, secrets, date, tool_version);
    let payload = redact_payload(&built.payload, secrets);
    let link = fit(&payload, page_base.len()).map(|fitted| {
        let fragment = encode(&fitted);
        let shown = decode(&fragment)
            .ok()
            .and_then(|p| serde_json::to_string_pretty(&p).ok())
            .unwrap_or_default();
        Link {
            url: format!("{page_base}#{fragment}"),
            shown,
        }
    });
    LinkOutcome {
        link,
        withheld: built.withheld,
    }
}

/// Trims excerpts (then evidence, then notes) deterministically until the link — `base_len`
/// characters of page URL plus `#` plus the fragment — fits in [`MAX_LINK`].
pub fn fit(p: &Share, base_len: usize) -> Result<Share, ShareError> {
    let budget = MAX_LINK.saturating_sub(base_len + 1);
    let mut current = p.clone();
    if encode(&current).len() <= budget {
        return Ok(current);
    }
    for excerpt_cap in [512usize, 256, 128, 64, 0] {
        for row in current.rows.iter_mut() {
            row.excerpt = row
                .excerpt
                .as_deref()
                .filter(|_| excerpt_cap > 0)
                .map(|e| clip(e, excerpt_cap));
        }
        if encode(&current).len() <= budget {
            return Ok(current);
        }
    }
    for row in current.rows.iter_mut() {
        row.evidence.truncate(2);
    }
    current.notes.clear();
    if encode(&current).len() <= budget {
        return Ok(current);
    }
    Err(ShareError::TooLargeToShare)
}

/// A link that carries two runs (payload v13, `#c=v13.…`, which the tool opens): `after`, with
/// `before` (the baseline) inside it, so the page opens it as their comparison. Both are trimmed alike until the link fits [`MAX_LINK`];
/// when it cannot, the page offers a baseline file instead.
pub fn comparison_link(before: &Share, after: &Share, page_base: &str) -> Result<Link, ShareError> {
    let budget = MAX_LINK.saturating_sub(page_base.len() + 1);
    let mut before = before.clone();
    before.compare = None;
    let mut after = after.clone();
    after.compare = None;
    // Each run alone must fit in half the budget (the two compress together, not better).
    let half = MAX_LINK.saturating_sub(budget / 2);
    let mut both = fit(&after, half)?;
    both.compare = Some(Box::new(fit(&before, half)?));
    let fragment = encode(&both);
    if fragment.len() > budget {
        return Err(ShareError::TooLargeToShare);
    }
    let shown = decode(&fragment)
        .ok()
        .and_then(|p| serde_json::to_string_pretty(&p).ok())
        .unwrap_or_default();
    Ok(Link {
        url: format!("{page_base}#{}", as_comparison(&fragment)),
        shown,
    })
}

/// A share fragment (`r=v13.…`) as the fragment that opens it for comparing (`c=v13.…`).
pub fn as_comparison(fragment: &str) -> String {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let rest = fragment
        .strip_prefix("r=")
        .or_else(|| fragment.strip_prefix("c="))
        .unwrap_or(fragment);
    format!("c={rest}")
}
