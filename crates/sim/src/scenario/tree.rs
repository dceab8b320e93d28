//! A small input tree that remembers where each value came from, so that every validation error can name
//! the key path and, for TOML files, the line. Scenarios arrive either as TOML text or as JSON (a Python
//! dict passed through the bindings); both become this tree.

use super::locate::key_path_at;
use super::text::{join, one_line};
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
    /// The key path the error is about, when it can be told.
    pub path: Option<String>,
    pub message: String,
}

impl SyntaxError {
    /// The one-line message: `file[:line]: [key.path: ]reason`.
    pub fn to_line(&self, file: &str) -> String {
        let loc = match self.line {
            Some(l) => format!("{file}:{l}"),
            None => file.to_string(),
        };
        one_line(&match self.path.as_deref() {
            Some(p) if !p.is_empty() => format!("{loc}: {p}: {}", self.message),
            _ => format!("{loc}: {}", self.message),
        })
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

/// Offsets of the newlines of a text, to turn a byte offset into a line number in O(log n) (counting
/// newlines from the start for every value made parsing quadratic: 11 s for 10 000 flows).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i).collect())
    }

    /// 1-based line of the byte at `offset`.
    fn of(&self, offset: usize) -> u32 {
        self.0.partition_point(|&nl| nl < offset) as u32 + 1
    }
}

/// Parses TOML text into a tree carrying line numbers.
pub fn from_toml(text: &str) -> Result<Node, SyntaxError> {
    use toml::de::{DeTable, DeValue};
    let lines = Lines::new(text);
    let doc = DeTable::parse(text).map_err(|e| SyntaxError {
        line: e.span().map(|s| lines.of(s.start)),
        path: e.span().and_then(|s| key_path_at(text, s.start)),
        message: format!("invalid TOML: {}", explain(&first_line(e.message()))),
    })?;

    fn convert(lines: &Lines, v: &DeValue<'_>, start: usize, path: &str) -> Result<Node, SyntaxError> {
        let line = Some(lines.of(start));
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
                            path: Some(path.to_string()),
                            message: format!(
                                "integer '{}' does not fit in 64 bits (at most {})",
                                i.as_str(),
                                i64::MAX
                            ),
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
                        path: Some(path.to_string()),
                        message: format!("'{}' is not a number", f.as_str()),
                    })?,
                };
                Value::Float(x)
            }
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Datetime(d) => Value::Datetime(d.to_string()),
            DeValue::Array(a) => Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, item)| {
                        convert(lines, item.get_ref(), item.span().start, &format!("{path}[{i}]"))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            DeValue::Table(t) => Value::Table(
                t.iter()
                    .map(|(k, item)| {
                        let key = k.get_ref().to_string();
                        let node = convert(lines, item.get_ref(), k.span().start, &join(path, &key))?;
                        Ok((key, node))
                    })
                    .collect::<Result<_, _>>()?,
            ),
        };
        Ok(Node { value, line })
    }

    let root = doc.get_ref();
    let entries = root
        .iter()
        .map(|(k, item)| {
            let key = k.get_ref().to_string();
            Ok((key.clone(), convert(&lines, item.get_ref(), k.span().start, &key)?))
        })
        .collect::<Result<_, SyntaxError>>()?;
    Ok(Node { value: Value::Table(entries), line: None })
}

/// Parses JSON text (an object) into a tree without line numbers.
pub fn from_json(text: &str) -> Result<Node, SyntaxError> {
    fn convert(v: &serde_json::Value, path: &str) -> Result<Node, SyntaxError> {
        let value = match v {
            serde_json::Value::Null => {
                return Err(SyntaxError {
                    line: None,
                    path: Some(path.to_string()),
                    message: "null (None) is not a valid value".into(),
                })
            }
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) if n.is_u64() && n.as_i64().is_none() => {
                return Err(SyntaxError {
                    line: None,
                    path: Some(path.to_string()),
                    message: format!("integer {n} does not fit in 64 bits (at most {})", i64::MAX),
                })
            }
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(a) => Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, v)| convert(v, &format!("{path}[{i}]")))
                    .collect::<Result<_, _>>()?,
            ),
            serde_json::Value::Object(o) => Value::Table(
                o.iter()
                    .map(|(k, v)| Ok((k.clone(), convert(v, &join(path, k))?)))
                    .collect::<Result<_, SyntaxError>>()?,
            ),
        };
        Ok(Node { value, line: None })
    }
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| SyntaxError {
        line: None,
        path: None,
        message: format!("invalid JSON: {}", first_line(&e.to_string())),
    })?;
    convert(&v, "")
}

/// Adds what the user can do to the parser's terser messages.
fn explain(message: &str) -> String {
    match message {
        "duplicate key" => "duplicate key (each key may appear once per table)".into(),
        "recursion limit" => "tables or keys nested too deeply (recursion limit)".into(),
        "cannot recurse further; max recursion depth met" => {
            "arrays or inline tables nested too deeply (recursion limit)".into()
        }
        other => other.to_string(),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("syntax error").trim().to_string()
}
