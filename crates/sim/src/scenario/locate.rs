//! Names the key path at a position in TOML text. The TOML parser reports syntax errors (a duplicate key, a
//! malformed value) by byte offset only; this follows the table headers before that offset so the message
//! can name `links[1].delay` like every other error. It answers only where it is sure: on a `key = ...` line
//! or a table header outside any multi-line string, array or inline table; elsewhere it returns None.

use std::collections::HashMap;

/// Lexical state carried from one line to the next.
#[derive(Clone, Copy, PartialEq)]
enum Str {
    None,
    MultiBasic,
    MultiLiteral,
}

struct Scan {
    string: Str,
    /// Open `[` and `{` of values (not of headers).
    depth: i64,
}

impl Scan {
    fn clean(&self) -> bool {
        self.string == Str::None && self.depth == 0
    }

    /// Advances over one line of values, tracking strings, comments and brackets.
    fn line(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match self.string {
                Str::MultiBasic => {
                    if b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i..].starts_with(b"\"\"\"") {
                        self.string = Str::None;
                        i += 3;
                        continue;
                    }
                    i += 1;
                }
                Str::MultiLiteral => {
                    if b[i..].starts_with(b"'''") {
                        self.string = Str::None;
                        i += 3;
                        continue;
                    }
                    i += 1;
                }
                Str::None => match b[i] {
                    b'#' => return,
                    b'[' | b'{' => {
                        self.depth += 1;
                        i += 1;
                    }
                    b']' | b'}' => {
                        self.depth -= 1;
                        i += 1;
                    }
                    b'"' if b[i..].starts_with(b"\"\"\"") => {
                        self.string = Str::MultiBasic;
                        i += 3;
                    }
                    b'\'' if b[i..].starts_with(b"'''") => {
                        self.string = Str::MultiLiteral;
                        i += 3;
                    }
                    b'"' => i = skip_basic(b, i + 1),
                    b'\'' => i = skip_literal(b, i + 1),
                    _ => i += 1,
                },
            }
        }
    }
}

/// Index just past the closing quote of a one-line basic string whose content starts at `i`.
fn skip_basic(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

fn skip_literal(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|c| *c == b'\'').map_or(b.len(), |p| i + p + 1)
}

/// Splits a dotted key (`a."b c".d`) at the start of `s`; returns the segments and the rest of `s`.
fn dotted_key(s: &str) -> Option<(Vec<String>, &str)> {
    let mut segs = Vec::new();
    let mut rest = s.trim_start();
    loop {
        let (seg, after) = if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"')?;
            (r[..end].to_string(), &r[end + 1..])
        } else if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'')?;
            (r[..end].to_string(), &r[end + 1..])
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            (rest[..end].to_string(), &rest[end..])
        };
        segs.push(seg);
        let after = after.trim_start();
        match after.strip_prefix('.') {
            Some(r) => rest = r.trim_start(),
            None => return Some((segs, after)),
        }
    }
}

/// A table header line: its key segments and whether it is an array of tables (`[[...]]`).
fn header(line: &str) -> Option<(Vec<String>, bool)> {
    let t = line.trim_start();
    let (inner, array) = match t.strip_prefix("[[") {
        Some(r) => (r, true),
        None => (t.strip_prefix('[')?, false),
    };
    let (segs, rest) = dotted_key(inner)?;
    let close = if array { "]]" } else { "]" };
    let rest = rest.strip_prefix(close)?.trim_start();
    (rest.is_empty() || rest.starts_with('#')).then_some((segs, array))
}

/// Key paths of the tables seen so far; arrays of tables count their elements.
#[derive(Default)]
struct Tables {
    arrays: HashMap<String, usize>,
}

impl Tables {
    /// The path a header names; an array header appends a new element when `open` is true.
    fn resolve(&mut self, segs: &[String], array: bool, open: bool) -> String {
        let mut path = String::new();
        for (i, seg) in segs.iter().enumerate() {
            path = if path.is_empty() { seg.clone() } else { format!("{path}.{seg}") };
            let last = i + 1 == segs.len();
            if last && array && open {
                let n = self.arrays.entry(path.clone()).or_insert(0);
                *n += 1;
                return format!("{path}[{}]", *n - 1);
            }
            if let Some(n) = self.arrays.get(&path) {
                path = format!("{path}[{}]", n.saturating_sub(1));
            }
        }
        path
    }
}

/// The key path named on the line holding byte `offset`, when it can be told for sure.
pub fn key_path_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text.as_bytes()[..offset].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let mut scan = Scan { string: Str::None, depth: 0 };
    let mut tables = Tables::default();
    let mut current = String::new();
    let before = std::str::from_utf8(&text.as_bytes()[..line_start]).ok()?;
    for line in before.lines() {
        if scan.clean() {
            if let Some((segs, array)) = header(line) {
                current = tables.resolve(&segs, array, true);
                continue;
            }
        }
        scan.line(line);
    }
    if !scan.clean() {
        return None;
    }
    let line = std::str::from_utf8(&text.as_bytes()[line_start..]).ok()?.lines().next().unwrap_or("");
    if let Some((segs, array)) = header(line) {
        return Some(tables.resolve(&segs, array, false));
    }
    let (segs, rest) = dotted_key(line)?;
    if !rest.starts_with('=') {
        return None;
    }
    let key = segs.join(".");
    Some(if current.is_empty() { key } else { format!("{current}.{key}") })
}

#[cfg(test)]
mod tests {
    use super::key_path_at;

    fn at(text: &str, needle: &str) -> Option<String> {
        key_path_at(text, text.rfind(needle).expect("needle"))
    }

    #[test]
    fn follows_headers_and_arrays_of_tables() {
        let t = "name = 1\n[[links]]\na = 1\n[[links]]\ndelay = 1\ndelay = 2\n";
        assert_eq!(at(t, "delay = 2").as_deref(), Some("links[1].delay"));
        let t = "[[flows]]\nid = 1\n[flows.params]\nalpha = 1\n[flows.params]\n";
        assert_eq!(at(t, "[flows.params]").as_deref(), Some("flows[0].params"));
        assert_eq!(at("x = 1\nname = \"oops\n", "name").as_deref(), Some("name"));
        assert_eq!(at("[a]\n\"b c\".d = 1\n", "\"b c\"").as_deref(), Some("a.b c.d"));
    }

    #[test]
    fn gives_up_inside_values() {
        let t = "path = [\n  \"a\",\n  [\"b\"],\n]\n";
        assert_eq!(at(t, "[\"b\"]"), None);
        let t = "d = \"\"\"\n[links]\n\"\"\"\nx = 1\n";
        assert_eq!(at(t, "x = 1").as_deref(), Some("x"));
        assert_eq!(at("[x] # c\n'q = 1\n", "'q"), None);
        assert_eq!(key_path_at("", 5), None);
    }
}
