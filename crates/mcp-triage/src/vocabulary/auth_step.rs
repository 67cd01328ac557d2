//! The fetches and cards of the OAuth doctor: one identifier per place a client looks for its
//! authorization metadata, in the order a client looks, and the cards that fetch nothing.

labelled_enum! {
    /// One card of the OAuth doctor.
    AuthStep {
        /// The 401 and its `WWW-Authenticate` challenge (nothing fetched: the run's own answer).
        Challenge = "challenge",
        /// Protected resource metadata at the URL the challenge's `resource_metadata` names.
        PrmFromChallenge = "prm_from_challenge",
        /// Protected resource metadata at the endpoint's path-suffixed well-known URL.
        PrmPathWellKnown = "prm_path_well_known",
        /// Protected resource metadata at the origin's well-known URL.
        PrmRootWellKnown = "prm_root_well_known",
        /// Authorization server metadata, RFC 8414 (path inserted).
        AsOauth = "as_oauth",
        /// Authorization server metadata, OpenID Connect discovery with the path inserted.
        AsOidcInserted = "as_oidc_inserted",
        /// Authorization server metadata, OpenID Connect discovery with the path appended.
        AsOidcAppended = "as_oidc_appended",
        /// What registration the authorization server offers (nothing fetched).
        Registration = "registration",
        /// The token endpoint, called from the page only to see whether CORS lets it through.
        TokenEndpoint = "token_endpoint",
        /// The authorization URL a client would open (shown, never opened).
        AuthorizationUrl = "authorization_url",
    }
}

impl AuthStep {
    /// The title of its card, for people.
    pub fn title(self) -> &'static str {
        match self {
            AuthStep::Challenge => "Auth · the 401 and its challenge",
            AuthStep::PrmFromChallenge => "Auth · resource metadata (from the challenge)",
            AuthStep::PrmPathWellKnown => "Auth · resource metadata (path well-known)",
            AuthStep::PrmRootWellKnown => "Auth · resource metadata (root well-known)",
            AuthStep::AsOauth => "Auth · authorization server metadata (RFC 8414)",
            AuthStep::AsOidcInserted => {
                "Auth · authorization server metadata (OpenID, path inserted)"
            }
            AuthStep::AsOidcAppended => {
                "Auth · authorization server metadata (OpenID, path appended)"
            }
            AuthStep::Registration => "Auth · client registration",
            AuthStep::TokenEndpoint => "Auth · token endpoint",
            AuthStep::AuthorizationUrl => "Auth · the authorization URL",
        }
    }

    /// Whether this card is a fetch of metadata (the resource's or the authorization server's).
    pub(crate) fn is_metadata(self) -> bool {
        self.is_prm()
            || matches!(
                self,
                AuthStep::AsOauth | AuthStep::AsOidcInserted | AuthStep::AsOidcAppended
            )
    }

    /// Whether this card is a fetch of protected resource metadata.
    pub(crate) fn is_prm(self) -> bool {
        matches!(
            self,
            AuthStep::PrmFromChallenge | AuthStep::PrmPathWellKnown | AuthStep::PrmRootWellKnown
        )
    }
}

#[cfg(test)]
mod tests {
    use super::AuthStep;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn serde_and_the_identifier_agree() {
        for s in AuthStep::ALL {
            assert_eq!(
                serde_json::to_value(s).ok(),
                Some(serde_json::json!(s.as_str()))
            );
        }
    }
}
