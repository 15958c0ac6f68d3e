//! Unit tests of the readers and printers: the samples' quirks, each error kind, and
//! round trips.

use super::*;
use std::path::PathBuf;

/// ksolve+'s sample folder, when this checkout sits beside it.
fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/ksolve-samples");
    dir.is_dir().then_some(dir)
}

#[test]
fn every_sample_reads_except_the_one_without_end() {
    let Some(dir) = samples() else { return };
    let mut defs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "def"))
        .collect();
    defs.sort();
    assert!(defs.len() >= 20);
    for p in defs {
        let res = load_puzzle(&p);
        if p.ends_with("3x3x3_3color.def") {
            let e = res.unwrap_err();
            assert_eq!(e.line, 57);
            assert!(matches!(&*e.kind, ErrorKind::MissingEnd { block, .. } if block == "Move B"));
        } else {
            let (_, warnings) = res.unwrap_or_else(|e| panic!("{e}"));
            assert!(warnings.is_empty(), "{}", p.display());
        }
    }
    for (d, s, n) in [
        ("2x2x2.def", "2x2x2.txt", 3),
        ("3x3x3_RFU.def", "3x3x3_RFU.txt", 3),
        ("Megaminx_RU.def", "Megaminx_RU.txt", 3),
        ("Bicube.def", "bicube.txt", 2),
    ] {
        let (puz, _) = load_puzzle(dir.join(d)).unwrap();
        let v = load_scrambles(dir.join(s), &puz).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.len(), n, "{s}");
    }
}

use crate::puzzle::{LimitKey, Metric, MoveId, ScrambleSource, Transform};
use proptest::prelude::*;

/// A 2x2x2 with one corner fixed, written with the quirks of old files: CRLF, a Latin-1
/// comment, a comment without a blank after `#`, trailing blanks, a tab, blank lines
/// inside blocks, no final newline.
const QUIRKY: &[u8] = b"Name  2x2 quirky \r\n\r\n# by K\xe5re\r\n#no space\r\nSet CORNERS 7 3   \r\n\r\nSolved\r\nCORNERS\r\n\r\n1 2 3 4 5 6 7\r\nEnd\r\nMove U\r\nCORNERS\r\n4 1 2 3\t5 6 7\r\nEnd\r\n\r\nMove R\r\nCORNERS\r\n1 3 6 4 2 5 7\r\n0 2 1 0 1 2 0\r\nEnd\r\nMove F\nCORNERS\n1 2 4 7 5 3 6\n0 0 2 1 0 1 2\nEnd";

