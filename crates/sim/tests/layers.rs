//! The crate's layers (lib.rs): each module imports only from the layers below it. Reads the sources and
//! lists every `crate::<module>` path that points up.

use std::path::{Path, PathBuf};

/// Lowest first; modules on one line are one layer.
const LAYERS: &[&[&str]] = &[
    &["time", "units", "rng"],
    &["model"],
    &["engine"],
    &["net"],
    &["cc"],
    &["transport"],
    &["measure"],
    &["scenario"],
    &["sim"],
];

/// Edges allowed to point up, as (file under src/, module it imports): none.
const EXCEPTIONS: &[(&str, &str)] = &[];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules a file names as `crate::<module>` outside comments.
fn imported_modules(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
    }
    found
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        let top = rel.split('/').next().unwrap_or("").trim_end_matches(".rs");
        let Some(own) = rank(top) else { continue }; // lib.rs, bin/
        let text = std::fs::read_to_string(path).expect("readable source");
        for m in imported_modules(&text) {
            let above = rank(&m).is_some_and(|r| r > own);
            if above && !EXCEPTIONS.contains(&(rel.as_str(), m.as_str())) {
                upward.push(format!("{rel} imports crate::{m}"));
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "imports from a layer above:\n{}", upward.join("\n"));
    assert!(files.len() > 50, "found only {} source files under {}", files.len(), src.display());
}

#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let modules: Vec<&str> =
        lib.lines().filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';')).collect();
    assert!(!modules.is_empty());
    for m in modules {
        assert!(rank(m).is_some(), "module {m} is in no layer of LAYERS (and lib.rs's list)");
    }
}
