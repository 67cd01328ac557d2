//! The OAuth doctor's report as views.

use super::model::{
    AuthCardView, AuthView, Badge, BrowserView, FindingView, Tone, access_tone, card_id,
    conformance_tone,
};
use super::wire::http_wire;
use crate::judge::spec::Conformance;
use crate::output::share::{ShareAuth, ShareBrowser};
use crate::run::auth::{AuthCard, AuthCheck, AuthReport, BrowserAccess, BrowserVerdict, Finding};
use crate::vocabulary::auth_step::AuthStep;

impl AuthView {
    /// The views of the doctor's report.
    pub fn of_auth(report: &AuthReport) -> AuthView {
        AuthView {
            heading: format!(
                "Judged against {} ({}) · {} fetch{}",
                report.revision,
                report.revision_why,
                report.fetches,
                if report.fetches == 1 { "" } else { "es" }
            ),
            cards: report.cards.iter().map(AuthCardView::of_card).collect(),
            browser: report.browser.clone(),
        }
    }
}

impl AuthView {
    /// The views of the doctor's verdicts a link carried (v11 on): the same cards and verdicts,
    /// without what a link never holds (URLs, documents, exchanges) nor the rules' words, which
    /// this build's table has (the share view stays small). `browser`: the page's CORS verdicts a
    /// v12 link carries.
    pub fn of_share((revision, cards): &ShareAuth, browser: Option<&ShareBrowser>) -> AuthView {
        let verdict = |step: &str| {
            browser
                .and_then(|(_, v)| v.iter().find(|(s, _, _)| s == step))
                .map(|(_, access, detail)| BrowserView {
                    access: Badge::read::<BrowserAccess>(access, access_tone),
                    detail: detail.clone(),
                })
        };
        AuthView {
            heading: format!("Judged against {revision}"),
            browser: browser.map(|(c, _)| c.clone()).unwrap_or_default(),
            cards: cards
                .iter()
                .map(|(step, outcome, findings)| AuthCardView {
                    browser: verdict(step),
                    id: card_id(&format!("auth_{step}")),
                    title: AuthStep::parse(step)
                        .map_or_else(|| step.clone(), |s| s.title().to_string()),
                    url: None,
                    outcome: outcome.clone(),
                    findings: findings
                        .iter()
                        .map(|(id, conformance, detail)| FindingView {
                            check: Badge::read::<AuthCheck>(id, |_| Tone::Plain),
                            conformance: Badge::read::<Conformance>(conformance, conformance_tone),
                            level: None,
                            rule: None,
                            link: None,
                            detail: detail.clone(),
                            elsewhere: None,
                        })
                        .collect(),
                    envelope: None,
                    wire: None,
                })
                .collect(),
        }
    }
}

impl AuthCardView {
    fn of_card(card: &AuthCard) -> AuthCardView {
        let ex = card.exchange.as_ref();
        AuthCardView {
            id: card_id(&format!("auth_{}", card.step.as_str())),
            title: card.step.title().to_string(),
            url: card.url.clone(),
            outcome: card.outcome.clone(),
            findings: card.findings.iter().map(FindingView::of_finding).collect(),
            browser: card.browser.as_ref().map(BrowserView::of_verdict),
            envelope: ex
                .and_then(|e| e.response.as_ref())
                .and_then(|r| r.body.as_deref())
                .and_then(|b| serde_json::from_str::<serde_json::Value>(b).ok())
                .and_then(|v| serde_json::to_string_pretty(&v).ok()),
            wire: ex.map(|e| http_wire(e, e.response.as_ref().map(|r| r.status), &[])),
        }
    }
}

impl BrowserView {
    fn of_verdict(v: &BrowserVerdict) -> BrowserView {
        BrowserView {
            access: Badge::toned(v.access, access_tone(v.access)),
            detail: v.detail.clone(),
        }
    }
}

impl FindingView {
    fn of_finding(f: &Finding) -> FindingView {
        FindingView {
            check: Badge::of(f.check),
            conformance: Badge::toned(f.conformance, conformance_tone(f.conformance)),
            level: f.rule.as_ref().map(|r| Badge::toned(r.level, Tone::Plain)),
            rule: f.rule.as_ref().map(|r| r.rule.to_string()),
            link: f.rule.as_ref().map(|r| r.link.clone()),
            detail: f.detail.clone(),
            elsewhere: (!f.elsewhere.is_empty()).then(|| {
                f.elsewhere
                    .iter()
                    .map(|(rev, c)| format!("{rev}: {}", c.label()))
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
        }
    }
}
