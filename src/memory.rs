//! Memory budgets: reading sizes such as `8G` from the command line, the default
//! budget (a quarter of the machine's memory) that table choices must stay within, and
//! the smallest budget worth solving with.

/// Why a size could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid size {0:?}: expected a number with an optional K, M, G or T suffix, such as 512M or 8G")]
pub struct SizeError(pub String);

/// Parses `1234`, `64K`, `512M`, `8G`, `1T` (binary multiples; a trailing `B` or `iB`
/// is accepted) into bytes.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let err = || SizeError(text.to_string());
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let value: f64 = digits.trim().parse().map_err(|_| err())?;
    if !value.is_finite() || value < 0.0 {
        return Err(err());
    }
    let bytes = value * (1u64 << shift) as f64;
    if bytes > u64::MAX as f64 {
        return Err(err());
    }
    Ok(bytes as u64)
}

/// The smallest budget `solve` accepts: 16 MiB. The shipped puzzles' move tables and a
/// first pruning table take a few MiB; below that the search runs with little or no
/// pruning, tens of times slower, which is never what a budget is meant to ask for.
/// Larger puzzles need more, and the planner says how much when a budget falls short.
pub const MIN_BUDGET: u64 = 16 << 20;

/// Why a memory budget was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error(
        "memory budget {} is too small: expected at least {} ({} bytes); below that the \
         move tables and a first pruning table do not fit and solving runs tens of times slower",
        human(*.0), suggest(MIN_BUDGET), MIN_BUDGET
    )]
    TooSmall(u64),
}

/// Parses a budget for solving as [`parse_size`] does, refusing budgets under
/// [`MIN_BUDGET`].
pub fn parse_budget(text: &str) -> Result<u64, BudgetError> {
    let bytes = parse_size(text)?;
    if bytes < MIN_BUDGET {
        return Err(BudgetError::TooSmall(bytes));
    }
    Ok(bytes)
}

/// A budget of at least `bytes`, written as `--memory` takes it: whole MiB, rounded up.
pub fn suggest(bytes: u64) -> String {
    format!("{}M", bytes.div_ceil(1 << 20).max(1))
}

/// The machine's total memory in bytes, from `/proc/meminfo` where there is one.
pub fn total_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The default budget for tables: a quarter of the machine's memory, or 1 GiB when the
/// total cannot be read.
pub fn default_budget() -> u64 {
    total_memory().map_or(1 << 30, |t| t / 4)
}

/// Formats a byte count for people: `1.5 GiB`, `320 MiB`, `12 KiB`, `17 B`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else if v < 10.0 {
        format!("{v:.1} {}", UNITS[u])
    } else {
        format!("{v:.0} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8G").unwrap(), 8 << 30);
        assert_eq!(parse_size("512m").unwrap(), 512 << 20);
        assert_eq!(parse_size("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_size("100").unwrap(), 100);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert_eq!(human(3 << 29), "1.5 GiB");
        assert_eq!(human(17), "17 B");
        assert!(default_budget() > 0);
    }

    #[test]
    fn budgets_too_small_to_solve_with_are_refused() {
        for text in ["0", "1", "1B", "15M", "16383K"] {
            let e = parse_budget(text).unwrap_err();
            assert!(
                e.to_string().contains("expected at least 16M"),
                "{text}: {e}"
            );
        }
        assert_eq!(parse_budget("16M").unwrap(), MIN_BUDGET);
        assert!(matches!(parse_budget("lots"), Err(BudgetError::Size(_))));
        assert_eq!(suggest(1), "1M");
        assert_eq!(suggest((3 << 20) + 1), "4M");
    }
}
