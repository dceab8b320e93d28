//! Property tests of the parser and validator on hostile input: shipped and generated scenarios with
//! their text mutated (deleted, inserted, duplicated and swapped pieces, extreme numbers, stray brackets and
//! quotes, control and line-separator characters), random JSON trees built from the format's own keys,
//! and valid scenarios with one value replaced. Whatever comes in, validation must not panic and must
//! return either a scenario the engine can trust or one-line messages that start with the file name.
//!
//! `make test` runs `DEFAULT_CASES` cases per property; `make fuzz` sets PROPTEST_CASES to run many more.

mod gen;

use delaycc_sim::scenario::{self, routes::Graph};
use delaycc_sim::Scenario;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

const DEFAULT_CASES: u32 = 3000;
const FILE: &str = "fuzz.toml";

fn config() -> ProptestConfig {
    let mut c = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = DEFAULT_CASES;
    }
    c
}

/// Characters Python's `str.splitlines` (and so any reader of our messages) treats as line breaks.
fn breaks_line(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// What the engine assumes of a validated scenario (it would panic or misbehave otherwise).
fn trustworthy(sc: &Scenario) -> Result<(), String> {
    let graph = Graph::new(sc.nodes.len(), &sc.links);
    let linked = |p: &[u32]| p.len() >= 2 && p.windows(2).all(|w| graph.hop(w[0], w[1]).is_some());
    if sc.duration == 0 || sc.sample_interval == 0 || sc.sample_interval > sc.duration {
        return Err(format!("duration {} / sample interval {}", sc.duration, sc.sample_interval));
    }
    if sc.header_size >= sc.packet_size {
        return Err("no payload".into());
    }
    for f in &sc.flows {
        if !(f.start < sc.duration && f.start < f.stop && f.stop <= sc.duration) {
            return Err(format!("flow {}: start {} stop {}", f.id, f.start, f.stop));
        }
        if !linked(&f.path) || !linked(&f.reverse_path) || f.path[0] != f.src || f.reverse_path[0] != f.dst {
            return Err(format!("flow {}: path {:?} reverse {:?}", f.id, f.path, f.reverse_path));
        }
    }
    for t in &sc.traffic {
        if !linked(&t.path) || t.packet_size == 0 || t.start >= sc.duration {
            return Err(format!("traffic {}: {t:?}", t.id));
        }
    }
    for l in &sc.links {
        for d in &l.dir {
            if !(d.bandwidth_bps > 0.0 && d.bandwidth_bps.is_finite() && (0.0..=1.0).contains(&d.loss)) {
                return Err(format!("link {}: {d:?}", l.id));
            }
        }
    }
    if sc.events.iter().any(|e| e.at >= sc.duration) {
        return Err("an event after the end".into());
    }
    Ok(())
}

/// The property: a trustworthy scenario, or one-line messages that start with the file name.
fn well_behaved(result: Result<Scenario, Vec<String>>, file: &str) -> Result<(), TestCaseError> {
    match result {
        Ok(sc) => trustworthy(&sc).map_err(|e| TestCaseError::fail(format!("accepted but {e}"))),
        Err(errors) if errors.is_empty() => Err(TestCaseError::fail("rejected without a message")),
        Err(errors) => {
            for e in &errors {
                if !e.starts_with(file) || e.chars().any(breaks_line) {
                    return Err(TestCaseError::fail(format!("bad message: {e:?}")));
                }
            }
            Ok(())
        }
    }
}

/// Shipped scenarios: the examples and every paper experiment.
fn seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut texts = Vec::new();
        for dir in [root.clone(), root.join("papers")] {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .expect("scenarios directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            paths.sort();
            texts.extend(paths.iter().map(|p| std::fs::read_to_string(p).expect("readable")));
        }
        assert!(texts.len() >= 5);
        texts
    })
}

