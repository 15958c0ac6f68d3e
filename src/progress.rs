//! How long-running library work reports progress and warnings without printing:
//! the library calls a [`Progress`]; the command-line layer draws it (indicatif) or
//! discards it. Phases are named in words (`pruning table 2 of 3: EDGES positions and
//! twists, 92.9 M entries`); the helpers at the end put counts, sizes, durations and
//! the time left into such words, for the library and the drawing alike.

/// Receives progress and warnings from library code. Implementations must be cheap
/// to call from hot-ish loops (call `inc` in batches) and usable from rayon workers.
pub trait Progress: Sync {
    /// A new phase starts; `total` is its size in steps when known.
    fn start(&self, _what: &str, _total: Option<u64>) {}
    /// `n` more steps of the current phase are done.
    fn inc(&self, _n: u64) {}
    /// The current phase is over.
    fn finish(&self) {}
    /// Something the user should know that is not an error (a rebuilt table, say).
    fn warn(&self, _message: &str) {}
    /// Something the user should know before long work starts (how much a build will
    /// take, and how to make it quicker); neither a warning nor an error.
    fn note(&self, _message: &str) {}
    /// A search of one depth starts. Unlike a phase, it is live status rather than a
    /// stage of work: `inc` then counts its nodes, `finish` ends it.
    fn searching(&self, _depth: u32) {}
    /// The search in progress has found `_total` solutions so far.
    fn solutions(&self, _total: u64) {}
}

/// A [`Progress`] that ignores everything; for tests, benches and library users who do
/// not care.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// A count in words for progress lines: `512`, `45.2 k`, `92.9 M`, `1.2 G`; three
/// significant digits at most, so a line stays short and readable.
pub fn format_count(n: u64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in UNITS {
        let x = n as f64 / scale;
        // Rounding 999.96 k up to 1000.0 k would read badly: such a value goes to the
        // next unit through the loop order (the larger unit was tried first).
        if x >= 0.9995 {
            return if x >= 99.95 {
                format!("{x:.0} {unit}")
            } else {
                format!("{x:.1} {unit}")
            };
        }
    }
    n.to_string()
}

/// A number of bytes in words: `1.4 GB`, `512 MB` (powers of 1024, as `--memory`
/// reads them).
pub fn format_bytes(n: u64) -> String {
    for (scale, unit) in [(1u64 << 40, "TB"), (1 << 30, "GB"), (1 << 20, "MB")] {
        let x = n as f64 / scale as f64;
        if x >= 0.9995 {
            return if x >= 99.95 {
                format!("{x:.0} {unit}")
            } else {
                format!("{x:.1} {unit}")
            };
        }
    }
    format!("{} kB", n.div_ceil(1024))
}

/// A duration in words, as precise as a person needs it: `0.4 s`, `12 s`, `3 min 05 s`,
/// `2 h 10 min`.
pub fn format_duration(d: std::time::Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 9.95 {
        return format!("{secs:.1} s");
    }
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {:02} s", s / 60, s % 60),
        _ => {
            let m = (s + 30) / 60;
            format!("{} h {:02} min", m / 60, m % 60)
        }
    }
}

/// The time left for a phase `done` of `total` steps into it after `elapsed`, assuming
/// the rate so far holds; `None` until a twentieth of the phase is done (the first
/// layers of a breadth-first build find few entries in a full scan each, so an earlier
/// guess would be hours too long) and once it is complete.
pub fn eta(done: u64, total: u64, elapsed: std::time::Duration) -> Option<std::time::Duration> {
    if done >= total || done.saturating_mul(20) < total {
        return None;
    }
    let left = (total - done) as f64 * elapsed.as_secs_f64() / done as f64;
    Some(std::time::Duration::from_secs_f64(left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn counts_read_as_words() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(45_216), "45.2 k");
        assert_eq!(format_count(92_897_280), "92.9 M");
        assert_eq!(format_count(3_674_160), "3.7 M");
        assert_eq!(format_count(479_001_600), "479 M");
        assert_eq!(format_count(999_990), "1.0 M");
        assert_eq!(format_count(2_217_093_120), "2.2 G");
    }

    #[test]
    fn bytes_read_as_words() {
        assert_eq!(format_bytes(1 << 30), "1.0 GB");
        assert_eq!(format_bytes(1_500_000_000), "1.4 GB");
        assert_eq!(format_bytes(512 << 20), "512 MB");
        assert_eq!(format_bytes(1000), "1 kB");
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(format_duration(Duration::from_millis(420)), "0.4 s");
        assert_eq!(format_duration(Duration::from_millis(9_940)), "9.9 s");
        assert_eq!(format_duration(Duration::from_millis(9_960)), "10 s");
        assert_eq!(format_duration(Duration::from_secs(59)), "59 s");
        assert_eq!(format_duration(Duration::from_secs(185)), "3 min 05 s");
        assert_eq!(format_duration(Duration::from_secs(7_800)), "2 h 10 min");
        assert_eq!(format_duration(Duration::from_secs(3_599)), "59 min 59 s");
        assert_eq!(format_duration(Duration::from_secs(3_600)), "1 h 00 min");
    }

    #[test]
    fn eta_extrapolates_the_rate_so_far() {
        let ten = Duration::from_secs(10);
        assert_eq!(eta(25, 100, ten), Some(Duration::from_secs(30)));
        assert_eq!(eta(0, 100, ten), None);
        assert_eq!(eta(4, 100, ten), None);
        assert_eq!(eta(5, 100, ten), Some(Duration::from_secs(190)));
        assert_eq!(eta(100, 100, ten), None);
        assert_eq!(
            eta(1, 3, Duration::from_millis(500)),
            Some(Duration::from_secs(1))
        );
    }
}
