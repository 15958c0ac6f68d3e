//! `ksolve stats`: the distribution of optimal lengths of random 2x2x2 positions against
//! the 2x2x2's God's table, the `--json` object, `--walk` and repeatable seeds.

use std::path::Path;

/// Positions of the shipped 2x2x2 (U, R and F with their powers, half-turn metric) at
/// each distance from solved: OEIS A079761, as copied into the project's reference
/// notes (`gods-tables.md`).
const GODS_2X2X2_HTM: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];

/// Chi-square quantiles at p = 0.001 for 1 to 10 degrees of freedom: a correct
/// sampler exceeds them one run in a thousand (and the seeds below are fixed).
const CHI2_999: [f64; 10] = [
    10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59,
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `ksolve stats puzzles/2x2x2.def ARGS --no-cache` from the repository root and
/// returns stdout, asserting exit code 0.
fn stats(args: &[&str]) -> String {
    let out = crate::common::ksolve()
        .current_dir(root())
        .args(["stats", "puzzles/2x2x2.def"])
        .args(args)
        .arg("--no-cache")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut args = args.to_vec();
    args.push("--json");
    let text = stats(&args);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// `counts[l]` from the `lengths` array of a `--json` object.
fn counts(v: &serde_json::Value) -> Vec<u64> {
    let mut counts = Vec::new();
    for row in v["lengths"].as_array().unwrap() {
        let l = row["length"].as_u64().unwrap() as usize;
        if counts.len() <= l {
            counts.resize(l + 1, 0);
        }
        counts[l] = row["count"].as_u64().unwrap();
    }
    counts
}

/// The chi-square statistic of `counts` against `population`, through the library's
/// pooling, with its degrees of freedom.
fn chi_square(counts: &[u64], population: &[u64]) -> (f64, usize) {
    let mut d = ksolve::stats::Distribution::default();
    for (l, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            d.add(l as u32);
        }
    }
    let c = d.chi_square(population);
    (c.statistic, c.degrees)
}

#[test]
fn uniform_lengths_match_gods_table() {
    // The table above is for this definition in this metric: three faces, each with its
    // three powers, and 3,674,160 positions.
    let bytes = std::fs::read(root().join("puzzles/2x2x2.def")).unwrap();
    let (puzzle, _) = ksolve::def::parse_puzzle(&bytes, "2x2x2.def").unwrap();
    let names: Vec<&str> = puzzle.moves.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"]);
    assert_eq!(GODS_2X2X2_HTM.iter().sum::<u64>(), 3_674_160);
    // 1000 positions in release builds (the figure the command is timed on), fewer in
    // debug; the chi-square statistic scales with the sample itself.
    let n = if cfg!(debug_assertions) { 300 } else { 1000 };
    let v = json(&["--random", &n.to_string(), "--seed", "2024"]);
    assert_eq!(v["metric"], "htm");
    assert_eq!(v["positions"], n);
    let counts = counts(&v);
    assert_eq!(counts.iter().sum::<u64>(), n);
    let (stat, df) = chi_square(&counts, &GODS_2X2X2_HTM);
    assert!(df >= 3, "too few bins: {df}");
    assert!(
        stat < CHI2_999[df - 1],
        "chi-square {stat} on {df} degrees: {counts:?}"
    );
    // The bound has power: the same sample is far from the quarter-turn table.
    let qtm = [
        1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
    ];
    let (stat, df) = chi_square(&counts, &qtm);
    assert!(stat > CHI2_999[df - 1], "chi-square {stat} on {df} degrees");
}

#[test]
fn json_fields_agree_with_the_counts() {
    let v = json(&["--random", "50", "--seed", "3"]);
    let counts = counts(&v);
    assert_eq!(counts.iter().sum::<u64>(), 50);
    let sum: u64 = counts.iter().enumerate().map(|(l, &c)| l as u64 * c).sum();
    let mean = v["mean"].as_f64().unwrap();
    assert!((mean - sum as f64 / 50.0).abs() < 1e-9, "{v}");
    let min = counts.iter().position(|&c| c > 0).unwrap() as u64;
    assert_eq!(v["min"].as_u64(), Some(min));
    assert_eq!(v["max"].as_u64(), Some(counts.len() as u64 - 1));
    assert_eq!(v["sampling"], "random");
    assert_eq!(v["seed"], 3);
    assert_eq!(v["unsolved"], 0);
    assert!(v["seconds_per_position"].as_f64().unwrap() > 0.0);
}

#[test]
fn walk_lengths_never_exceed_the_walk() {
    for len in [0u64, 1, 3, 6] {
        let v = json(&["--walk", &len.to_string(), "--count", "40", "--seed", "9"]);
        assert_eq!(v["sampling"], "walk");
        assert_eq!(v["walk_length"], len);
        assert_eq!(counts(&v).iter().sum::<u64>(), 40);
        let max = v["max"].as_u64().unwrap();
        assert!(max <= len, "a walk of {len} moves needed {max}");
        if len == 1 {
            // One move from solved is always one move away.
            assert_eq!(v["min"], 1);
        }
    }
}

/// The text output without its timing line, the one line that may change between runs.
fn without_time(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("Time:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_same_seed_gives_the_same_output() {
    let a = stats(&["--random", "60", "--seed", "11"]);
    let b = stats(&["--random", "60", "--seed", "11", "--threads", "1"]);
    assert_eq!(without_time(&a), without_time(&b));
    assert!(
        a.starts_with("Optimal lengths (HTM) of 60 uniformly random positions of 2x2x2, seed 11\n"),
        "{a}"
    );
    assert!(a.contains("\nMean "), "{a}");
    let walk = stats(&["--walk", "4", "--count", "60", "--seed", "11"]);
    let again = stats(&["--walk", "4", "--count", "60", "--seed", "11"]);
    assert_eq!(without_time(&walk), without_time(&again));
    // Another seed draws other positions.
    let c = stats(&["--random", "60", "--seed", "12"]);
    assert_ne!(without_time(&a), without_time(&c));
}

#[test]
fn bad_arguments_are_refused() {
    let cases: [(&[&str], &str); 4] = [
        (&[], "--random"),
        (&["--walk", "3"], "--count"),
        (&["--random", "0"], "not in 1.."),
        (
            &["--random", "5", "--walk", "3", "--count", "2"],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let out = crate::common::ksolve()
            .current_dir(root())
            .args(["stats", "puzzles/2x2x2.def"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
