//! Values with units, as `docs/scenario-format.md` defines them: durations, rates and sizes, given either
//! as bare numbers (seconds, bits per second, bytes) or as strings with a unit suffix.

use crate::time::{Time, NS_PER_SEC};

/// Splits "12.5ms" into (12.5, "ms"). Whitespace between number and unit is allowed.
fn split_number(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E' | '_')))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    // 'e' may start a unit name only if it is not followed by a digit; units here never start with e.
    let (num, unit) = s.split_at(end);
    let num: String = num.chars().filter(|c| *c != '_').collect();
    let v: f64 = num.parse().ok()?;
    Some((v, unit.trim()))
}

fn check_finite_non_negative(v: f64) -> Result<f64, String> {
    if !v.is_finite() {
        return Err("must be a finite number".into());
    }
    if v < 0.0 {
        return Err("must not be negative".into());
    }
    Ok(v)
}

/// Duration from a number of seconds or a string such as "20ms". Returns nanoseconds.
pub fn duration_from_str(s: &str) -> Result<Time, String> {
    let bad = || format!("'{s}' is not a duration; use e.g. '20ms' or '1.5s'");
    let (v, unit) = split_number(s).ok_or_else(bad)?;
    let scale = match unit {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" | "" => 1.0,
        _ => return Err(bad()),
    };
    duration_from_secs(v * scale)
}

pub fn duration_from_secs(v: f64) -> Result<Time, String> {
    let v = check_finite_non_negative(v)?;
    if v > 1e9 {
        return Err("is larger than 1e9 seconds".into());
    }
    Ok((v * NS_PER_SEC as f64).round() as Time)
}

/// Rate in bits per second from a number or a string such as "100Mbps" (decimal prefixes).
pub fn rate_from_str(s: &str) -> Result<f64, String> {
    let bad = || format!("'{s}' is not a rate; use e.g. '100Mbps'");
    let (v, unit) = split_number(s).ok_or_else(bad)?;
    let scale = match unit {
        "bps" | "" => 1.0,
        "kbps" | "Kbps" => 1e3,
        "Mbps" => 1e6,
        "Gbps" => 1e9,
        _ => return Err(bad()),
    };
    check_finite_non_negative(v * scale)
}

/// Size in bytes from a number or a string such as "1MB" / "64KiB".
pub fn size_from_str(s: &str) -> Result<f64, String> {
    let bad = || format!("'{s}' is not a size; use e.g. '1500B', '64KB' or '1MiB'");
    let (v, unit) = split_number(s).ok_or_else(bad)?;
    let scale = match unit {
        "B" | "" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(bad()),
    };
    check_finite_non_negative(v * scale)
}

/// A byte count for messages: "512 B", "1.5 KiB", "2.00 GiB" (binary prefixes, three significant digits).
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_messages() {
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(1536), "1.50 KiB");
        assert_eq!(format_size(2 << 30), "2.00 GiB");
        assert_eq!(format_size(300 << 20), "300 MiB");
        assert_eq!(format_size(u64::MAX), "16.0 EiB");
    }

    #[test]
    fn durations() {
        assert_eq!(duration_from_str("20ms").unwrap(), 20_000_000);
        assert_eq!(duration_from_str("1.5s").unwrap(), 1_500_000_000);
        assert_eq!(duration_from_str("3 us").unwrap(), 3_000);
        assert_eq!(duration_from_str("7ns").unwrap(), 7);
        assert_eq!(duration_from_str("2").unwrap(), 2_000_000_000);
        assert!(duration_from_str("20 msec").is_err());
        assert!(duration_from_str("-1s").is_err());
        assert!(duration_from_str("abc").is_err());
        assert!(duration_from_str("").is_err());
    }

    #[test]
    fn rates_and_sizes() {
        assert_eq!(rate_from_str("100Mbps").unwrap(), 100e6);
        assert_eq!(rate_from_str("160kbps").unwrap(), 160e3);
        assert_eq!(rate_from_str("1.5Gbps").unwrap(), 1.5e9);
        assert!(rate_from_str("100Mbs").is_err());
        assert_eq!(size_from_str("1MB").unwrap(), 1e6);
        assert_eq!(size_from_str("64KiB").unwrap(), 65536.0);
        assert_eq!(size_from_str("1500").unwrap(), 1500.0);
        assert!(size_from_str("1 parsec").is_err());
    }
}