fn puzzle(text: &str) -> crate::puzzle::Puzzle {
    parse_puzzle(text.as_bytes(), "t.def")
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn def_err(text: &[u8]) -> DefError {
    parse_puzzle(text, "t.def").expect_err("should be refused")
}

fn scr_err(p: &crate::puzzle::Puzzle, text: &str) -> DefError {
    parse_scrambles(text.as_bytes(), "s.txt", p).expect_err("should be refused")
}

#[test]
fn quirks_of_old_files_are_absorbed() {
    let (p, w) = parse_puzzle(QUIRKY, "q.def").unwrap();
    assert!(w.is_empty());
    assert_eq!(p.name.as_deref(), Some("2x2 quirky"));
    assert_eq!(p.sets.len(), 1);
    let names: Vec<_> = p.moves.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"]);
    // Lone CRs and a byte-order mark read the same.
    let cr = String::from_utf8_lossy(QUIRKY)
        .replace("\r\n", "\r")
        .replace('\n', "\r");
    let cr = cr.replace('\u{fffd}', "?").into_bytes();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(QUIRKY);
    assert_eq!(parse_puzzle(&cr, "q.def").unwrap().0, p);
    assert_eq!(parse_puzzle(&bom, "q.def").unwrap().0, p);
}

#[test]
fn move_orientation_is_indexed_by_source_position() {
    let p = parse_puzzle(QUIRKY, "q.def").unwrap().0;
    let r = &p.base_moves[1];
    assert_eq!(r.effect.to_ksolve().sets[0].ori, [0, 2, 1, 0, 1, 2, 0]);
    // After R the piece from position 3 sits at position 2 with the twist of position 3.
    let s = p.solved.then(&r.effect, &p.sets);
    assert_eq!(s.sets[0].perm, [0, 2, 5, 3, 1, 4, 6]);
    assert_eq!(s.sets[0].ori, [0, 1, 2, 0, 2, 1, 0]);
}

const TWO_SETS: &str = "Set A 4 2\nSet B 3 1\nMove X\nA\n2 1 3 4\n1 1 0 0\nEnd\nMove Y\nB\n1 2 3\n0 1 0\nA\n1 3 4 2\nEnd\n";

#[test]
fn left_out_parts_are_identity_and_one_orientation_twists_count_as_touching() {
    let p = puzzle(TWO_SETS);
    assert_eq!(p.solved, Transform::identity(&p.sets));
    assert_eq!(p.base_moves[0].effect.sets[1].perm, [0, 1, 2]);
    assert_eq!(p.base_moves[1].touched[1], [false, true, false]);
    assert_eq!(p.base_moves[1].effect.sets[1].ori, [0, 0, 0]);
    assert_eq!(p.base_moves[0].order, 2);
    assert_eq!(p.base_moves[1].order, 3);
}

#[test]
fn noinverse_makes_a_directed_move() {
    let p = puzzle("Set A 4 1\nMove U noinverse\nA\n2 3 4 1\nEnd\nMove V\nA\n2 1 3 4\nEnd\n");
    assert!(p.base_moves[0].directed);
    assert_eq!(p.moves.len(), 2);
    assert_eq!(p.moves[0].name, "U");
}

#[test]
fn forbidden_pairs_and_groups() {
    let text = format!("{TWO_SETS}ForbiddenPairs\nX Y'\nEnd\nForbiddenGroups\nX Y\nEnd\n");
    let p = puzzle(&text);
    let id = |n: &str| p.move_by_name(n).unwrap();
    let n = p.moves.len();
    let forbidden = |a: MoveId, b: MoveId| p.forbidden[a.index() * n + b.index()];
    assert!(forbidden(id("X"), id("Y'")));
    assert!(!forbidden(id("Y'"), id("X")));
    assert!(forbidden(id("X"), id("Y")) && forbidden(id("Y"), id("X")));
    assert!(!forbidden(id("Y"), id("Y'")));
    assert!(!p.canonical_successor(id("X"), id("Y'")));
}

#[test]
fn deprecated_commands_are_skipped_with_one_warning() {
    let text = format!(
        "{TWO_SETS}Multiplicators\nX X2\nEnd\nParallelMoves\nX Y\nEnd\nMultiplicators\nEnd\n"
    );
    let (p, w) = parse_puzzle(text.as_bytes(), "t.def").unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].line, 15);
    assert_eq!(p, puzzle(TWO_SETS));
}

#[test]
fn ignore_and_blocks_are_read() {
    let text = format!("{TWO_SETS}Ignore\nA\n0 1 1 0\n0 0 1 1\nEnd\nBlock\nB\n2\nA\n3 4\nEnd\n");
    let p = puzzle(&text);
    assert_eq!(p.ignore[0].perm, [false, true, true, false]);
    assert_eq!(p.ignore[0].ori, [false, false, true, true]);
    assert_eq!(p.ignore[1].perm, [false; 3]);
    assert_eq!(p.blocks[0].pieces, [(1, 1), (0, 2), (0, 3)]);
}

#[test]
fn scramble_settings_apply_to_the_scrambles_after_them() {
    let p = parse_puzzle(QUIRKY, "q.def").unwrap().0;
    let text = "Slack 2\nMaxDepth 9\nQTM\nMoveLimits\nF2 1\nR* 2\nEnd\nScrambleAlg a\nR U\nR'\nEnd\nHTM\nMoveLimits\nEnd\nRandomScramble r\nEnd\nScramble s\nCORNERS\n2 1 3 4 5 6 7\n";
    let text = format!("{text}0 0 0 0 0 0 0\nEnd\n");
    let v = parse_scrambles(text.as_bytes(), "s.txt", &p).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!((v[0].settings.slack, v[0].settings.max_depth), (2, 9));
    assert_eq!(v[0].settings.metric, Metric::Qtm);
    assert_eq!(v[0].settings.limits.len(), 2);
    assert_eq!(
        v[0].settings.limits[0].keys,
        vec![LimitKey::Move(p.move_by_name("F2").unwrap())]
    );
    assert_eq!(v[0].settings.limits[1].keys, vec![LimitKey::Family(1)]);
    assert_eq!(
        v[0].source,
        ScrambleSource::Alg(vec![
            p.move_by_name("R").unwrap(),
            p.move_by_name("U").unwrap(),
            p.move_by_name("R'").unwrap()
        ])
    );
    assert_eq!(v[0].line, 8);
    assert_eq!(v[1].settings.metric, Metric::Htm);
    assert!(v[1].settings.limits.is_empty());
    assert_eq!(v[1].source, ScrambleSource::Random);
    assert_eq!(v[2].name, "s");
    let ScrambleSource::Position(t) = &v[2].source else {
        panic!()
    };
    assert_eq!(t.state.sets[0].perm, [1, 0, 2, 3, 4, 5, 6]);
    assert!(!t.has_ignores());
}

