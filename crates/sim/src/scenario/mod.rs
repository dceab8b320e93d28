//! Scenario files (`docs/scenario-format.md`): parsing, validation and the typed model the engine runs.
//!
//! Within this folder each file uses only those before it: `text` (key paths, one-line messages) and
//! `locate` (key path at a byte offset) -> `tree` (TOML or JSON -> a tree with lines) -> `check` (typed
//! getters that record errors) -> `routes` (the graph), `limits` (the series' memory budget) -> `parse/`
//! (one file per section of the format) -> this file.

mod check;
pub mod limits;
mod locate;
mod parse;
pub mod routes;
mod text;
pub mod tree;

use crate::model::Scenario;

/// Every key of every table of the format, once each (for tools and property tests that build random
/// files: a hand-kept copy would miss keys added later).
pub fn known_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for k in parse::KEY_TABLES.into_iter().flatten() {
        if !keys.contains(k) {
            keys.push(k);
        }
    }
    keys
}

/// Parses and validates a TOML scenario. Errors are one line each: `file:line: key.path: reason`.
pub fn from_toml_str(text: &str, file: &str) -> Result<Scenario, Vec<String>> {
    let root = tree::from_toml(text).map_err(|e| vec![e.to_line(file)])?;
    parse::scenario_from_tree(&root, file)
}

/// Parses and validates a scenario given as JSON (how Python dicts reach the engine).
pub fn from_json_str(text: &str, file: &str) -> Result<Scenario, Vec<String>> {
    let root = tree::from_json(text).map_err(|e| vec![e.to_line(file)])?;
    parse::scenario_from_tree(&root, file)
}
