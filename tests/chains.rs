//! Subgroup chains from the command line: `ksolve chain`, `solve --fast` (answers that
//! replay and improve), and `ksolve scramble` (random-state scrambles whose lengths
//! follow God's distribution on the 2x2x2).

use ksolve::def::load_puzzle;
use ksolve::puzzle::Puzzle;
use ksolve::stats::Distribution;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `ksolve ARGS -q --tables DIR` in the repository root: one JSON value per line.
fn json_lines(tables: &Path, args: &[&str]) -> Vec<Value> {
    let mut all: Vec<&OsStr> = args.iter().map(|a| a.as_ref()).collect();
    all.extend(["--json", "-q", "--tables"].map(OsStr::new));
    all.push(tables.as_os_str());
    crate::common::stdout_of(&all)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `ksolve ARGS` in the repository root, which must be refused (exit 2): its stderr.
fn refused(args: &[&OsStr]) -> String {
    let (code, _, err) =
        crate::common::output(crate::common::ksolve().current_dir(root()).args(args));
    assert_eq!(code, 2, "{args:?}: {err}");
    err
}

fn solves(p: &Puzzle, scramble: &str, solution: &str) -> bool {
    let moves = |s: &str| -> Vec<_> {
        s.split_whitespace()
            .map(|m| p.move_by_name(m).unwrap())
            .collect()
    };
    let made = p.apply_sequence(&p.solved, &moves(scramble));
    p.is_solved(&p.apply_sequence(&made, &moves(solution)), &[])
}

#[test]
fn the_3x3x3_chain_is_the_domino_group() {
    let dir = tempfile::tempdir().unwrap();
    let phases = json_lines(dir.path(), &["chain", "puzzles/3x3x3.def"]);
    assert_eq!(phases.len(), 2);
    assert_eq!(phases[0]["to"], "<U, D, R2, L2, F2, B2>");
    assert_eq!(phases[0]["cosets"], "2217093120");
    assert_eq!(phases[1]["from"], "<U, D, R2, L2, F2, B2>");
    assert_eq!(phases[1]["cosets"], "19508428800");
    // The text form names the same phases.
    let text = crate::common::stdout_of(&[
        "chain".as_ref(),
        "puzzles/3x3x3.def".as_ref(),
        "--tables".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert!(
        text.contains("2 phases, found from the definition"),
        "{text}"
    );
    assert!(
        text.contains("phase 2: <U, D, R2, L2, F2, B2> -> <>"),
        "{text}"
    );
}

/// A chain found is stored with the tables and read back by the next run (the same
/// phases, no search); a damaged file is said so and the chain found again.
#[test]
fn a_found_chain_is_stored_with_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        crate::common::output(crate::common::ksolve().current_dir(root()).args([
            "chain".as_ref(),
            "puzzles/3x3x3.def".as_ref(),
            "--json".as_ref(),
            "--tables".as_ref(),
            dir.path().as_os_str(),
        ]))
    };
    let (code, first, _) = run();
    assert_eq!(code, 0);
    let stored: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("3x3x3.chain.") && name.ends_with(".ktb")
        })
        .collect();
    assert_eq!(stored.len(), 1, "{stored:?}");
    let (code, second, err) = run();
    assert_eq!((code, &second), (0, &first), "{err}");
    assert!(!err.contains("rebuilding"), "{err}");
    // One byte changed in the stored chain: the run says so and finds it again.
    let mut bytes = std::fs::read(&stored[0]).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 1;
    std::fs::write(&stored[0], &bytes).unwrap();
    let (code, third, err) = run();
    assert_eq!((code, &third), (0, &first));
    assert!(err.contains("rebuilding"), "{err}");
}

