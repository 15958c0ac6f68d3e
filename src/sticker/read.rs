//! A position from its colours: one letter per sticker, in the map's order (for the
//! shipped 3x3x3, the 54-letter URFDLB facelet string of Kociemba-style tools).
//!
//! Colours are any distinct letters. Which letter belongs to which face is fixed by
//! the fixed stickers (the 3x3x3's centres, the 2x2x2's DBL corner); faces without one
//! get the letters left over in the way that makes the most pieces real (and, among
//! those, a solvable position with the most pieces at home). A string that does not
//! have one letter per sticker, or uses more colours than the puzzle has faces, is
//! malformed ([`FaceletError`]); a well-formed colouring that no real puzzle shows is
//! impossible, and [`Problem`] says why, checking in this order: how often each colour
//! is used, pieces that do not exist, pieces given twice, then the group's reasons
//! (a twisted corner, a flipped edge, two pieces swapped), pieces named by colours.

use super::StickerMap;
use crate::group::{Group, Reason, Verdict};
use crate::puzzle::{Puzzle, SetDef, State};
use std::collections::HashMap;
use std::fmt;

/// A facelet string that cannot be read at all. `index` is the 0-based position of the
/// offending letter in the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FaceletError {
    #[error("{found} colours given: expected {expected}, one per sticker")]
    Length { found: usize, expected: usize },
    #[error("`{letter}` is not a colour: expected a letter or digit")]
    NotALetter { index: usize, letter: char },
    #[error("unknown colour `{letter}`: expected one of {known}")]
    UnknownLetter {
        index: usize,
        letter: char,
        known: String,
    },
    #[error(
        "the puzzle has no sticker map: expected a `Stickers ... End` block in its definition"
    )]
    NoMap,
}

/// Why a well-formed colouring is not a position of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Colours used the wrong number of times: (colour, times used, times expected).
    ColourCount(Vec<(char, usize, usize)>),
    /// Fixed stickers (centres) that contradict each other.
    FixedClash(String),
    /// A position whose colours no piece has.
    NoSuchPiece {
        kind: String,
        at: String,
        colours: String,
        why: String,
    },
    /// A piece shown at more than one position.
    Duplicate {
        kind: String,
        colours: String,
        at: Vec<String>,
    },
    /// A real arrangement of real pieces that no sequence of moves reaches.
    Unreachable(String),
    /// Too many faces without a fixed sticker to tell which colour is which face.
    Unmapped(usize),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::ColourCount(wrong) => {
                let parts: Vec<String> = wrong
                    .iter()
                    .map(|(c, n, e)| format!("colour {c} is used {n} times, not {e}"))
                    .collect();
                write!(f, "{}", parts.join("; "))
            }
            Problem::FixedClash(what) => write!(f, "{what}"),
            Problem::NoSuchPiece {
                kind,
                at,
                colours,
                why,
            } => write!(
                f,
                "the {kind} at {at} has colours {colours}, and no {kind} does: {why}"
            ),
            Problem::Duplicate { kind, colours, at } => write!(
                f,
                "the {kind} {colours} is given twice (at {})",
                at.join(" and ")
            ),
            Problem::Unreachable(why) => write!(f, "{why}"),
            Problem::Unmapped(n) => write!(
                f,
                "{n} faces have no fixed sticker, too many to tell their colours apart"
            ),
        }
    }
}

/// What a colouring is: a position, or why it cannot be one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    Position(State),
    Impossible(Problem),
}

/// The singular word for a piece of a set: `CORNERS` gives `corner`.
pub fn kind_of(set: &SetDef) -> String {
    let lower = set.name.to_lowercase();
    lower.strip_suffix('s').unwrap_or(&lower).to_string()
}

/// How well a letter-to-face assignment explains a colouring (see `PieceTable::score`);
/// larger is better.
type Score = (bool, bool, usize, usize, usize);

/// Pairs (letter, face) of one assignment, handed to a visitor.
type Visit<'a> = &'a mut dyn FnMut(&[(char, char)]);

/// The most faces without a fixed sticker whose colours are found by trying every
/// assignment (8! = 40,320).
const MAX_FREE_FACES: usize = 8;

