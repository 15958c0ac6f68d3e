//! Why a position cannot be reached, in words a user can act on. Positions and piece
//! labels are 1-based, as in definition files.

use std::fmt;

/// A label whose number of copies in a position differs from the solved state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceCount {
    /// The 1-based label.
    pub piece: usize,
    pub found: u32,
    pub expected: u32,
}

/// The reason a position is not reachable from the solved state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The position does not have the puzzle's sets and sizes.
    Malformed(String),
    /// An orientation value is not below the set's orientation count.
    OrientationRange {
        set: String,
        position: usize,
        value: u8,
        orientations: u8,
    },
    /// Pieces missing, repeated, or unknown to the puzzle.
    PieceCounts {
        set: String,
        problems: Vec<PieceCount>,
    },
    /// A piece sits at a position no sequence of moves brings it to.
    OutOfOrbit {
        set: String,
        position: usize,
        piece: usize,
    },
    /// A piece sits where it can go, but with an orientation it can never have there.
    TwistedInPlace {
        set: String,
        position: usize,
        piece: usize,
    },
    /// Orientations sum to the wrong value modulo what the moves preserve.
    OrientationSum {
        /// The set, or the set and the positions the sum runs over.
        part: String,
        sum: u64,
        modulus: u64,
        expected: u64,
    },
    /// The permutation parities of these parts add up to odd (relative to the solved
    /// state), while every move keeps their sum even.
    Parity { parts: Vec<String> },
    /// Each orientation sum and parity is possible on its own but not in combination.
    SumsAndParities,
    /// No invariant with a simple name is broken; the position is still outside the
    /// group the moves generate.
    NotInGroup,
}

fn times(n: u32) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

fn and_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last),
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Malformed(what) => write!(f, "the position does not fit the puzzle: {what}"),
            Reason::OrientationRange {
                set,
                position,
                value,
                orientations,
            } => write!(
                f,
                "position {position} of {set} has orientation {value}, but {set} pieces have \
                 only {orientations} orientation{}",
                if *orientations == 1 { "" } else { "s" }
            ),
            Reason::PieceCounts { set, problems } => {
                let words: Vec<String> = problems
                    .iter()
                    .map(|p| match (p.found, p.expected) {
                        (_, 0) => {
                            format!("piece {} of {set} does not exist in this puzzle", p.piece)
                        }
                        (0, _) => format!("piece {} of {set} is missing", p.piece),
                        (found, 1) => {
                            format!("piece {} of {set} appears {}", p.piece, times(found))
                        }
                        (found, expected) => format!(
                            "piece {} of {set} appears {} where the solved position has it {}",
                            p.piece,
                            times(found),
                            times(expected)
                        ),
                    })
                    .collect();
                write!(f, "{}", and_list(&words))
            }
            Reason::OutOfOrbit {
                set,
                position,
                piece,
            } => write!(
                f,
                "piece {piece} of {set} is at position {position}, where no sequence of moves \
                 can bring it"
            ),
            Reason::TwistedInPlace {
                set,
                position,
                piece,
            } => write!(
                f,
                "piece {piece} of {set} at position {position} is twisted in a way no sequence \
                 of moves can twist it there"
            ),
            Reason::OrientationSum {
                part,
                sum,
                modulus,
                expected,
            } => write!(
                f,
                "{part} orientation sums to {sum} (mod {modulus}); a reachable position sums \
                 to {expected}"
            ),
            Reason::Parity { parts } => match parts.as_slice() {
                [one] => write!(
                    f,
                    "the {one} permutation is odd; in a reachable position it is even"
                ),
                [a, b] => write!(
                    f,
                    "{a} and {b} permutation parities differ; in a reachable position they are \
                     equal"
                ),
                _ => write!(
                    f,
                    "the permutation parities of {} add up to odd; in a reachable position they \
                     add up to even",
                    and_list(parts)
                ),
            },
            Reason::SumsAndParities => write!(
                f,
                "its orientation sums and permutation parities do not fit together as in any \
                 reachable position"
            ),
            Reason::NotInGroup => write!(f, "it is not in the group generated by the moves"),
        }
    }
}
