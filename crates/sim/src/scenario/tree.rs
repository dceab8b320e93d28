//! A small input tree that remembers where each value came from, so that every validation error can name
//! the key path and, for TOML files, the line. Scenarios arrive either as TOML text or as JSON (a Python
//! dict passed through the bindings); both become this tree.

use std::fmt;

#[derive(Clone, Debug)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime(String),
    Array(Vec<Node>),
    /// Key order as in the source (JSON) or sorted (TOML); only error order depends on it.
    Table(Vec<(String, Node)>),
}

#[derive(Clone, Debug)]
pub struct Node {
    pub value: Value,
    /// 1-based line in the source file, when known.
    pub line: Option<u32>,
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Datetime(_) => "a date-time",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }
}

/// A syntax error in the input, before any key could be checked.
#[derive(Debug)]
pub struct SyntaxError {
    pub line: Option<u32>,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

fn line_of(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    text.as_bytes()[..end].iter().filter(|b| **b == b'\n').count() as u32 + 1
}

/// Parses TOML text into a tree carrying line numbers.
pub fn from_toml(text: &str) -> Result<Node, SyntaxError> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(text).map_err(|e| SyntaxError {
        line: e.span().map(|s| line_of(text, s.start)),
        message: first_line(e.message()),
    })?;

    fn convert(text: &str, v: &DeValue<'_>, start: usize) -> Result<Node, SyntaxError> {
        let line = Some(line_of(text, start));
        let value = match v {
            DeValue::String(s) => Value::Str(s.to_string()),
            DeValue::Integer(i) => {
                let digits: String = i.as_str().chars().filter(|c| *c != '_').collect();
                let digits = digits
                    .trim_start_matches('+')
                    .trim_start_matches("0x")
                    .trim_start_matches("0o")
                    .trim_start_matches("0b");
                match i64::from_str_radix(digits, i.radix()) {
                    Ok(n) => Value::Int(n),
                    Err(_) => {
                        return Err(SyntaxError {
                            line,
                            message: format!("integer '{}' is out of range", i.as_str()),
                        })
                    }
                }
            }
            DeValue::Float(f) => {
                let s: String = f.as_str().chars().filter(|c| *c != '_').collect();
                let x = match s.trim_start_matches('+') {
                    "inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    "nan" | "-nan" => f64::NAN,
                    other => other.parse().map_err(|_| SyntaxError {
                        line,
                        message: format!("'{}' is not a number", f.as_str()),
                    })?,
                };
                Value::Float(x)
            }
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Datetime(d) => Value::Datetime(d.to_string()),
            DeValue::Array(a) => Value::Array(
                a.iter()
                    .map(|item| convert(text, item.get_ref(), item.span().start))
                    .collect::<Result<_, _>>()?,
            ),
            DeValue::Table(t) => Value::Table(
                t.iter()
                    .map(|(k, item)| {
                        Ok((k.get_ref().to_string(), convert(text, item.get_ref(), k.span().start)?))
                    })
                    .collect::<Result<_, _>>()?,
            ),
        };
        Ok(Node { value, line })
    }

    let root = doc.get_ref();
    let entries = root
        .iter()
        .map(|(k, item)| Ok((k.get_ref().to_string(), convert(text, item.get_ref(), k.span().start)?)))
        .collect::<Result<_, SyntaxError>>()?;
    Ok(Node { value: Value::Table(entries), line: None })
}

/// Parses JSON text (an object) into a tree without line numbers.
pub fn from_json(text: &str) -> Result<Node, SyntaxError> {
    fn convert(v: &serde_json::Value) -> Result<Node, SyntaxError> {
        let value = match v {
            serde_json::Value::Null => {
                return Err(SyntaxError { line: None, message: "null (None) is not a valid value".into() })
            }
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(convert).collect::<Result<_, _>>()?),
            serde_json::Value::Object(o) => Value::Table(
                o.iter().map(|(k, v)| Ok((k.clone(), convert(v)?))).collect::<Result<_, SyntaxError>>()?,
            ),
        };
        Ok(Node { value, line: None })
    }
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| SyntaxError { line: None, message: e.to_string() })?;
    convert(&v)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("invalid TOML").trim().to_string()
}
