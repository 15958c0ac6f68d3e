//! Unit tests of the session library: command parsing, macros (substitution, forget
//! cascading, redefinition), the level scramble on directed and ordinary puzzles, and
//! the end-of-game comparison with the optimal count and the scrambler.

use super::command::{parse, Command, CommandError};
use super::macros::Macros;
use super::rules::level_scramble;
use super::{PlayError, Session, Setup};
use crate::def::{parse_puzzle, parse_scrambles};
use crate::progress::Silent;
use crate::puzzle::Puzzle;
use crate::rng::Rng;
use crate::storage::cache::TableCache;
use crate::table::Tables;

fn shipped(name: &str) -> Puzzle {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    parse_puzzle(&bytes, &path).unwrap().0
}

fn session<'p>(p: &'p Puzzle, scrambles: &str, seed: u64) -> Session<'p> {
    Session::new(Setup {
        puzzle: p,
        def_name: "test.def".into(),
        scrambles: if scrambles.is_empty() {
            Vec::new()
        } else {
            parse_scrambles(scrambles.as_bytes(), "test.txt", p).unwrap()
        },
        tables: Tables::new(TableCache::in_memory(), 64 << 20),
        seed: Some(seed),
        macro_path: None,
    })
    .unwrap()
}

/// Runs `line`, returning its messages (warnings first) joined by newlines.
fn run(s: &mut Session, line: &str) -> Result<String, PlayError> {
    let r = s.command(line, "<test>", 1, &Silent)?;
    let mut all = r.warnings.clone();
    all.extend(r.lines);
    Ok(all.join("\n"))
}

#[test]
fn command_words_and_moves() {
    assert_eq!(parse("  ").unwrap(), Command::Empty);
    assert_eq!(parse("R U R'").unwrap(), Command::Moves("R U R'".into()));
    assert_eq!(parse("scramble 12").unwrap(), Command::Scramble(Some(12)));
    assert_eq!(
        parse("solve CHECKERS").unwrap(),
        Command::Solve(Some("CHECKERS".into()))
    );
    assert_eq!(
        parse("def  A R U").unwrap(),
        Command::Def {
            name: "A".into(),
            moves_at: 8
        }
    );
    assert_eq!(parse("enter UU RR").unwrap(), Command::Enter("UURR".into()));
    assert!(matches!(parse("undo 2"), Err(CommandError::Extra { .. })));
    assert!(matches!(
        parse("scramble -1"),
        Err(CommandError::BadCount { .. })
    ));
    assert!(matches!(parse("forget"), Err(CommandError::Missing { .. })));
}

#[test]
fn macros_substitute_with_columns_and_forget_what_follows() {
    let p = shipped("3x3x3.def");
    let mut m = Macros::default();
    let r = p.move_by_name("R").unwrap();
    let u = p.move_by_name("U").unwrap();
    m.define("AA", vec![r, u], "R U");
    m.define("BB", vec![u], "U");
    m.define("CC", vec![r], "R");
    let is_move = |w: &str| p.move_by_name(w).is_some();
    let (text, cols) = m
        .substitute(&p, "F AA2' (BB)", 100, is_move)
        .unwrap()
        .unwrap();
    assert_eq!(text, "F (R U)2' ((U))");
    // Each character of an expansion points at the start of the word it replaces.
    assert_eq!(cols[2], 3);
    assert_eq!(cols[8], 3);
    assert_eq!(cols[11], 9);
    assert_eq!(cols[text.len() - 1], 11);
    assert_eq!(m.substitute(&p, "R U F", 100, is_move), Ok(None));
    assert_eq!(m.forget("BB"), vec!["BB".to_string(), "CC".to_string()]);
    assert_eq!(
        m.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
        ["AA"]
    );
    assert!(m.forget("BB").is_empty());
}