/// Reads a colouring (one letter per sticker, in map order). `group`, when given,
/// judges whether the arrangement can be reached.
pub fn read(
    puzzle: &Puzzle,
    letters: &[char],
    group: Option<&Group>,
) -> Result<Reading, FaceletError> {
    let map = puzzle.stickers.as_ref().ok_or(FaceletError::NoMap)?;
    let expected = map.stickers.len();
    if letters.len() != expected {
        return Err(FaceletError::Length {
            found: letters.len(),
            expected,
        });
    }
    if let Some(index) = letters.iter().position(|c| !c.is_ascii_alphanumeric()) {
        return Err(FaceletError::NotALetter {
            index,
            letter: letters[index],
        });
    }
    let faces = &map.faces;
    let fixed_faces: Vec<char> = faces
        .iter()
        .copied()
        .filter(|&f| {
            map.stickers
                .iter()
                .any(|s| s.face == f && s.piece.is_none())
        })
        .collect();
    let mut distinct: Vec<char> = Vec::new();
    for (i, &c) in letters.iter().enumerate() {
        if !distinct.contains(&c) {
            distinct.push(c);
        }
        let known: Vec<char> = if fixed_faces.len() == faces.len() {
            // Every face has a centre: the centres are the colours.
            map.stickers
                .iter()
                .zip(letters)
                .filter(|(s, _)| s.piece.is_none())
                .map(|(_, &c)| c)
                .collect()
        } else if distinct.len() > faces.len() {
            distinct[..faces.len()].to_vec()
        } else {
            continue;
        };
        if !known.contains(&c) {
            let whose = if fixed_faces.len() == faces.len() {
                "the centres' colours"
            } else {
                "the colours used first, one per face"
            };
            let known: String = known.iter().map(|c| format!("{c} ")).collect();
            return Err(FaceletError::UnknownLetter {
                index: i,
                letter: c,
                known: format!("{known}({whose})"),
            });
        }
    }
    let face_size = |f: char| map.stickers.iter().filter(|s| s.face == f).count();
    // How often each colour is used comes first: it is the plainest mistake.
    let uniform = faces.iter().all(|&f| face_size(f) == face_size(faces[0]));
    if uniform {
        let size = face_size(faces[0]);
        let wrong: Vec<(char, usize, usize)> = distinct
            .iter()
            .map(|&c| (c, letters.iter().filter(|&&x| x == c).count(), size))
            .filter(|&(_, n, e)| n != e)
            .collect();
        if !wrong.is_empty() {
            return Ok(Reading::Impossible(Problem::ColourCount(wrong)));
        }
    }
    let mut assigned: HashMap<char, char> = HashMap::new(); // letter -> face
    for (st, &c) in map.stickers.iter().zip(letters) {
        if st.piece.is_some() {
            continue;
        }
        if let Some(&g) = assigned.get(&c) {
            if g != st.face {
                return Ok(Reading::Impossible(Problem::FixedClash(format!(
                    "the centres of faces {g} and {} both show colour {c}",
                    st.face
                ))));
            }
        }
        if let Some((&other, _)) = assigned.iter().find(|(&l, &g)| g == st.face && l != c) {
            return Ok(Reading::Impossible(Problem::FixedClash(format!(
                "the fixed stickers of face {} show colours {other} and {c}",
                st.face
            ))));
        }
        assigned.insert(c, st.face);
    }
    let free_faces: Vec<char> = faces
        .iter()
        .copied()
        .filter(|f| !assigned.values().any(|g| g == f))
        .collect();
    let free_letters: Vec<char> = distinct
        .iter()
        .copied()
        .filter(|l| !assigned.contains_key(l))
        .collect();
    if free_faces.len() > MAX_FREE_FACES {
        return Ok(Reading::Impossible(Problem::Unmapped(free_faces.len())));
    }
    let table = PieceTable::new(puzzle, map);
    let mut best: Option<(Score, HashMap<char, char>)> = None;
    for_each_assignment(&free_letters, &free_faces, &mut |pairs| {
        let mut m = assigned.clone();
        m.extend(pairs.iter().copied());
        let score = table.score(puzzle, map, letters, &m, group);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, m));
        }
    });
    let Some((_, to_face)) = best else {
        return Ok(Reading::Impossible(Problem::Unmapped(free_faces.len())));
    };
    Ok(Reading::Impossible(
        match table.judge(puzzle, map, letters, &to_face, group) {
            Ok(state) => return Ok(Reading::Position(state)),
            Err(p) => p,
        },
    ))
}

/// Calls `f` with every way of giving the letters to the faces (as many as the shorter
/// list; extra letters stay unassigned and are reported by the count check).
fn for_each_assignment(letters: &[char], faces: &[char], f: Visit<'_>) {
    fn go(
        letters: &[char],
        faces: &[char],
        used: &mut Vec<bool>,
        acc: &mut Vec<(char, char)>,
        f: Visit<'_>,
    ) {
        let i = acc.len();
        if i == letters.len().min(faces.len()) {
            f(acc);
            return;
        }
        for (j, &face) in faces.iter().enumerate() {
            if !used[j] {
                used[j] = true;
                acc.push((letters[i], face));
                go(letters, faces, used, acc, f);
                acc.pop();
                used[j] = false;
            }
        }
    }
    go(
        letters,
        faces,
        &mut vec![false; faces.len()],
        &mut Vec::new(),
        f,
    );
}

