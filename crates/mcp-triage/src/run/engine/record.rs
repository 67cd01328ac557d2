//! One recorded request of a run, with its verdict and assessment, and the protected resource
//! metadata a 401 names (fetched only on the user's click).

use serde::Serialize;
use serde_json::Value;

use crate::judge::assess::{Assessment, assess};
use crate::judge::classify::Options;
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::step::{Outgoing, Step};

/// One recorded exchange with its assessment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// The step.
    pub step: Step,
    /// Its round.
    pub wave: u32,
    /// What went over the wire (redacted by the shell before it gets here).
    pub exchange: Exchange,
    /// The classification.
    pub assessment: Assessment,
}

impl Record {
    /// The `resource_metadata` URL this answer's challenge names, which the user may fetch.
    pub fn resource_metadata_url(&self) -> Option<&str> {
        self.assessment
            .verdict
            .challenge
            .as_ref()
            .and_then(|c| c.param("resource_metadata"))
    }

    /// The JSON a card shows as the answer: our JSON-RPC response (or the frame that stood in for
    /// it), or, for the resource metadata, the document itself.
    pub fn shown_json(&self) -> Option<Value> {
        if let Some(m) = &self.assessment.verdict.message {
            return Some(m.clone());
        }
        if self.step != Step::ResourceMetadata {
            return None;
        }
        let body = self.exchange.response.as_ref()?.body.as_deref()?;
        serde_json::from_str(body).ok()
    }
}

/// The request for the resource metadata a 401 named: a GET without the token, only on the
/// endpoint's own origin (a server must not make the page call elsewhere).
pub fn resource_metadata_request(url: &str, endpoint_origin: &str) -> Result<Outgoing, String> {
    let same_origin = url == endpoint_origin || url.starts_with(&format!("{endpoint_origin}/"));
    if !same_origin {
        return Err(format!(
            "not fetched: {url} is not on the endpoint's origin {endpoint_origin}"
        ));
    }
    Ok(Outgoing {
        step: Step::ResourceMetadata,
        method: "GET",
        url: url.to_string(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
        with_token: false,
        expect_id: None,
        headers_only: false,
        intent: Some("resource_metadata".into()),
        wave: 0,
    })
}

/// The record of a resource-metadata fetch (the exchange redacted by the caller, as every exchange).
pub fn resource_metadata_record(exchange: Exchange) -> Record {
    let assessment = assess(&exchange, &Options::default());
    Record {
        step: Step::ResourceMetadata,
        wave: 0,
        exchange,
        assessment,
    }
}