/// Pieces of text that stress a TOML parser or the validator.
const TOKENS: &[&str] = &[
    "[[",
    "]]",
    "[",
    "]",
    "{",
    "}",
    "=",
    "\"",
    "'",
    "'''",
    "\"\"\"",
    "\n",
    "\r\n",
    "#",
    ".",
    ",",
    " ",
    "inf",
    "-inf",
    "nan",
    "-1",
    "0",
    "-0.0",
    "1e400",
    "1e-320",
    "99999999999999999999",
    "9223372036854775807",
    "0x7fffffffffffffff",
    "true",
    "1979-05-27T07:32:00Z",
    "\\u0000",
    "\u{0}",
    "\u{7}",
    "\u{2028}",
    "\u{feff}",
    "é",
    "😀",
    "links",
    "flows",
    "traffic",
    "events",
    "transport",
    "params",
    "path",
    "reverse_path",
    "id",
    "kind",
    "at",
    "bandwidth",
    "delay",
    "buffer",
    "loss",
    "streams",
    "start",
    "stop",
    "\"100Mbs\"",
    "\"-5ms\"",
    "\"1e9s\"",
    "\"0B\"",
    "\"1 parsec\"",
    "\"fast\"",
    "\"vegas\"",
    "\"emfast\"",
    "\"s\"",
    "\"d\"",
    "\"r1\"",
    "[\"s\", \"d\"]",
    "[\"s\", \"s\"]",
    "{ flow = \"f1\", seq = 3 }",
    "\"reroute\"",
    "\"link\"",
    "\"cbr\"",
    "\"onoff\"",
    "[[links]]\n",
    "[[flows]]\n",
    "[[events]]\n",
    "[flows.params]\n",
    "[transport]\n",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete { at: f64, len: usize },
    Insert { at: f64, token: &'static str },
    DuplicateLine { line: f64 },
    SwapLines { a: f64, b: f64 },
    ReplaceNumber { nth: f64, token: &'static str },
    Truncate { at: f64 },
}

fn edit() -> impl Strategy<Value = Edit> {
    let frac = || 0.0..1.0f64;
    let token = || prop::sample::select(TOKENS);
    prop_oneof![
        (frac(), 1usize..20).prop_map(|(at, len)| Edit::Delete { at, len }),
        (frac(), token()).prop_map(|(at, token)| Edit::Insert { at, token }),
        frac().prop_map(|line| Edit::DuplicateLine { line }),
        (frac(), frac()).prop_map(|(a, b)| Edit::SwapLines { a, b }),
        (frac(), token()).prop_map(|(nth, token)| Edit::ReplaceNumber { nth, token }),
        frac().prop_map(|at| Edit::Truncate { at }),
    ]
}

fn index(frac: f64, len: usize) -> usize {
    ((frac * len as f64) as usize).min(len.saturating_sub(1))
}

fn apply(text: &str, e: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match *e {
        Edit::Delete { at, len } => {
            let i = index(at, chars.len());
            chars.drain(i..(i + len).min(chars.len()));
        }
        Edit::Insert { at, token } => {
            let i = index(at, chars.len() + 1);
            chars.splice(i..i, token.chars());
        }
        Edit::DuplicateLine { line } if !lines.is_empty() => {
            let i = index(line, lines.len());
            lines.insert(i, lines[i].clone());
            return lines.join("\n");
        }
        Edit::SwapLines { a, b } if !lines.is_empty() => {
            let (i, j) = (index(a, lines.len()), index(b, lines.len()));
            lines.swap(i, j);
            return lines.join("\n");
        }
        Edit::ReplaceNumber { nth, token } => {
            let starts: Vec<usize> = (0..chars.len())
                .filter(|&i| chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()))
                .collect();
            if !starts.is_empty() {
                let s = starts[index(nth, starts.len())];
                let end = (s..chars.len()).find(|&i| !chars[i].is_ascii_alphanumeric() && chars[i] != '.');
                chars.splice(s..end.unwrap_or(chars.len()), token.chars());
            }
        }
        Edit::Truncate { at } => chars.truncate(index(at, chars.len() + 1)),
        _ => {}
    }
    chars.into_iter().collect()
}

/// Keys of the format (from the validator's own tables, so keys added later are fuzzed too), plus keys
/// of nested tables (drop lists, algorithm parameters) and one unknown key, so random trees reach deep
/// into the validator.
fn keys() -> Vec<&'static str> {
    let mut k = scenario::known_keys();
    k.extend(["flow", "seq", "alpha", "beta", "gamma", "k", "pacing", "x"]);
    k
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        prop_oneof![Just(0i64), Just(1), Just(-1), Just(2), Just(1000)].prop_map(|n| json!(n)),
        any::<f64>().prop_filter("JSON numbers are finite", |x| x.is_finite()).prop_map(|x| json!(x)),
        Just(json!(u64::MAX)),
        prop::sample::select(TOKENS).prop_map(|s| json!(s)),
        prop::sample::select(&["s", "d", "r1", "r2", "f1", "l", "fast", "reno", "a->b", "10ms", "1Mbps"][..])
            .prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ]
}

fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys()), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// A random tree shaped like a scenario: a table of the format's keys.
fn scenario_tree() -> impl Strategy<Value = Value> {
    prop::collection::vec((prop::sample::select(keys()), tree()), 0..10)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>()))
}

/// Replaces the value at a random position of the tree (walking `steps`) by `new`.
fn replace_somewhere(v: &mut Value, steps: &[usize], new: Value) {
    let Some((&step, rest)) = steps.split_first() else {
        *v = new;
        return;
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(step % m.len()).cloned().unwrap_or_default();
            if let Some(child) = m.get_mut(&key) {
                replace_somewhere(child, rest, new);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let n = a.len();
            replace_somewhere(&mut a[step % n], rest, new);
        }
        _ => *v = new,
    }
}

fn toml_to_json(text: &str) -> Value {
    let table: toml::Table = toml::from_str(text).expect("generated scenarios are valid TOML");
    serde_json::to_value(table).expect("TOML values are JSON values")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_shipped_scenarios(seed in 0usize..1000, edits in prop::collection::vec(edit(), 1..6)) {
        let mut text = seeds()[seed % seeds().len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        well_behaved(scenario::from_toml_str(&text, FILE), FILE)?;
    }

    #[test]
    fn mutated_generated_scenarios(g in gen::scenario(), edits in prop::collection::vec(edit(), 1..4)) {
        let mut text = g.to_toml();
        for e in &edits {
            text = apply(&text, e);
        }
        well_behaved(scenario::from_toml_str(&text, FILE), FILE)?;
    }

    #[test]
    fn random_trees_as_json_and_toml(v in scenario_tree()) {
        well_behaved(scenario::from_json_str(&v.to_string(), "<dict>"), "<dict>")?;
        if let Ok(text) = toml::to_string(&v) {
            well_behaved(scenario::from_toml_str(&text, FILE), FILE)?;
        }
    }

    #[test]
    fn valid_scenarios_with_one_value_replaced(
        g in gen::scenario(),
        steps in prop::collection::vec(any::<usize>(), 1..5),
        new in tree(),
    ) {
        let mut v = toml_to_json(&g.to_toml());
        replace_somewhere(&mut v, &steps, new);
        well_behaved(scenario::from_json_str(&v.to_string(), "<dict>"), "<dict>")?;
    }

    #[test]
    fn arbitrary_text(text in ".{0,400}") {
        well_behaved(scenario::from_toml_str(&text, FILE), FILE)?;
        well_behaved(scenario::from_json_str(&text, FILE), FILE)?;
    }
}

#[test]
fn the_seeds_are_valid() {
    for s in seeds() {
        scenario::from_toml_str(s, FILE).expect("shipped scenarios are valid");
    }
}

#[test]
fn the_fuzzed_keys_come_from_every_table_of_the_validator() {
    let k = keys();
    for key in
        ["max_samples", "limits", "max_events", "max_memory", "transport", "pacing", "reverse_path", "up"]
    {
        assert!(k.contains(&key), "{key} is not fuzzed");
    }
}
