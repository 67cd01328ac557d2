//! The modules a visit loads: the boot page (`boot`, first paint, the form), the app (`app`, the
//! tool and the shared page), and what both show (`chrome`: the header, the address bar's fragment).
//!
//! May import: `net`, `state`, `components`. Its files import each other by name, never this one.

pub mod app;
pub mod boot;
pub mod chrome;
