//! Text helpers every other part of the scenario layer uses: key paths (`links[0].delay`) and messages
//! kept to one line. They depend on nothing, so the input tree and the checked getters can both use them.

/// The path of `key` inside the table at `path` (the root's path is empty).
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Escapes every character that could break a message into several lines (or hide part of it): control
/// characters and the Unicode line and paragraph separators. Messages quote user input (ids, keys, values).
pub fn one_line(s: &str) -> String {
    if !s.chars().any(breaks_line) {
        return s.to_string();
    }
    s.chars().map(|c| if breaks_line(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}

fn breaks_line(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}
