//! Algorithm parameters: each algorithm declares a schema (name, kind, default, source), the scenario
//! validator checks `[flows.params]` against it, and the algorithm reads typed values back.

use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// A real number in [min, max]; `min_exclusive` makes the lower bound open.
    Float {
        min: f64,
        max: f64,
        min_exclusive: bool,
    },
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// A duration in seconds (given as a number or a string with a unit), in [min, max] seconds.
    Duration {
        min: f64,
        max: f64,
    },
    Choice(&'static [&'static str]),
}

/// A rule between parameters: Ok, or the parameter to report a broken rule on, and why.
pub type RuleResult = Result<(), (&'static str, String)>;

#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Num(f64),
    Bool(bool),
    Str(String),
}

#[derive(Clone, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    pub default: ParamDefault,
    pub description: &'static str,
    /// Where the default comes from: a paper, an ns-2 module, an RFC, or "our choice because ...".
    pub source: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub enum ParamDefault {
    Num(f64),
    Bool(bool),
    Str(&'static str),
}

impl ParamDefault {
    pub fn value(&self) -> ParamValue {
        match self {
            ParamDefault::Num(x) => ParamValue::Num(*x),
            ParamDefault::Bool(b) => ParamValue::Bool(*b),
            ParamDefault::Str(s) => ParamValue::Str(s.to_string()),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        match self {
            ParamDefault::Num(x) => serde_json::json!(x),
            ParamDefault::Bool(b) => serde_json::json!(b),
            ParamDefault::Str(s) => serde_json::json!(s),
        }
    }
}

impl ParamSpec {
    /// The entry as `delaycc list` shows it (algorithms' and queue disciplines' alike).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "kind": match self.kind {
                ParamKind::Float { .. } => "number",
                ParamKind::Int { .. } => "integer",
                ParamKind::Bool => "boolean",
                ParamKind::Duration { .. } => "duration",
                ParamKind::Choice(_) => "choice",
            },
            "range": self.kind.describe(),
            "default": self.default.to_json(),
            "description": self.description,
            "source": self.source,
        })
    }
}

impl ParamKind {
    pub fn describe(&self) -> String {
        match self {
            ParamKind::Float { min, max, min_exclusive } => {
                let lo = if *min_exclusive { "(" } else { "[" };
                format!("number in {lo}{min}, {max}]")
            }
            ParamKind::Int { min, max } => format!("integer in [{min}, {max}]"),
            ParamKind::Bool => "true/false".into(),
            ParamKind::Duration { min, max } => format!("duration in [{min}s, {max}s]"),
            ParamKind::Choice(c) => format!("one of {}", c.join(", ")),
        }
    }
}

/// Resolved parameter values of one flow: every declared parameter, defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct Params {
    values: BTreeMap<&'static str, ParamValue>,
}

impl Params {
    pub fn with_defaults<'a>(specs: impl IntoIterator<Item = &'a ParamSpec>) -> Params {
        Params { values: specs.into_iter().map(|s| (s.name, s.default.value())).collect() }
    }

    pub fn set(&mut self, name: &'static str, v: ParamValue) {
        self.values.insert(name, v);
    }

    /// A numeric parameter (floats, integers and durations in seconds). Panics on a name the algorithm did
    /// not declare: that is a programming error, caught by the registry tests.
    pub fn num(&self, name: &str) -> f64 {
        match self.values.get(name) {
            Some(ParamValue::Num(x)) => *x,
            other => panic!("parameter {name} is not a declared number: {other:?}"),
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(ParamValue::Bool(b)) => *b,
            other => panic!("parameter {name} is not a declared boolean: {other:?}"),
        }
    }

    pub fn choice(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(ParamValue::Str(s)) => s,
            other => panic!("parameter {name} is not a declared choice: {other:?}"),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for (k, v) in &self.values {
            let j = match v {
                ParamValue::Num(x) => serde_json::json!(x),
                ParamValue::Bool(b) => serde_json::json!(b),
                ParamValue::Str(s) => serde_json::json!(s),
            };
            m.insert(k.to_string(), j);
        }
        serde_json::Value::Object(m)
    }
}
