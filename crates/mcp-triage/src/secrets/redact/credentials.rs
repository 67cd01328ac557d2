//! The credentials a run holds and the request headers they become.

use super::secret_set::Secrets;

/// The secrets of a run, in memory only. `Debug` prints no secret and there is no `Serialize`.
#[derive(Clone, Default)]
pub struct Credentials {
    token: String,
    extra: Vec<(String, String)>,
    /// Extra headers the user marked as not secret: sent and recorded as they are.
    plain: Vec<(String, String)>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credentials([REDACTED])")
    }
}

impl Credentials {
    /// A token (may be empty), extra secret headers, and extra plain headers.
    pub fn new(
        token: String,
        extra: Vec<(String, String)>,
        plain: Vec<(String, String)>,
    ) -> Credentials {
        Credentials {
            token,
            extra,
            plain,
        }
    }

    /// True when a token was given.
    pub fn has_token(&self) -> bool {
        !self.token.is_empty()
    }

    /// What redaction must remove.
    pub fn secrets(&self) -> Secrets {
        Secrets::new(
            std::iter::once(self.token.as_str()).chain(self.extra.iter().map(|(_, v)| v.as_str())),
        )
    }

    /// Names of the extra secret headers.
    pub fn header_names(&self) -> Vec<String> {
        self.extra.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Extra headers the user marked as not secret.
    pub fn plain(&self) -> &[(String, String)] {
        &self.plain
    }

    /// The headers a request that carries credentials gets, in this order: `Authorization: Bearer`
    /// (when there is a token), the extra secret headers, the plain ones. Every shell adds exactly
    /// these, and only to the endpoint's own requests (`Outgoing::with_token`).
    pub fn request_headers(&self) -> Vec<(String, String)> {
        let bearer = self.has_token().then(|| {
            (
                "Authorization".to_string(),
                format!("Bearer {}", self.token),
            )
        });
        bearer
            .into_iter()
            .chain(self.extra.iter().cloned())
            .chain(self.plain.iter().cloned())
            .collect()
    }

    /// Names of every extra header, secret or plain (the CORS doctor preflights each).
    pub fn all_header_names(&self) -> Vec<String> {
        self.extra
            .iter()
            .chain(&self.plain)
            .map(|(k, _)| k.clone())
            .collect()
    }
}