/// The 4x4x4's chain in outer block turns comes from its definition: reduction's stages
/// (centres, then the wings paired, then the 3x3x3's domino group), and a WCA scramble
/// is solved along it. Two and a half minutes in the test build (`KSOLVE_SLOW_TESTS=1`).
#[test]
fn the_4x4x4_chain_is_found_from_its_definition() {
    if std::env::var("KSOLVE_SLOW_TESTS").map_or(true, |v| v != "1") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let phases = json_lines(dir.path(), &["chain", "puzzles/4x4x4.def"]);
    assert_eq!(phases.len(), 5, "{phases:?}");
    assert_eq!(phases[4]["from"], "<U, D, R2, L2, F2, B2>");
    assert_eq!(phases[4]["to"], "<>");
    assert!(
        phases.iter().all(|p| p.get("words").is_none()),
        "{phases:?}"
    );
    let p = load_puzzle(root().join("puzzles/4x4x4.def")).unwrap().0;
    let scramble = "B' Uw2 R2 F' Rw2 U' Fw' L2 B2 Uw' R' U2 Fw2 D' L Rw F2 Uw' B' R2";
    let out = json_lines(
        dir.path(),
        &[
            "solve",
            "puzzles/4x4x4.def",
            "--alg",
            scramble,
            "--fast",
            "--max-length",
            "200",
        ],
    );
    assert_eq!(out[0]["status"], "solved", "{}", out[0]);
    assert_eq!(out[0]["words"], false);
    let answer = out[0]["solutions"][0].as_str().unwrap();
    assert!(solves(&p, scramble, answer), "{answer}");
    // Random-state scrambles along the same chain, over the tables just built.
    let lines = json_lines(
        dir.path(),
        &["scramble", "puzzles/4x4x4.def", "-n", "2", "--seed", "3"],
    );
    assert_eq!(lines.len(), 2);
    for v in lines {
        let text = v["scramble"].as_str().unwrap();
        assert!(text.split_whitespace().count() > 30, "{text}");
        assert!(
            text.split_whitespace().all(|m| p.move_by_name(m).is_some()),
            "{text}"
        );
    }
}

