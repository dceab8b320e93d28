//! Typed access to the input tree. Every getter records a one-line error naming the file, the line (when
//! known) and the key path, and returns `None`, so validation can go on and report every problem at once.

use super::text::{join, one_line};
use super::tree::{Node, Value};
use crate::time::Time;
use crate::units;

/// Accumulates validation errors for one scenario file.
pub struct Checker {
    pub file: String,
    pub errors: Vec<String>,
}

impl Checker {
    pub fn new(file: &str) -> Self {
        Checker { file: file.to_string(), errors: Vec::new() }
    }

    pub fn error(&mut self, line: Option<u32>, path: &str, message: impl AsRef<str>) {
        let msg = message.as_ref();
        let loc = match line {
            Some(l) => format!("{}:{}", self.file, l),
            None => self.file.clone(),
        };
        if path.is_empty() {
            self.errors.push(one_line(&format!("{loc}: {msg}")));
        } else {
            self.errors.push(one_line(&format!("{loc}: {path}: {msg}")));
        }
    }
}

/// A table being read: remembers which keys were consumed so that the rest can be reported as unknown.
pub struct Table<'a> {
    pub path: String,
    pub line: Option<u32>,
    entries: &'a [(String, Node)],
    used: Vec<bool>,
}

impl<'a> Table<'a> {
    pub fn new(node: &'a Node, path: &str, ck: &mut Checker) -> Option<Table<'a>> {
        match &node.value {
            Value::Table(entries) => Some(Table {
                path: path.to_string(),
                line: node.line,
                entries,
                used: vec![false; entries.len()],
            }),
            other => {
                ck.error(node.line, path, format!("must be a table, not {}", other.type_name()));
                None
            }
        }
    }

    pub fn key_path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The raw node under `key`, marking it used.
    pub fn node(&mut self, key: &str) -> Option<&'a Node> {
        let i = self.entries.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some(&self.entries[i].1)
    }

    pub fn has(&self, key: &str) -> bool {
        self.entries.iter().any(|(k, _)| k == key)
    }

    /// Reports every key that no getter asked for. `allowed` names the keys this table accepts, for the hint.
    pub fn finish(self, ck: &mut Checker, allowed: &[&str]) {
        for ((k, node), used) in self.entries.iter().zip(&self.used) {
            if !used {
                let hint = if allowed.is_empty() {
                    String::new()
                } else {
                    format!("; allowed keys: {}", allowed.join(", "))
                };
                ck.error(node.line, &join(&self.path, k), format!("unknown key{hint}"));
            }
        }
    }

    pub fn required(&mut self, key: &str, ck: &mut Checker) -> Option<&'a Node> {
        let n = self.node(key);
        if n.is_none() {
            ck.error(self.line, &self.key_path(key), "is required");
        }
        n
    }

    pub fn string(&mut self, key: &str, ck: &mut Checker) -> Option<String> {
        let n = self.node(key)?;
        as_string(n, &self.key_path(key), ck)
    }

    pub fn boolean(&mut self, key: &str, ck: &mut Checker) -> Option<bool> {
        let n = self.node(key)?;
        match &n.value {
            Value::Bool(b) => Some(*b),
            other => {
                ck.error(
                    n.line,
                    &self.key_path(key),
                    format!("must be true or false, not {}", other.type_name()),
                );
                None
            }
        }
    }

    pub fn number(&mut self, key: &str, ck: &mut Checker) -> Option<f64> {
        let n = self.node(key)?;
        as_number(n, &self.key_path(key), ck)
    }

    pub fn integer(&mut self, key: &str, min: i64, max: i64, ck: &mut Checker) -> Option<i64> {
        let n = self.node(key)?;
        as_integer(n, &self.key_path(key), min, max, ck)
    }

    pub fn duration(&mut self, key: &str, ck: &mut Checker) -> Option<Time> {
        let n = self.node(key)?;
        as_duration(n, &self.key_path(key), ck)
    }

    pub fn rate(&mut self, key: &str, ck: &mut Checker) -> Option<f64> {
        let n = self.node(key)?;
        with_unit(n, &self.key_path(key), ck, units::rate_from_str, "a rate such as '100Mbps'")
    }

    pub fn size(&mut self, key: &str, ck: &mut Checker) -> Option<f64> {
        let n = self.node(key)?;
        with_unit(n, &self.key_path(key), ck, units::size_from_str, "a size such as '1500B'")
    }
}

pub fn as_string(n: &Node, path: &str, ck: &mut Checker) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        other => {
            ck.error(n.line, path, format!("must be a string, not {}", other.type_name()));
            None
        }
    }
}

pub fn as_number(n: &Node, path: &str, ck: &mut Checker) -> Option<f64> {
    let v = match &n.value {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        other => {
            ck.error(n.line, path, format!("must be a number, not {}", other.type_name()));
            return None;
        }
    };
    if !v.is_finite() {
        ck.error(n.line, path, "must be a finite number");
        return None;
    }
    Some(v)
}

pub fn as_integer(n: &Node, path: &str, min: i64, max: i64, ck: &mut Checker) -> Option<i64> {
    let v = match &n.value {
        Value::Int(i) => *i,
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() && f.abs() < 9e15 => *f as i64,
        other => {
            ck.error(n.line, path, format!("must be an integer, not {}", other.type_name()));
            return None;
        }
    };
    if v < min || v > max {
        ck.error(n.line, path, format!("{v} is out of range [{min}, {max}]"));
        return None;
    }
    Some(v)
}

fn with_unit(
    n: &Node,
    path: &str,
    ck: &mut Checker,
    parse: fn(&str) -> Result<f64, String>,
    what: &str,
) -> Option<f64> {
    let r = match &n.value {
        Value::Int(i) => parse(&i.to_string()),
        Value::Float(f) if f.is_finite() => parse(&format!("{f:e}")),
        Value::Float(_) => Err("must be a finite number".into()),
        Value::Str(s) => parse(s),
        other => Err(format!("must be {what}, not {}", other.type_name())),
    };
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            ck.error(n.line, path, e);
            None
        }
    }
}

pub fn as_duration(n: &Node, path: &str, ck: &mut Checker) -> Option<Time> {
    let r = match &n.value {
        Value::Int(i) => units::duration_from_secs(*i as f64),
        Value::Float(f) => units::duration_from_secs(*f),
        Value::Str(s) => units::duration_from_str(s),
        other => Err(format!("must be a duration such as '20ms', not {}", other.type_name())),
    };
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            ck.error(n.line, path, e);
            None
        }
    }
}

/// Items of an array (an absent key is an empty list).
pub fn array<'a>(n: Option<&'a Node>, path: &str, ck: &mut Checker) -> &'a [Node] {
    match n {
        None => &[],
        Some(Node { value: Value::Array(items), .. }) => items,
        Some(other) => {
            let hint = match other.value {
                // `[flows]` instead of `[[flows]]`: TOML's array of tables needs double brackets.
                Value::Table(_) if !path.contains(['.', '[']) => {
                    format!("; write [[{path}]] (double brackets) for each entry")
                }
                _ => String::new(),
            };
            ck.error(other.line, path, format!("must be an array, not {}{hint}", other.value.type_name()));
            &[]
        }
    }
}
