//! The MCP protocol revisions this build knows, in their order: the one table every list of
//! versions and every comparison of two reads. A version a server names that is not here stays
//! text (data): it is shown and quoted, never compared.

labelled_enum! {
    /// A protocol revision this build knows; the declaration order is the revisions' order, so
    /// `<` and `>=` compare revisions.
    ProtocolVersion {
        /// The first dated revision (HTTP+SSE transport).
        V2024_11_05 = "2024-11-05",
        /// Streamable HTTP, JSON-RPC batches, OAuth 2.1.
        V2025_03_26 = "2025-03-26",
        /// Protected resource metadata, no batches, structured tool output.
        V2025_06_18 = "2025-06-18",
        /// Input validation errors as tool errors (SEP-1303), scope in challenges.
        V2025_11_25 = "2025-11-25",
        /// Stateless: `server/discover`, `_meta` on every request, no sessions.
        V2026_07_28 = "2026-07-28",
    }
}

impl ProtocolVersion {
    /// The version a connection with the `initialize` handshake asks for by default.
    pub const DEFAULT_LEGACY: ProtocolVersion = ProtocolVersion::V2025_11_25;
    /// The first stateless revision.
    pub const MODERN: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// Whether `text` names a known revision from `since` on; a version this build does not know
    /// never is (it is not compared).
    pub fn names_from(text: &str, since: ProtocolVersion) -> bool {
        ProtocolVersion::parse(text).is_some_and(|v| v >= since)
    }

    /// Whether `text` names a known revision before `until`; a version this build does not know
    /// never is.
    pub fn names_before(text: &str, until: ProtocolVersion) -> bool {
        ProtocolVersion::parse(text).is_some_and(|v| v < until)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::ProtocolVersion as V;

    #[test]
    fn revisions_compare_in_order_and_an_unknown_one_never_does() {
        assert!(
            V::ALL
                .windows(2)
                .all(|w| w[0] < w[1] && w[0].as_str() < w[1].as_str())
        );
        assert!(V::names_from("2025-11-25", V::V2025_06_18));
        assert!(!V::names_from("2025-03-26", V::V2025_06_18));
        assert!(V::names_before("2025-03-26", V::V2025_06_18));
        for unknown in ["2027-01-01", "2024-01-01", "", "draft"] {
            assert!(!V::names_from(unknown, V::V2024_11_05), "{unknown}");
            assert!(!V::names_before(unknown, V::V2026_07_28), "{unknown}");
        }
    }
}