/// Per set, the faces each piece shows in each orientation, to identify a position's
/// piece from the colours of its slots.
struct PieceTable {
    /// Per set: slot faces -> (label, orientation).
    lookup: Vec<HashMap<Vec<char>, (u16, u8)>>,
    /// Pairs of faces some piece carries together.
    together: Vec<(char, char)>,
}

impl PieceTable {
    fn new(puzzle: &Puzzle, map: &StickerMap) -> PieceTable {
        let mut lookup = Vec::new();
        let mut together = Vec::new();
        for (k, set) in puzzle.sets.iter().enumerate() {
            let n = set.orientations.max(1) as usize;
            let mut t = HashMap::new();
            for &label in &puzzle.solved.sets[k].perm {
                let own: Vec<char> = (0..n)
                    .map(|j| map.piece_face(&puzzle.sets, k, label as usize, j))
                    .collect();
                for a in &own {
                    for b in &own {
                        if a != b && !together.contains(&(*a, *b)) {
                            together.push((*a, *b));
                        }
                    }
                }
                for o in 0..n {
                    let slots: Vec<char> = (0..n).map(|s| own[(s + n - o) % n]).collect();
                    t.entry(slots).or_insert((label, o as u8));
                }
            }
            lookup.push(t);
        }
        PieceTable { lookup, together }
    }

    /// The faces the slots of position `pos` of set `k` show, through `to_face`.
    fn slot_faces(
        puzzle: &Puzzle,
        map: &StickerMap,
        letters: &[char],
        to_face: &HashMap<char, char>,
        k: usize,
        pos: usize,
    ) -> (Vec<char>, Vec<char>) {
        let n = puzzle.sets[k].orientations.max(1) as usize;
        let mut faces = vec!['\0'; n];
        let mut shown = vec!['\0'; n];
        for (st, &c) in map.stickers.iter().zip(letters) {
            if let Some(s) = st.piece {
                if s.set == k && s.pos == pos {
                    faces[s.slot as usize] = to_face.get(&c).copied().unwrap_or('\0');
                    shown[s.slot as usize] = c;
                }
            }
        }
        (faces, shown)
    }

    /// How well a letter-to-face assignment explains the colouring: whether every
    /// position holds a real piece, whether the position is solvable, how many
    /// positions hold a real piece, how many letters name their own face (so that a
    /// string in the faces' own letters reads as written when the puzzle can be turned
    /// whole), how many positions hold a piece at home.
    fn score(
        &self,
        puzzle: &Puzzle,
        map: &StickerMap,
        letters: &[char],
        to_face: &HashMap<char, char>,
        group: Option<&Group>,
    ) -> Score {
        let (mut real, mut home, mut total) = (0, 0, 0);
        for (k, set) in puzzle.sets.iter().enumerate() {
            for pos in 0..set.size {
                total += 1;
                let (faces, _) = Self::slot_faces(puzzle, map, letters, to_face, k, pos);
                if let Some(&(label, o)) = self.lookup[k].get(&faces) {
                    real += 1;
                    if label == puzzle.solved.sets[k].perm[pos] && o == 0 {
                        home += 1;
                    }
                }
            }
        }
        let all = real == total;
        let solvable = all && self.judge(puzzle, map, letters, to_face, group).is_ok();
        let own = to_face.iter().filter(|(l, f)| l == f).count();
        (all, solvable, real, own, home)
    }

