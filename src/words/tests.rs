use super::*;
use crate::def::parse_puzzle;
use crate::rng::Rng;

fn puzzle(text: &[u8], name: &str) -> Puzzle {
    parse_puzzle(text, name).unwrap().0
}

fn generators(p: &Puzzle) -> Vec<MoveId> {
    p.base_moves.iter().map(|b| b.powers[0]).collect()
}

/// Random positions of `p` (drawn from its group) are all solved, and the answers
/// replay to solved.
fn solves_random_positions(p: &Puzzle, count: usize) -> usize {
    let table = WordTable::build(p, &generators(p), &Effort::default()).unwrap();
    let group = Group::new(p).unwrap();
    let mut rng = Rng::new(7);
    let mut total = 0;
    for _ in 0..count {
        let start = group.random_state(&mut rng).unwrap();
        let answer = table.solve(p, &start).expect("a position of the group");
        assert!(p.is_solved(&p.apply_sequence(&start, &answer), &[]));
        total += answer.len();
    }
    total / count
}

#[test]
fn the_2x2x2_is_solved_from_random_positions() {
    let p = puzzle(include_bytes!("../../puzzles/2x2x2.def"), "2x2x2.def");
    let mean = solves_random_positions(&p, 50);
    assert!(mean < 60, "mean {mean}");
}

#[test]
fn interchangeable_centres_of_the_4x4x4_are_solved() {
    let p = puzzle(include_bytes!("../../puzzles/4x4x4.def"), "4x4x4.def");
    solves_random_positions(&p, 5);
}

#[test]
fn a_position_outside_the_group_is_not_solved() {
    let p = puzzle(include_bytes!("../../puzzles/2x2x2.def"), "2x2x2.def");
    let table = WordTable::build(&p, &generators(&p), &Effort::default()).unwrap();
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori[0] = 1;
    assert!(table.solve(&p, &twisted).is_none());
}

#[test]
fn an_element_of_the_group_sifts_without_choices() {
    let p = puzzle(include_bytes!("../../puzzles/4x4x4.def"), "4x4x4.def");
    let table = WordTable::build(&p, &generators(&p), &Effort::default()).unwrap();
    let group = Group::new(&p).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..3 {
        let start = group.random_state(&mut rng).unwrap();
        // The way `solve` takes when the choices among the alike centres run out.
        let g = table
            .group
            .element_reaching(&permuted(&start, &table.order), ELEMENT_BUDGET)
            .unwrap();
        let letters = table.sift_element(g).unwrap();
        let answer = table.letters.moves(&letters);
        assert!(p.is_solved(&p.apply_sequence(&start, &answer), &[]));
    }
}

#[test]
fn sets_are_ordered_alike_pieces_last_and_rarely_moved_ones_first() {
    let cube = puzzle(include_bytes!("../../puzzles/4x4x4.def"), "4x4x4.def");
    let name = |p: &Puzzle, k: usize| p.sets[k].name.clone();
    let order = set_order(&cube, &generators(&cube));
    assert_eq!(name(&cube, *order.last().unwrap()), "CENTRES");
    let mega = puzzle(
        include_bytes!("../../puzzles/megaminx_wca.def"),
        "megaminx_wca.def",
    );
    let searched: Vec<MoveId> = mega
        .base_moves
        .iter()
        .enumerate()
        .filter(|(b, _)| mega.searched.get(*b).copied().unwrap_or(true))
        .map(|(_, m)| m.powers[0])
        .collect();
    let order: Vec<String> = set_order(&mega, &searched)
        .into_iter()
        .map(|k| name(&mega, k))
        .collect();
    assert_eq!(order, ["CENTRES", "EDGES", "CORNERS"]);
}

#[test]
fn a_group_of_one_element_has_an_empty_table() {
    let p = puzzle(include_bytes!("../../puzzles/2x2x2.def"), "2x2x2.def");
    // No generators: the group is the identity alone, and the fill must end at once.
    let table = WordTable::build(&p, &[], &Effort::default()).unwrap();
    assert_eq!(table.levels(), 0);
    assert_eq!(table.solve(&p, &p.solved), Some(Vec::new()));
}