#[test]
fn puzzles_without_a_chain_to_the_bottom_are_answered_by_words() {
    let dir = tempfile::tempdir().unwrap();
    // A WCA scramble, as TNoodle prints them.
    let cases = [(
        "puzzles/megaminx_wca.def",
        "R-- D-- R-- D++ R-- D-- R-- D++ R-- D++ U R++ D-- R++ D-- R++ D++ R-- D++ R-- D++ U'",
    )];
    for (def, scramble) in cases {
        let p = load_puzzle(root().join(def)).unwrap().0;
        let phases = json_lines(dir.path(), &["chain", def]);
        let last = phases.last().unwrap();
        assert!(
            last["words"]["levels"].as_u64().unwrap() > 10,
            "{def}: {last}"
        );
        assert_eq!(last["to"], "<>");
        let out = json_lines(dir.path(), &["solve", def, "--alg", scramble, "--fast"]);
        let v = &out[0];
        assert_eq!(v["status"], "solved", "{def}: {v}");
        assert_eq!(v["words"], true);
        let answer = v["solutions"][0].as_str().unwrap();
        assert!(solves(&p, scramble, answer), "{def}: {answer}");
    }
    // The text form says where the words begin.
    let text = crate::common::stdout_of(&[
        "chain".as_ref(),
        "puzzles/megaminx.def".as_ref(),
        "--tables".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert!(text.contains("answered by a table of words"), "{text}");
    assert!(
        text.contains("by words: 48 levels of the stabiliser chain"),
        "{text}"
    );
}

#[test]
fn a_chain_file_is_read_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.chain");
    std::fs::write(&file, "# Kociemba's phases\nU D R2 L2 F2 B2\n").unwrap();
    let phases = json_lines(
        dir.path(),
        &[
            "chain",
            "puzzles/3x3x3.def",
            "--chain",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(phases.len(), 2);
    // A wrong chain is refused at its line.
    std::fs::write(&file, "U D R L F2 B2\nU2 D2 R2 L2 F2 B2 Q\n").unwrap();
    let err = refused(&[
        "chain".as_ref(),
        "puzzles/3x3x3.def".as_ref(),
        "--chain".as_ref(),
        file.as_os_str(),
    ]);
    assert!(err.contains("two.chain:2:19: unknown move `Q`"), "{err}");
}

#[test]
fn fast_answers_replay_and_improve() {
    let p = load_puzzle(root().join("puzzles/3x3x3.def")).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let scramble = "R U F D B L2 U' R F2 D B' L U R' F D2 B' R2 U L";
    let out = json_lines(
        dir.path(),
        &["solve", "puzzles/3x3x3.def", "--alg", scramble, "--fast"],
    );
    let v = &out[0];
    assert_eq!(v["status"], "solved");
    assert_eq!(v["method"], "chain");
    let solutions: Vec<&str> = v["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let lengths: Vec<usize> = solutions
        .iter()
        .map(|s| s.split_whitespace().count())
        .collect();
    // Each answer printed is shorter than the one before, and all of them solve.
    assert!(lengths.windows(2).all(|w| w[1] < w[0]), "{lengths:?}");
    assert!(solutions.iter().all(|s| solves(&p, scramble, s)));
    let best = *lengths.last().unwrap();
    assert!(best <= 22, "{v}");
    assert_eq!(v["length"].as_u64(), Some(best as u64));
    let phases: usize = v["phase_lengths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap() as usize)
        .sum();
    // Moves of one base merge where the phases join.
    assert!(phases >= best);
    // --max-length stops at the first answer that short.
    let out = json_lines(
        dir.path(),
        &[
            "solve",
            "puzzles/3x3x3.def",
            "--alg",
            scramble,
            "--fast",
            "--max-length",
            "30",
        ],
    );
    assert_eq!(out[0]["solutions"].as_array().unwrap().len(), 1);
    assert_eq!(out[0]["tried"], 0);
}

#[test]
fn fast_with_a_time_limit_ends_no_longer() {
    let dir = tempfile::tempdir().unwrap();
    let scramble = "D2 R' B L2 F U2 L' D' B2 R U' F' L2 D R2 B' U F2 L D'";
    let quick = json_lines(
        dir.path(),
        &["solve", "puzzles/3x3x3.def", "--alg", scramble, "--fast"],
    );
    let len = |v: &Value| v["length"].as_u64().unwrap();
    // With time to spare the answer gets at least as short as the default effort's;
    // --max-length ends the run there, before any proof.
    let want = len(&quick[0]).to_string();
    let timed = json_lines(
        dir.path(),
        &[
            "solve",
            "puzzles/3x3x3.def",
            "--alg",
            scramble,
            "--fast",
            "--time",
            "120",
            "--max-length",
            &want,
        ],
    );
    assert!(len(&timed[0]) <= len(&quick[0]));
    assert_eq!(timed[0]["optimal"], false);
}

/// `--time` under budgets where the phases' tables or the optimal search's do not fit
/// their shares: the phases then keep the whole budget and no proof is tried (round 19
/// refused such runs: the 4x4x4 along Norskog's chain, the 3x3x3 under 16M or 48M).
#[test]
fn fast_with_a_time_limit_fits_small_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let scramble = "R U F D B L2";
    for memory in ["16M", "48M"] {
        let out = json_lines(
            dir.path(),
            &[
                "solve",
                "puzzles/3x3x3.def",
                "--alg",
                scramble,
                "--fast",
                "--time",
                "1",
                "--memory",
                memory,
            ],
        );
        assert_eq!(out[0]["length"], 6, "{memory}: {}", out[0]);
        assert_eq!(out[0]["optimal"], false, "{memory}: {}", out[0]);
    }
}

#[test]
fn fast_refuses_what_it_cannot_do() {
    let words =
        |w: &[&'static str]| -> Vec<&'static OsStr> { w.iter().map(|&x| OsStr::new(x)).collect() };
    let err = refused(&words(&[
        "solve",
        "puzzles/3x3x3_bandaged.def",
        "--alg",
        "R",
        "--fast",
        "--no-cache",
    ]));
    assert!(err.contains("Block"), "{err}");
    let err = refused(&words(&[
        "solve",
        "puzzles/3x3x3.def",
        "--alg",
        "R",
        "--time",
        "1",
    ]));
    assert!(err.contains("--fast"), "{err}");
    // A goal whose pieces the solved state cannot be renamed to: the 4x4x4's centres
    // are alike within a face, and an inner slice turn mixes them across faces.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("goal.txt");
    std::fs::write(&file, "GoalAlg mixed\n2R\nEnd\nScrambleAlg s\nR\nEnd\n").unwrap();
    let err = refused(&[
        "solve".as_ref(),
        "puzzles/4x4x4.def".as_ref(),
        file.as_os_str(),
        "--fast".as_ref(),
        "--no-cache".as_ref(),
    ]);
    assert!(err.contains("does not take this goal"), "{err}");
}

/// `--moves` (or a `MoveLimits` block of `F* 0` lines) chooses the moves the chain's
/// phases search: every answer uses those alone. Limits that count moves are refused.
#[test]
fn fast_searches_the_moves_given() {
    let p = load_puzzle(root().join("puzzles/3x3x3.def")).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let scramble = "R U R' U R U2 R' U' R2 U'";
    let file = dir.path().join("limits.txt");
    std::fs::write(
        &file,
        format!("MoveLimits\nD* 0\nL* 0\nF* 0\nB* 0\nEnd\nScrambleAlg s\n{scramble}\nEnd\n"),
    )
    .unwrap();
    let by_flag = [
        "solve",
        "puzzles/3x3x3.def",
        "--alg",
        scramble,
        "--fast",
        "--moves",
        "R,U",
    ];
    let by_file = [
        "solve",
        "puzzles/3x3x3.def",
        file.to_str().unwrap(),
        "--fast",
    ];
    for args in [&by_flag[..], &by_file[..]] {
        let out = json_lines(dir.path(), args);
        let v = &out[0];
        assert_eq!(v["status"], "solved", "{v}");
        for answer in v["solutions"].as_array().unwrap() {
            let answer = answer.as_str().unwrap();
            assert!(solves(&p, scramble, answer), "{answer}");
            assert!(
                answer.split_whitespace().all(|m| m.starts_with(['R', 'U'])),
                "{args:?}: {answer}"
            );
        }
    }
    // Without the limits the chain searches every face.
    let out = json_lines(
        dir.path(),
        &["solve", "puzzles/3x3x3.def", "--alg", "R U F", "--fast"],
    );
    assert_eq!(out[0]["length"], 3, "{}", out[0]);
    // A position the moves given cannot reach has no answer.
    let (code, _, _) = crate::common::output(crate::common::ksolve().current_dir(root()).args([
        "solve",
        "puzzles/3x3x3.def",
        "--alg",
        "R U F",
        "--fast",
        "--moves",
        "R,U",
        "-q",
        "--tables",
        dir.path().to_str().unwrap(),
    ]));
    assert_eq!(code, 1);
    std::fs::write(&file, "MoveLimits\nR* 2\nEnd\nScrambleAlg s\nR U\nEnd\n").unwrap();
    let err = refused(&[
        "solve".as_ref(),
        "puzzles/3x3x3.def".as_ref(),
        file.as_os_str(),
        "--fast".as_ref(),
        "--no-cache".as_ref(),
    ]);
    assert!(err.contains("MoveLimits that count moves"), "{err}");
}

#[test]
fn fast_reaches_a_goal_of_one_position() {
    let p = load_puzzle(root().join("puzzles/3x3x3.def")).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("goal.txt");
    let (pattern, scramble) = ("R2 L2 U2 D2 F2 B2", "R U F D B L2 U2 R F2 D B L U R F D2");
    std::fs::write(
        &file,
        format!("GoalAlg checkers\n{pattern}\nEnd\nScrambleAlg s\n{scramble}\nEnd\n"),
    )
    .unwrap();
    let out = json_lines(
        dir.path(),
        &[
            "solve",
            "puzzles/3x3x3.def",
            file.to_str().unwrap(),
            "--fast",
        ],
    );
    let v = &out[0];
    assert_eq!(v["status"], "solved", "{v}");
    let moves = |s: &str| -> Vec<_> {
        s.split_whitespace()
            .map(|m| p.move_by_name(m).unwrap())
            .collect()
    };
    let goal = p.apply_sequence(&p.solved, &moves(pattern));
    let start = p.apply_sequence(&p.solved, &moves(scramble));
    for answer in v["solutions"].as_array().unwrap() {
        let end = p.apply_sequence(&start, &moves(answer.as_str().unwrap()));
        assert_eq!(end, goal, "{answer}");
    }
    assert!(v["length"].as_u64().unwrap() <= 22, "{v}");
}

/// The 2x2x2's positions at each distance from solved (half-turn metric).
const GODS_2X2X2: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];

#[test]
fn scramble_lengths_follow_gods_distribution() {
    let p = load_puzzle(root().join("puzzles/2x2x2.def")).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let lines = json_lines(
        dir.path(),
        &[
            "scramble",
            "puzzles/2x2x2.def",
            "-n",
            "2000",
            "--seed",
            "11",
        ],
    );
    assert_eq!(lines.len(), 2000);
    // The 2x2x2's chain is one phase, searched optimally: each scramble is as long as
    // its position's distance, so the lengths of uniform draws follow God's table.
    let mut d = Distribution::default();
    for v in &lines {
        assert_eq!(v["uniform"], true);
        let text = v["scramble"].as_str().unwrap();
        let moves: Vec<_> = text
            .split_whitespace()
            .map(|m| p.move_by_name(m).unwrap())
            .collect();
        assert_eq!(v["length"].as_u64(), Some(moves.len() as u64));
        d.add(moves.len() as u32);
    }
    let chi = d.chi_square(&GODS_2X2X2);
    // The chi-square critical value at the 0.1% level for up to 10 degrees.
    let critical = [
        10.83, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59,
    ][chi.degrees.min(10)];
    assert!(chi.statistic < critical, "{chi:?}");
    // The same seed draws the same scrambles.
    let again = json_lines(
        dir.path(),
        &["scramble", "puzzles/2x2x2.def", "-n", "3", "--seed", "11"],
    );
    assert_eq!(again[..], lines[..3]);
}

#[test]
fn scramble_works_on_every_shipped_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    for def in crate::common::definitions_in(&root().join("puzzles")) {
        // Rotate's first phase takes seconds in a release build, and the 4x4x4's chain
        // builds 0.9 GB of tables: with the large tables only (the 4x4x4's scrambles are
        // also made in `the_4x4x4_chain_is_found_from_its_definition`).
        let heavy = def.ends_with("rotate.def") || def.ends_with("4x4x4.def");
        if heavy && !crate::common::large_tables() {
            continue;
        }
        let p = load_puzzle(&def).unwrap().0;
        let lines = json_lines(
            dir.path(),
            &["scramble", def.to_str().unwrap(), "-n", "2", "--seed", "3"],
        );
        assert_eq!(lines.len(), 2, "{}", def.display());
        for v in lines {
            let text = v["scramble"].as_str().unwrap();
            for m in text.split_whitespace() {
                assert!(p.move_by_name(m).is_some(), "{}: {text}", def.display());
            }
        }
    }
}

#[test]
fn with_time_to_spare_the_last_answer_is_proved_optimal() {
    // The optimal search over the whole 3x3x3 builds tables of tens of millions of
    // entries: with the large tables only.
    if !crate::common::large_tables() {
        return;
    }
    let p = load_puzzle(root().join("puzzles/3x3x3.def")).unwrap().0;
    let dir = tempfile::tempdir().unwrap();
    let scramble = "R U F D B L2 U' R";
    let out = json_lines(
        dir.path(),
        &[
            "solve",
            "puzzles/3x3x3.def",
            "--alg",
            scramble,
            "--fast",
            "--time",
            "300",
        ],
    );
    let v = &out[0];
    assert_eq!(v["optimal"], true, "{v}");
    assert_eq!(v["length"], 8, "{v}");
    let last = v["solutions"].as_array().unwrap().last().unwrap();
    assert!(solves(&p, scramble, last.as_str().unwrap()));
}

/// A puzzle that ships nowhere: random moves (each a product of a few cycles, some
/// twisting) on two sets, written as a definition.
fn random_definition(seed: u64) -> String {
    let mut rng = ksolve::rng::Rng::new(seed);
    let sets = [("A", 6usize, 2u8), ("B", 5, 1)];
    let mut text = String::from("Name random\n\n");
    for (name, size, ori) in sets {
        text += &format!("Set {name} {size} {ori}\n");
    }
    text += "\nSolved\n";
    for (name, size, _) in sets {
        let ids: Vec<String> = (1..=size).map(|i| i.to_string()).collect();
        text += &format!("{name}\n{}\n", ids.join(" "));
    }
    text += "End\n";
    for m in 0..3 {
        text += &format!("\nMove M{m}\n");
        for (name, size, ori) in sets {
            // A random cycle of three to size positions, the rest fixed.
            let mut perm: Vec<usize> = (0..size).collect();
            let len = 3 + rng.below((size - 2) as u64) as usize;
            let mut chosen: Vec<usize> = (0..size).collect();
            for i in 0..len {
                let j = i + rng.below((size - i) as u64) as usize;
                chosen.swap(i, j);
            }
            for w in 0..len {
                perm[chosen[w]] = chosen[(w + 1) % len];
            }
            let twists: Vec<String> = (0..size)
                .map(|i| match ori > 1 && perm[i] != i {
                    true => rng.below(ori as u64).to_string(),
                    false => "0".to_string(),
                })
                .collect();
            let p: Vec<String> = perm.iter().map(|&x| (x + 1).to_string()).collect();
            text += &format!("{name}\n{}\n{}\n", p.join(" "), twists.join(" "));
        }
        text += "End\n";
    }
    text
}

#[test]
fn chains_of_puzzles_that_ship_nowhere_answer_correctly() {
    use ksolve::chain::find;
    use ksolve::group::{BigUint, Group};
    let (mut multi, mut words) = (0, 0);
    for seed in 0..12u64 {
        let text = random_definition(seed);
        let p = ksolve::def::parse_puzzle(text.as_bytes(), "random.def")
            .unwrap()
            .0;
        let group = Group::new(&p).unwrap();
        // The smallest limit (a power of ten) that has a chain of searched phases all the
        // way down, so that most chains take several phases; and under a limit of ten
        // cosets, where phases run out early, the rest answered by words.
        let searched = (2..8).find_map(|e| {
            find(&p, &BigUint::pow(10, e))
                .ok()
                .filter(|c| c.words.is_none())
        });
        let smallest = find(&p, &BigUint::pow(10, 1)).unwrap();
        for chain in searched.iter().chain([&smallest]) {
            if chain.words.is_none() && chain.phases.len() > 1 {
                multi += 1;
            }
            let mut product = BigUint::one();
            for phase in &chain.phases {
                product = product.mul(&phase.cosets);
            }
            if let Some(w) = &chain.words {
                words += 1;
                product = product.mul(&w.group.positions(&p).unwrap());
            }
            assert_eq!(product, chain.positions, "seed {seed}");
            assert_eq!(group.order(), &chain.positions, "seed {seed}");
            answers_replay(&p, chain, &group, seed);
        }
    }
    assert!(multi >= 3, "{multi} chains of several phases");
    assert!(words >= 3, "{words} chains ending in words");
}

/// Ten random positions of `group` solved along `chain`, each answer replayed.
fn answers_replay(
    p: &ksolve::puzzle::Puzzle,
    chain: &ksolve::chain::Chain,
    group: &ksolve::group::Group,
    seed: u64,
) {
    use ksolve::chain::{Effort, Fast};
    use ksolve::storage::cache::TableCache;
    use ksolve::table::Tables;
    let mut fast = Fast::new(p, chain, |_| Tables::new(TableCache::in_memory(), 16 << 20));
    let mut rng = ksolve::rng::Rng::new(seed);
    for _ in 0..10 {
        let start = group.random_state(&mut rng).unwrap();
        let effort = Effort {
            tries: Some(20),
            ..Effort::default()
        };
        let out = fast.solve(&start, &effort, &mut |_| {}).unwrap();
        let answer = out.solution.unwrap();
        let end = p.apply_sequence(&start, &answer);
        assert!(
            p.is_solved(&end, &[]),
            "seed {seed}: {}",
            p.format_sequence(&answer)
        );
    }
}