    /// The position the colouring shows under `to_face`, or why there is none.
    fn judge(
        &self,
        puzzle: &Puzzle,
        map: &StickerMap,
        letters: &[char],
        to_face: &HashMap<char, char>,
        group: Option<&Group>,
    ) -> Result<State, Problem> {
        let to_letter: HashMap<char, char> = to_face.iter().map(|(&l, &f)| (f, l)).collect();
        let name = |k: usize, label: usize| -> String {
            let n = puzzle.sets[k].orientations.max(1) as usize;
            let parts: Vec<String> = (0..n)
                .map(|j| {
                    let f = map.piece_face(&puzzle.sets, k, label, j);
                    to_letter.get(&f).copied().unwrap_or(f).to_string()
                })
                .collect();
            parts.join("-")
        };
        let at = |k: usize, pos: usize| -> String {
            let n = puzzle.sets[k].orientations.max(1) as usize;
            let mut faces = vec!['?'; n];
            for st in &map.stickers {
                if let Some(s) = st.piece {
                    if s.set == k && s.pos == pos {
                        faces[s.slot as usize] = st.face;
                    }
                }
            }
            faces.iter().collect()
        };
        let mut state = puzzle.solved.clone();
        for (k, set) in puzzle.sets.iter().enumerate() {
            for pos in 0..set.size {
                let (faces, shown) = Self::slot_faces(puzzle, map, letters, to_face, k, pos);
                match self.lookup[k].get(&faces) {
                    Some(&(label, o)) => {
                        state.sets[k].perm[pos] = label;
                        state.sets[k].ori[pos] = o;
                    }
                    None => {
                        return Err(Problem::NoSuchPiece {
                            kind: kind_of(set),
                            at: at(k, pos),
                            colours: shown
                                .iter()
                                .map(|c| c.to_string())
                                .collect::<Vec<_>>()
                                .join("-"),
                            why: self.why_not(&faces, &shown),
                        })
                    }
                }
            }
        }
        for (k, set) in puzzle.sets.iter().enumerate() {
            let mut want: HashMap<u16, usize> = HashMap::new();
            for &l in &puzzle.solved.sets[k].perm {
                *want.entry(l).or_default() += 1;
            }
            let mut seen: HashMap<u16, Vec<usize>> = HashMap::new();
            for (pos, &l) in state.sets[k].perm.iter().enumerate() {
                let places = seen.entry(l).or_default();
                places.push(pos);
                if places.len() > want[&l] {
                    return Err(Problem::Duplicate {
                        kind: kind_of(set),
                        colours: name(k, l as usize),
                        at: places.iter().map(|&p| at(k, p)).collect(),
                    });
                }
            }
        }
        if let Some(g) = group {
            if let Verdict::Unreachable(r) = g.check(&state) {
                return Err(Problem::Unreachable(explain(puzzle, &state, &r, &name)));
            }
        }
        Ok(state)
    }

    /// Why no piece shows these faces.
    fn why_not(&self, faces: &[char], shown: &[char]) -> String {
        for (i, a) in shown.iter().enumerate() {
            if shown[i + 1..].contains(a) {
                return format!("two of its stickers are {a}");
            }
        }
        for (i, &a) in faces.iter().enumerate() {
            for (j, &b) in faces.iter().enumerate().skip(i + 1) {
                if !self.together.contains(&(a, b)) {
                    return format!(
                        "{} and {} are on opposite faces, never on one piece",
                        shown[i], shown[j]
                    );
                }
            }
        }
        "its colours go round the wrong way (a mirror image of a real piece)".to_string()
    }
}

/// The group's reason, with the pieces it is about named by their colours where one
/// twist, one flip or one swap explains it.
fn explain(
    puzzle: &Puzzle,
    state: &State,
    reason: &Reason,
    name: &dyn Fn(usize, usize) -> String,
) -> String {
    let solved = &puzzle.solved;
    match reason {
        Reason::OrientationSum { part, .. } => {
            for (k, set) in puzzle.sets.iter().enumerate() {
                if !part.starts_with(&set.name) {
                    continue;
                }
                let twisted: Vec<usize> = (0..set.size)
                    .filter(|&p| state.sets[k].ori[p] != solved.sets[k].ori[p])
                    .collect();
                if let [p] = twisted[..] {
                    let verb = if set.orientations == 2 {
                        "flipped"
                    } else {
                        "twisted"
                    };
                    return format!(
                        "the {} {} is {verb} ({reason})",
                        kind_of(set),
                        name(k, state.sets[k].perm[p] as usize)
                    );
                }
            }
            reason.to_string()
        }
        Reason::TwistedInPlace { position, .. } => {
            for (k, set) in puzzle.sets.iter().enumerate() {
                if reason.to_string().contains(&set.name) {
                    let label = state.sets[k].perm[position - 1] as usize;
                    return format!(
                        "the {} {} is twisted ({reason})",
                        kind_of(set),
                        name(k, label)
                    );
                }
            }
            reason.to_string()
        }
        Reason::Parity { .. } => {
            for (k, set) in puzzle.sets.iter().enumerate() {
                let off: Vec<usize> = (0..set.size)
                    .filter(|&p| state.sets[k].perm[p] != solved.sets[k].perm[p])
                    .collect();
                if let [a, b] = off[..] {
                    return format!(
                        "the {}s {} and {} are swapped ({reason})",
                        kind_of(set),
                        name(k, state.sets[k].perm[a] as usize),
                        name(k, state.sets[k].perm[b] as usize)
                    );
                }
            }
            reason.to_string()
        }
        _ => reason.to_string(),
    }
}