const IGNORING: &str = "Set A 4 3\nSolved\nA\n1 1 2 3\nEnd\nMove X\nA\n2 3 4 1\n1 0 0 2\nEnd\nIgnore\nA\n1 1 0 0\n0 1 1 0\nEnd\n";

#[test]
fn question_marks_fill_the_missing_pieces_ascending() {
    let p = puzzle(IGNORING);
    let v = parse_scrambles(
        b"Scramble q\nA\n? ? 1 2\n0 ?2 ? 0\nEnd\nScramble h\nA\n?3 ? 1 1\n0 0 ?1 0\nEnd\n",
        "s.txt",
        &p,
    )
    .unwrap();
    let ScrambleSource::Position(t) = &v[0].source else {
        panic!()
    };
    assert_eq!(t.state.sets[0].perm, [0, 2, 0, 1]);
    assert_eq!(t.state.sets[0].ori, [0, 2, 0, 0]);
    assert_eq!(t.ignore[0].perm, [true, true, false, false]);
    assert_eq!(t.ignore[0].ori, [false, true, true, false]);
    let ScrambleSource::Position(t) = &v[1].source else {
        panic!()
    };
    assert_eq!(t.state.sets[0].perm, [2, 1, 0, 0]);
}

#[test]
fn errors_name_place_and_kind() {
    // Missing End at the end of the file names the move and its line.
    let e = def_err(b"Set A 2 1\nMove B\nA\n2 1\n");
    assert_eq!((e.line, e.col), (2, 1));
    assert!(
        e.to_string()
            .starts_with("t.def:2:1: `Move B` (line 2) has no `End`"),
        "{e}"
    );
    assert!(e.to_string().contains(" 2 | Move B\n   | ^"), "{e}");
    // Missing End before the next command.
    let e = def_err(b"Set A 2 1\nMove B\nA\n2 1\nMove C\nA\n2 1\nEnd\n");
    assert!(e.to_string().contains("before `Move` at line 5"), "{e}");
    let e = def_err(b"Set A 2 1\nTwist B\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownCommand { .. }));
    assert_eq!((e.line, e.col), (2, 1));
    let e = def_err(b"Set A 2 1\nMove B\nQ\n2 1\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownSet { .. }));
    let e = def_err(b"Set A 2 1\nMove B\nA\n2 1\nA\n2 1\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::DuplicateSet { .. }));
    assert_eq!(e.line, 5);
    let e = def_err(b"Set A 3 1\nMove B\nA\n2 1\nEnd\n");
    assert!(matches!(
        *e.kind,
        ErrorKind::WrongLength {
            found: 2,
            expected: 3,
            ..
        }
    ));
    assert_eq!((e.line, e.col), (4, 5));
    let e = def_err(b"Set A 3 1\nMove B\nA\n2 1 1\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::NotAPermutation(_)));
    assert_eq!((e.line, e.col), (4, 5));
    let e = def_err(b"Set A 3 2\nMove B\nA\n2 1 3\n0 2 0\nEnd\n");
    assert!(matches!(
        *e.kind,
        ErrorKind::OrientationRange {
            value: 2,
            max: 1,
            ..
        }
    ));
    assert_eq!((e.line, e.col), (5, 3));
    let e = def_err(b"Set A 3 2\nMove B\nA\n2 x 3\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::NotANumber { .. }));
    let e = def_err(b"Set A 99999999999999999999999 2\n");
    assert!(matches!(*e.kind, ErrorKind::TooLarge { .. }));
    let e = def_err(b"Set A 3 2\nMove B\nA\n2 1 3\nEnd\nForbiddenPairs\nB C\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }));
    assert_eq!((e.line, e.col), (7, 3));
    let e = def_err(b"Set A 3 2\nMove B\nA\n2 1 3\nEnd\nBlock\nA\n1 4\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::BadBlock(_)));
    assert_eq!((e.line, e.col), (8, 3));
    let e = def_err(b"");
    assert!(matches!(*e.kind, ErrorKind::Empty(_)));
    let e = def_err(b"# only a comment\r\n\r\n");
    assert!(matches!(*e.kind, ErrorKind::Empty(_)));
    let e = def_err(b"Set A 3 2\n\x00\x01\x02garbage");
    assert!(matches!(*e.kind, ErrorKind::Binary { .. }));
    let e = def_err(b"Set A 3 2\nMove B\nA\n2 1 3\nEnd\nSet C 2 2\n");
    assert!(matches!(*e.kind, ErrorKind::SetTooLate(_)));
    assert_eq!(e.line, 6);
    let e = def_err(b"Set A 3 2\nMove B\nA\n1 2 3\nEnd\n");
    assert!(e.to_string().contains("changes nothing"), "{e}");
    let e = def_err(b"Set A 4 2\nMove R\nA\n2 3 4 1\nEnd\nMove R2\nA\n2 1 3 4\nEnd\n");
    assert!(e.to_string().contains("`R2`"), "{e}");
    assert_eq!(e.line, 6);
}

#[test]
fn scramble_errors_name_place_and_kind() {
    let p = puzzle(IGNORING);
    let e = scr_err(&p, "ScrambleAlg a\nX Z\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }));
    assert_eq!((e.line, e.col), (2, 3));
    let e = scr_err(&p, "MoveLimits\nZ* 1\nEnd\nRandomScramble r\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }));
    let e = scr_err(&p, "Scramble a\nA\n1 1 ? 2\nEnd\n");
    assert!(matches!(
        *e.kind,
        ErrorKind::IgnoreNotAllowed { pos: 3, .. }
    ));
    assert_eq!((e.line, e.col), (3, 5));
    let e = scr_err(&p, "Scramble a\nA\n1 2 3 3\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::NotAPermutation(_)));
    assert_eq!((e.line, e.col), (3, 7));
    let e = scr_err(&p, "Scramble a\nA\n1 1 2 3\n0 0 0 3\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::OrientationRange { .. }));
    let e = scr_err(&p, "");
    assert!(matches!(*e.kind, ErrorKind::Empty(_)));
    let e = scr_err(&p, "Slack 2\n");
    assert!(e.to_string().contains("no scramble"), "{e}");
    let e = scr_err(&p, "Slack -1\n");
    assert!(matches!(*e.kind, ErrorKind::NotANumber { .. }));
    let e = scr_err(&p, "Name x\n");
    assert!(
        e.to_string().contains("belongs in a definition file"),
        "{e}"
    );
}

#[test]
fn the_bandaged_sample_refuses_a_blocked_alg() {
    let p = puzzle("Set A 4 1\nSet B 1 1\nMove U\nA\n2 3 4 1\nEnd\nMove R\nA\n2 1 3 4\nB\n1\n1\nEnd\nBlock\nA\n1\nB\n1\nEnd\n");
    // U moves piece 1 without the centre it is bandaged to; R moves both.
    let e = scr_err(&p, "ScrambleAlg a\nU\nEnd\n");
    assert!(e.to_string().contains("blocked"), "{e}");
    assert!(parse_scrambles(b"ScrambleAlg a\nR R\nEnd\n", "s", &p).is_ok());
    let e = scr_err(&p, "Scramble a\nA\n? 1 2 3\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::IgnoreNotAllowed { .. }));
}

#[test]
fn scramble_algs_take_the_algorithm_notation() {
    use crate::puzzle::ScrambleSource;
    let p = puzzle(TWO_SETS);
    let text = "ScrambleAlg a\n# a ksolve+ comment\n[X, Y] // commutator\n(X Y2)2'\nEnd\n";
    let scr = parse_scrambles(text.as_bytes(), "s", &p).unwrap();
    let ScrambleSource::Alg(seq) = &scr[0].source else {
        panic!("not an alg");
    };
    assert_eq!(p.format_sequence(seq), "X Y X Y' Y X Y X");
    let e = scr_err(&p, "ScrambleAlg a\nX\n (X Y]\nEnd\n");
    assert_eq!((e.line, e.col), (3, 6));
    // A blocked move inside a construct is reported where it is written.
    let b = puzzle("Set A 4 1\nSet B 1 1\nMove U\nA\n2 3 4 1\nEnd\nMove R\nA\n2 1 3 4\nB\n1\n1\nEnd\nBlock\nA\n1\nB\n1\nEnd\n");
    let e = scr_err(&b, "ScrambleAlg a\n(R)2 [R: U]\nEnd\n");
    assert!(e.to_string().contains("blocked"), "{e}");
    assert_eq!((e.line, e.col), (2, 10));
}

/// Random puzzles that the file format can express: 1-3 sets, 1-4 moves.
fn arb_puzzle() -> impl Strategy<Value = crate::puzzle::Puzzle> {
    use crate::puzzle::{Block, IgnoreMask, Puzzle, SetDef, SetState};
    let set = (1usize..7, 1u8..5);
    proptest::collection::vec(set, 1..4).prop_flat_map(|shape| {
        let sets: Vec<SetDef> = shape
            .iter()
            .enumerate()
            .map(|(i, &(size, orientations))| SetDef {
                name: format!("S{i}"),
                size,
                orientations,
            })
            .collect();
        let state = |sets: &[SetDef], twist_one: bool| {
            sets.iter()
                .map(|s| {
                    let max = if twist_one && s.orientations == 1 {
                        2
                    } else {
                        s.orientations
                    };
                    (
                        Just((0..s.size as u16).collect::<Vec<_>>()).prop_shuffle(),
                        proptest::collection::vec(0..max, s.size),
                    )
                        .prop_map(|(perm, ori)| SetState { perm, ori })
                })
                .collect::<Vec<_>>()
        };
        let mv = state(&sets, true).prop_map(|sets| Transform { sets });
        let solved = state(&sets, false).prop_map(|sets| Transform { sets });
        let masks = sets
            .iter()
            .map(|s| {
                (
                    proptest::collection::vec(any::<bool>(), s.size),
                    proptest::collection::vec(any::<bool>(), s.size),
                )
                    .prop_map(|(perm, ori)| IgnoreMask { perm, ori })
            })
            .collect::<Vec<_>>();
        let sizes: Vec<usize> = sets.iter().map(|s| s.size).collect();
        let block = proptest::sample::select(sizes.into_iter().enumerate().collect::<Vec<_>>())
            .prop_flat_map(|(k, size)| {
                proptest::sample::subsequence((0..size as u16).collect::<Vec<_>>(), 1..=size)
                    .prop_map(move |ls| ls.into_iter().map(|l| (k, l)).collect::<Vec<_>>())
            });
        (
            Just(sets),
            solved,
            proptest::collection::vec((mv, any::<bool>()), 1..5),
            masks,
            proptest::collection::vec(block.prop_map(|pieces| Block { pieces }), 0..3),
            proptest::option::of("[A-Za-z][A-Za-z0-9 ]{0,8}[a-z]"),
            proptest::collection::vec((any::<u16>(), any::<u16>()), 0..4),
        )
            .prop_map(|(sets, solved, moves, ignore, blocks, name, forbid)| {
                let base = moves
                    .into_iter()
                    .enumerate()
                    .filter(|(_, (m, _))| !Transform::from_ksolve(&sets, m).is_identity())
                    .map(|(i, (m, directed))| (format!("M{i}x"), m, directed))
                    .collect();
                let mut p = Puzzle::new(name, sets, solved, base, ignore, blocks);
                let n = p.moves.len() as u16;
                if n > 0 {
                    for (a, b) in forbid {
                        p.forbid(MoveId(a % n), MoveId(b % n));
                    }
                }
                p
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn written_definitions_read_back_equal(p in arb_puzzle()) {
        prop_assume!(!p.moves.is_empty());
        let text = write_def(&p);
        let (q, w) = parse_puzzle(text.as_bytes(), "w.def").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(w.iter().all(|w| w.message.contains("fewer than two")));
        prop_assert_eq!(q, p);
    }

    #[test]
    fn formatted_states_read_back_equal(p in arb_puzzle(), seq in proptest::collection::vec(any::<u16>(), 0..12)) {
        prop_assume!(!p.moves.is_empty() && p.blocks.is_empty());
        let seq: Vec<MoveId> = seq.iter().map(|&m| MoveId(m % p.moves.len() as u16)).collect();
        let state = p.apply_sequence(&p.solved, &seq);
        let text = format!("Scramble x\n{}End\n", format_state(&p, &state));
        let v = parse_scrambles(text.as_bytes(), "s.txt", &p).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let ScrambleSource::Position(t) = &v[0].source else { panic!() };
        prop_assert_eq!(&t.state, &state);
    }

    #[test]
    fn no_bytes_make_the_readers_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_puzzle(&bytes, "f.def");
        let p = puzzle(TWO_SETS);
        let _ = parse_scrambles(&bytes, "f.txt", &p);
    }
}

#[test]
fn definitions_asking_for_too_much_memory_are_refused() {
    let mut text = String::from("Set A 65000 1\nSet B 2 1\n");
    for i in 0..300 {
        text.push_str(&format!("Move X{i}\nB\n2 1\nEnd\n"));
    }
    let e = def_err(text.as_bytes());
    assert!(e.to_string().contains("the puzzle is too large"), "{e}");
    // Cycles of lengths 2, 3, 5, 7, 11 and 13 make a move of order 30030.
    let mut perm = Vec::new();
    let mut start = 1;
    for len in [2, 3, 5, 7, 11, 13] {
        for k in 0..len {
            perm.push(start + (k + 1) % len);
        }
        start += len;
    }
    let perm: Vec<String> = perm.iter().map(|p: &usize| p.to_string()).collect();
    let text = format!("Set A 41 1\nMove X\nA\n{}\nEnd\n", perm.join(" "));
    let e = def_err(text.as_bytes());
    assert!(e.to_string().contains("has order 30030"), "{e}");
    // The same move may be used as a directed move.
    let directed = text.replace("Move X", "Move X noinverse");
    assert_eq!(puzzle(&directed).moves.len(), 1);
    // Cycles of the first ten primes make an order past u32::MAX: the message must not
    // print the saturated value as the order.
    let primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29];
    let mut perm = Vec::new();
    let mut start = 1;
    for len in primes {
        for k in 0..len {
            perm.push(start + (k + 1) % len);
        }
        start += len;
    }
    let perm: Vec<String> = perm.iter().map(|p: &usize| p.to_string()).collect();
    let text = format!(
        "Set A {} 1\nMove X\nA\n{}\nEnd\n",
        start - 1,
        perm.join(" ")
    );
    let e = def_err(text.as_bytes());
    assert!(
        e.to_string().contains("has order at least 4294967295"),
        "{e}"
    );
}

/// Several names and one number on a `MoveLimits` line make one limit they share; a
/// ksolve+ line (one name, one number) reads as before.
#[test]
fn a_moves_limits_line_may_share_one_limit() {
    let p = parse_puzzle(QUIRKY, "q.def").unwrap().0;
    let text = "MoveLimits\nR* F2 U 2\nF* 1\nEnd\nRandomScramble r\nEnd\n";
    let v = parse_scrambles(text.as_bytes(), "s.txt", &p).unwrap();
    let l = &v[0].settings.limits;
    assert_eq!(l.len(), 2);
    assert_eq!(
        l[0].keys,
        vec![
            LimitKey::Family(1),
            LimitKey::Move(p.move_by_name("F2").unwrap()),
            LimitKey::Move(p.move_by_name("U").unwrap()),
        ]
    );
    assert_eq!(l[0].max, 2);
    assert_eq!(
        (l[1].keys.clone(), l[1].max),
        (vec![LimitKey::Family(2)], 1)
    );
    // The shared limit counts R2 (through R*) and F2, not F or U2.
    let count = |n: &str| l[0].matches(&p, p.move_by_name(n).unwrap());
    assert!(count("R2") && count("F2") && count("U"));
    assert!(!count("F") && !count("U2"));
}

#[test]
fn moves_limits_lines_are_refused_at_the_bad_word() {
    let p = parse_puzzle(QUIRKY, "q.def").unwrap().0;
    // Two ksolve+ pairs on one line: the number in the middle is named.
    let e = scr_err(&p, "MoveLimits\nR* 1 F* 2\nEnd\nRandomScramble r\nEnd\n");
    assert_eq!((e.line, e.col), (2, 4));
    assert!(e.to_string().contains("its own line"), "{e}");
    // A name without a limit.
    let e = scr_err(&p, "MoveLimits\nR*\nEnd\nRandomScramble r\nEnd\n");
    assert_eq!((e.line, e.col), (2, 4));
    assert!(e.to_string().contains("needs a limit"), "{e}");
    // An unknown move among shared names, and a missing number at the end.
    let e = scr_err(&p, "MoveLimits\nR* Q F 1\nEnd\nRandomScramble r\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }));
    assert_eq!((e.line, e.col), (2, 4));
    let e = scr_err(&p, "MoveLimits\nR* F U\nEnd\nRandomScramble r\nEnd\n");
    assert!(matches!(*e.kind, ErrorKind::NotANumber { .. }));
    assert_eq!((e.line, e.col), (2, 6));
}

/// `MoveCosts` weighs moves (`BASE*` for all powers, rows in order so a later row
/// overrides), reads back through `write_def`, and refuses bad rows at their word.
#[test]
fn move_costs_weigh_moves_and_refuse_bad_rows() {
    let base = String::from_utf8_lossy(QUIRKY).into_owned();
    let p = puzzle(&format!("{base}\nMoveCosts\nR* 2\nR2 3\nU' 0\nEnd\n"));
    let w = |n: &str| p.mv(p.move_by_name(n).unwrap()).weight;
    assert_eq!((w("R"), w("R2"), w("R'")), (2, 3, 2));
    assert_eq!((w("U"), w("U'"), w("F2")), (1, 0, 1));
    assert!(p.has_weights());
    assert_eq!(
        p.move_cost(crate::puzzle::Metric::Qtm, p.move_by_name("R2").unwrap()),
        6
    );
    let (q, _) = parse_puzzle(write_def(&p).as_bytes(), "w.def").unwrap();
    assert_eq!(q, p);
    assert!(!puzzle(&base).has_weights());
    let bad = |rows: &str| {
        parse_puzzle(
            format!("{base}\nMoveCosts\n{rows}\nEnd\n").as_bytes(),
            "c.def",
        )
        .expect_err("should be refused")
    };
    let e = bad("Q 1");
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }));
    assert_eq!((e.line, e.col), (28, 1));
    let e = bad("R x");
    assert!(matches!(*e.kind, ErrorKind::NotANumber { .. }));
    assert_eq!((e.line, e.col), (28, 3));
    let e = bad("R 101");
    assert!(matches!(*e.kind, ErrorKind::TooLarge { .. }));
    let e = bad("R 1 2");
    assert_eq!((e.line, e.col), (28, 5));
    let e = bad("Z* 1");
    assert!(e.to_string().contains("`*` follows a move"), "{e}");
}

/// A board of four cells whose goal frees the first three (`?`) and fixes the last.
fn rules_def(solved: &str, rules: &str) -> String {
    format!("Set Cells 4 1\nSolved\nCells\n{solved}\n{rules}End\nMove M\nCells\n2 1 3 4\nEnd\n")
}

#[test]
fn a_goal_the_require_rules_leave_empty_is_refused_with_the_rules_named() {
    // Cell 1 may hold neither label the free cells share: no filling is left.
    let text = rules_def(
        "?1 ?1 ?2 4",
        "Require Cells 1 1 never\nRequire Cells 1 2 never\n",
    );
    let e = parse_puzzle(text.as_bytes(), "r.def").expect_err("no goal position");
    assert_eq!((e.line, e.col), (2, 1), "{e}");
    assert!(e.to_string().contains("(lines 5-6)"), "{e}");
    // One rule that still leaves a filling is kept.
    let text = rules_def("?1 ?1 ?2 4", "Require Cells 1 1 never\n");
    let (p, _) = parse_puzzle(text.as_bytes(), "r.def").unwrap();
    assert_eq!(p.goal_positions(10).map(|g| g.len()), Some(1));
}

#[test]
fn a_solved_state_whose_fixed_cells_break_a_rule_is_refused_at_the_rule() {
    let text = rules_def(
        "1 2 3 4",
        "Require Cells 2 3 4 1\nRequire Cells 1 1 never\n",
    );
    let e = parse_puzzle(text.as_bytes(), "r.def").expect_err("solved breaks a rule");
    assert_eq!((e.line, e.col), (6, 1), "{e}");
    assert!(e.to_string().contains("without `?` break this rule"), "{e}");
    // A rule on a free cell judges the fillings, not the `Solved` line as written.
    let text = rules_def("?1 2 3 4", "Require Cells 1 1 never\n");
    let e = parse_puzzle(text.as_bytes(), "r.def").expect_err("1 is the only filling");
    assert_eq!(e.line, 2, "{e}");
    let text = rules_def("?1 2 3 4", "Require Cells 1 2 never\n");
    assert!(parse_puzzle(text.as_bytes(), "r.def").is_ok());
}
