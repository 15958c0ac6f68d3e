//! Progress off a terminal: one plain line per finished stage, tables named in words,
//! no bars, no carriage returns, nothing for stages that were not run (tables loaded
//! from the cache) and nothing at all with `--quiet`.

/// Runs `ksolve solve` on the shipped Pyraminx (two pruning tables) with the tables in
/// `tables`, stderr captured (so not a terminal), and returns stderr without the
/// per-scramble summary lines (`NAME: N moves, 1 solution, 0.02 s`), which are not
/// progress.
fn solve_stderr(tables: &std::path::Path, extra: &[&str]) -> String {
    let out = crate::common::ksolve()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["solve", "puzzles/pyraminx.def", "scrambles/pyraminx.txt"])
        .args(["--memory", "64M", "--threads", "1", "--tables"])
        .arg(tables)
        .args(extra)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
        .lines()
        .filter(|l| !(l.contains(" moves, ") && l.contains(" solution")))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `WHAT: done in N.N s` (or `N s`, `N min NN s`): the duration part of a stage line.
fn is_duration(s: &str) -> bool {
    let words: Vec<&str> = s.split(' ').collect();
    match words.as_slice() {
        [n, "s"] => n.parse::<f64>().is_ok(),
        [m, "min", s, "s"] => m.parse::<u64>().is_ok() && s.parse::<u64>().is_ok(),
        _ => false,
    }
}

#[test]
fn one_line_per_stage_with_tables_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let cold = solve_stderr(dir.path(), &[]);
    assert!(!cold.contains('\r') && !cold.contains('\x1b'), "{cold:?}");
    let stages: Vec<&str> = cold
        .lines()
        .map(|l| {
            let (what, took) = l
                .rsplit_once(": done in ")
                .unwrap_or_else(|| panic!("{l:?}"));
            assert!(is_duration(took), "{l:?}");
            what
        })
        .collect();
    assert_eq!(
        stages,
        [
            // The centres only twist in place (each position an orbit of its own), so
            // their twists and the edges make one table of the whole puzzle, with no
            // reduced table beside it.
            "pruning table 1 of 1: CENTERS twists + EDGES positions and twists, 1.9 M entries",
        ],
        "{cold}"
    );
    // Loaded from the cache, the tables are no stage of work.
    assert_eq!(solve_stderr(dir.path(), &[]), "");
    let other = tempfile::tempdir().unwrap();
    assert_eq!(solve_stderr(other.path(), &["--quiet"]), "");
}
