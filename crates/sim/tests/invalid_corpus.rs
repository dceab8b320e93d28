//! Every file in tests/scenarios/invalid is rejected with messages that name the file and the key path
//! given on its `# expect:` line, and validation never panics.

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

#[test]
fn every_invalid_scenario_is_rejected_naming_file_and_key() {
    let files = corpus();
    assert!(files.len() >= 30, "corpus has only {} files", files.len());
    for (path, bytes) in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue; // not UTF-8: rejected before parsing, by the Python layer (checked there)
        };
        let errors = scenario::from_toml_str(text, &name).expect_err(&name);
        assert!(!errors.is_empty());
        for e in &errors {
            assert!(e.starts_with(&name), "{name}: message does not start with the file name: {e}");
            assert!(!e.contains('\n'), "{name}: message spans lines: {e}");
        }
        if let Some(expect) = text.lines().next().and_then(|l| l.strip_prefix("# expect: ")) {
            assert!(
                errors.iter().any(|e| e.contains(&format!(": {expect}")) || e.contains(expect)),
                "{name}: no message names {expect}: {errors:?}"
            );
        }
        println!("{name}: {}", errors.join(" | "));
    }
}
