//! The FAST family: FAST's controller, the parts its variants plug into it, and one builder per variant.
//!
//! - core: `params.rs` (FAST's parameter table), `controller.rs` (the controller and plain FAST's
//!   builder, which MFAST shares);
//! - parts: `ns2_cadence.rs` (the ns-2 module's timed rounds and paced increases), `rtt_filter.rs`
//!   (VFAST's asymmetric EWMA), `reroute.rs` (RRFast's reroute detector), `ccafr.rs` (EMFAST's CCaFR),
//!   each with the parameters it reads;
//! - builders: `vfast.rs`, `rrfast.rs`, `emfast.rs`, each FAST's controller with one part plugged in.
//!
//! Dependencies point one way so each piece can be read and tested alone: parts import nothing from the
//! core or the builders, the core imports parts, and a builder imports the core and parts but never a
//! sibling builder (the `imports_follow_the_folder_rule` test checks it).

mod ccafr;
mod controller;
pub mod emfast;
mod ns2_cadence;
mod params;
mod reroute;
pub mod rrfast;
mod rtt_filter;
pub mod vfast;

pub use controller::{build, Fast};
pub use params::PARAMS;

#[cfg(test)]
mod tests {
    const CORE: &[&str] = &["params", "controller"];
    const PARTS: &[&str] = &["ns2_cadence", "rtt_filter", "reroute", "ccafr"];
    const BUILDERS: &[&str] = &["vfast", "rrfast", "emfast"];

    fn source(module: &str) -> &'static str {
        match module {
            "params" => include_str!("params.rs"),
            "controller" => include_str!("controller.rs"),
            "ns2_cadence" => include_str!("ns2_cadence.rs"),
            "rtt_filter" => include_str!("rtt_filter.rs"),
            "reroute" => include_str!("reroute.rs"),
            "ccafr" => include_str!("ccafr.rs"),
            "vfast" => include_str!("vfast.rs"),
            "rrfast" => include_str!("rrfast.rs"),
            "emfast" => include_str!("emfast.rs"),
            _ => panic!("{module}.rs is not listed in this test"),
        }
    }

    /// The folder's modules that the `use` declarations of `text` name (`super::x`, `cc::fast::x`, also
    /// inside braces).
    fn imported(text: &str) -> Vec<&str> {
        let known = [CORE, PARTS, BUILDERS].concat();
        let mut out = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            if trimmed.starts_with("use ") || trimmed.starts_with("pub use ") {
                let start = offset + line.len() - trimmed.len();
                let decl = &text[start..text[start..].find(';').map_or(text.len(), |end| start + end)];
                if decl.contains("super::") || decl.contains("fast::") {
                    let words = decl.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                    out.extend(words.filter(|w| known.contains(w)));
                }
            }
            offset += line.len();
        }
        out
    }

    #[test]
    fn imports_follow_the_folder_rule() {
        let rules: [(&[&str], Vec<&str>); 3] =
            [(PARTS, [CORE, BUILDERS].concat()), (CORE, BUILDERS.to_vec()), (BUILDERS, BUILDERS.to_vec())];
        for (modules, forbidden) in rules {
            for module in modules {
                for name in imported(source(module)) {
                    let allowed = name == *module || !forbidden.contains(&name);
                    assert!(allowed, "{module}.rs may not import {name}");
                }
            }
        }
        // A new file must be placed in the rule before it can be added.
        let listed = [CORE, PARTS, BUILDERS].concat();
        for line in include_str!("mod.rs").lines() {
            if let Some(decl) = line.trim_start_matches("pub ").strip_prefix("mod ") {
                let module = decl.trim_end_matches([';', '{', ' ']);
                assert!(module == "tests" || listed.contains(&module), "{module}.rs: core, part or builder?");
            }
        }
    }
}
