//! The public captures for the wasm32 tests (the browser has no file system): each test crate
//! compiles the whole `fixtures/exchanges` folder in with `include_dir!`, so no table of files is
//! kept by hand, and this walks it.

use include_dir::Dir;

/// Every capture in `dir`'s folders: (path relative to the public captures, file text), sorted.
pub(crate) fn captures(dir: &'static Dir<'static>) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = dir
        .dirs()
        .flat_map(Dir::files)
        .filter(|f| f.path().extension().is_some_and(|e| e == "json"))
        .filter_map(|f| Some((f.path().to_str()?, f.contents_utf8()?)))
        .collect();
    out.sort_unstable();
    out
}
