//! Every file in tests/scenarios/invalid is rejected with one-line messages that start with the file name,
//! and one of them reads `file[:line]: <key path>: reason` for the key path on its `# expect:` line.
//! Validation never panics.

use delaycc_sim::scenario;
use std::path::PathBuf;

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios/invalid");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

/// True when `message` is `file[:line]: key: reason`.
fn names_key(message: &str, file: &str, key: &str) -> bool {
    let Some(rest) = message.strip_prefix(file) else {
        return false;
    };
    let rest = match rest.strip_prefix(':') {
        Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => {
            r.trim_start_matches(|c: char| c.is_ascii_digit())
        }
        _ => rest,
    };
    rest.strip_prefix(": ").and_then(|r| r.strip_prefix(key)).is_some_and(|r| r.starts_with(": "))
}

#[test]
fn every_invalid_scenario_is_rejected_naming_file_and_key() {
    let files = corpus();
    assert!(files.len() >= 50, "corpus has only {} files", files.len());
    for (path, bytes) in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue; // not UTF-8: rejected before parsing, by the Python layer (checked there)
        };
        let errors = scenario::from_toml_str(text, &name).expect_err(&name);
        assert!(!errors.is_empty());
        for e in &errors {
            assert!(e.starts_with(&name), "{name}: message does not start with the file name: {e}");
            assert!(!e.contains(['\n', '\r']), "{name}: message spans lines: {e}");
        }
        let expect = match text.lines().next().and_then(|l| l.strip_prefix("# expect: ")) {
            Some(key) => key,
            None if text.is_empty() => "name",
            None => panic!("{name}: the first line must be `# expect: <key path>`"),
        };
        assert!(
            errors.iter().any(|e| names_key(e, &name, expect)),
            "{name}: no message reads '{name}[:line]: {expect}: ...': {errors:?}"
        );
    }
}

#[test]
fn names_key_matches_only_the_exact_key() {
    assert!(names_key("f.toml:3: links[0].delay: bad", "f.toml", "links[0].delay"));
    assert!(names_key("f.toml: name: is required", "f.toml", "name"));
    assert!(!names_key("f.toml:3: links[0].delay_x: bad", "f.toml", "links[0].delay"));
    assert!(!names_key("f.toml:3: x: links[0].delay: bad", "f.toml", "links[0].delay"));
}