#[test]
fn macros_standing_for_more_moves_than_a_line_may_make_stop_the_substitution() {
    // A line of a thousand uses of a 10,000-move macro was written out as 10 million
    // moves of text (68 s, 776 MB) before the line's cap refused it.
    let p = shipped("3x3x3.def");
    let mut m = Macros::default();
    let r = p.move_by_name("R").unwrap();
    m.define("LONG", vec![r; 10_000], "R10000");
    let is_move = |w: &str| p.move_by_name(w).is_some();
    let line = vec!["LONG"; 1000].join(" ");
    assert_eq!(m.substitute(&p, &line, 100_000, is_move), Err(110_000));
    assert!(m.substitute(&p, "LONG LONG", 100_000, is_move).is_ok());
}

#[test]
fn a_macro_keeps_its_meaning_when_one_it_uses_is_redefined() {
    let p = shipped("3x3x3.def");
    let mut s = session(&p, "", 1);
    run(&mut s, "def AA R U").unwrap();
    run(&mut s, "def BB AA AA'").unwrap();
    let warned = run(&mut s, "def AA F").unwrap();
    assert!(
        warned.contains("AA was already defined (as R U)"),
        "{warned}"
    );
    assert_eq!(s.macros().get("BB").unwrap().moves.len(), 4);
    // Names of moves and commands are refused.
    assert!(run(&mut s, "def R2 U").is_err());
    assert!(run(&mut s, "def undo U").is_err());
}

#[test]
fn level_scrambles_are_undone_by_their_answer() {
    for (name, n) in [
        ("rotate.def", 5),
        ("3x3x3.def", 20),
        ("2x2x2_directed.def", 7),
    ] {
        let p = shipped(name);
        // Rotate's swaps share a limit: a level scramble never uses them.
        let scr = std::fs::read_to_string(format!(
            "{}/scrambles/{}",
            env!("CARGO_MANIFEST_DIR"),
            name.replace(".def", ".txt")
        ))
        .unwrap();
        let limits = parse_scrambles(scr.as_bytes(), "s", &p).unwrap()[0]
            .settings
            .limits
            .clone();
        for seed in 0..5 {
            let (state, answer) = level_scramble(&p, &limits, &p.solved, n, &mut Rng::new(seed));
            assert_eq!(answer.len(), n, "{name}");
            assert!(!p.is_solved(&state, &[]), "{name} seed {seed}");
            assert_eq!(p.apply_sequence(&state, &answer), p.solved, "{name}");
            assert!(answer
                .iter()
                .all(|&m| !limits.iter().any(|l| l.matches(&p, m))));
        }
    }
}

#[test]
fn the_end_of_a_game_compares_with_optimal_and_the_scrambler() {
    let p = shipped("2x2x2.def");
    let mut s = session(&p, "", 7);
    // God's number of the 2x2x2 is 11 (HTM), so 14 scrambled moves are more than needed.
    run(&mut s, "scramble 14").unwrap();
    let hint = run(&mut s, "solve").unwrap();
    let moves = hint
        .split(": ")
        .nth(1)
        .and_then(|t| t.split(" (").next())
        .unwrap()
        .to_string();
    let k = moves.split_whitespace().count();
    // Typed by the player, not stepped by the solver.
    let end = run(&mut s, &moves).unwrap();
    assert_eq!(
        end,
        format!(
            "Solved in {k} moves. Optimal: {k}. The scrambler used 14: {} fewer than the scrambler.",
            14 - k
        )
    );
    // Taking back the last move leaves the goal; making it again reaches it anew, and
    // that is said again.
    run(&mut s, "undo").unwrap();
    let again = run(&mut s, moves.split_whitespace().last().unwrap()).unwrap();
    assert!(
        again.starts_with(&format!("Solved in {k} moves.")),
        "{again}"
    );
    // One move more than optimal is said so.
    run(&mut s, "reset").unwrap();
    let (first, rest) = moves.split_once(' ').unwrap();
    let detour = format!("{first} {first} {first}' {rest}");
    let end = run(&mut s, &detour).unwrap();
    assert!(
        end.contains(&format!("Solved in {} moves.", k + 2)),
        "{end}"
    );
    assert!(end.contains("2 more than optimal"), "{end}");
}
