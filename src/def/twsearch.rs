//! twsearch's definition-level additions to the ksolve+ format: `MoveSequence` (a move
//! defined as a sequence of other moves) and `MoveAlias` (another name for a move).
//!
//! twsearch reads both as one-line commands anywhere after `Solved`, and expands them
//! once every `Move` is known, in whatever order their references allow: a sequence may
//! use a later sequence or an alias, and an alias may name a sequence's power. We do
//! the same. A sequence becomes a base move like any other (with its powers), so it is
//! searched; an alias is only another name, accepted in scrambles, `ForbiddenPairs`
//! and `MoveLimits` but never searched as a move of its own, as in twsearch.
//!
//! The other twsearch constructs are handled where they are read: `StartState` and
//! `MoveTransformation` are `Solved` and `Move` numbered from 0 (`definition`), and
//! `Illegal` is refused by name (`syntax`), since nothing in ksolve tests positions for
//! legality.

use super::lex::{Line, Source};
use super::{MAX_MOVES, MAX_MOVE_ENTRIES};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{order, power_name, Puzzle, SetDef, Transform};
use std::collections::HashMap;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// The number of the first piece in a block opened by `line`: twsearch's
/// `StartState`, `MoveTransformation` and `ScrambleState` count from 0 like cubing.js,
/// ksolve+'s blocks from 1.
pub(crate) fn first_piece(line: &Line) -> u64 {
    match line.first() {
        "StartState" | "MoveTransformation" | "ScrambleState" => 0,
        _ => 1,
    }
}

/// An alias waiting for the final puzzle: its name, the move it names, and its line.
pub(crate) struct Alias {
    name: String,
    target: String,
    line: Line,
}

/// What a name stands for while derived moves are expanded: its effect (destination-
/// indexed) and whether it only turns one way (then it has no powers).
struct Named {
    effect: Transform,
    directed: bool,
}

/// The words of a `MoveSequence` after its name, with their columns. twsearch also
/// separates moves with commas, so `R,U` is two moves.
fn sequence_words(line: &Line) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for tok in &line.toks[2..] {
        let mut col = tok.col;
        for part in tok.s.split(',') {
            if !part.is_empty() {
                out.push((part.to_string(), col));
            }
            col += part.chars().count() + 1;
        }
    }
    out
}

/// The expansion state: every name known so far (moves, their powers, finished
/// aliases and sequences).
struct Expander<'a> {
    src: &'a Source,
    sets: &'a [SetDef],
    names: HashMap<String, Named>,
    /// Where each name was defined, for the "defined twice" message.
    defined_at: HashMap<String, usize>,
}

impl Expander<'_> {
    /// Adds `name` and, unless directed, its powers `name2`, `name'`, ... .
    fn add(&mut self, name: &str, effect: Transform, directed: bool, at: usize) {
        let k = order(&effect, self.sets);
        let last = if directed {
            1
        } else {
            k.saturating_sub(1).max(1)
        };
        let mut acc = effect.clone();
        for j in 1..=last {
            let n = if directed {
                name.to_string()
            } else {
                power_name(name, j, k)
            };
            let next = acc.then(&effect, self.sets);
            self.defined_at.entry(n.clone()).or_insert(at);
            self.names.entry(n).or_insert(Named {
                effect: acc,
                directed,
            });
            acc = next;
        }
    }

    /// Refuses a derived name that is already taken.
    fn check_new(&self, line: &Line) -> Result<(), DefError> {
        let name = &line.toks[1].s;
        match self.defined_at.get(name) {
            Some(at) => Err(self.src.err(
                line,
                1,
                invalid(format!(
                    "move `{name}` is defined twice (first at line {at}, as a move or a power of one): expected each move name once"
                )),
            )),
            None => Ok(()),
        }
    }

    /// The composed effect of a sequence's words, or the first word not known yet.
    fn compose(&self, words: &[(String, usize)]) -> Result<Transform, usize> {
        let mut acc = Transform::identity(self.sets);
        for (i, (w, _)) in words.iter().enumerate() {
            match self.names.get(w) {
                Some(n) => acc = acc.then(&n.effect, self.sets),
                None => return Err(i),
            }
        }
        Ok(acc)
    }
}

/// Expands the `MoveAlias` and `MoveSequence` lines of a definition. Sequences are
/// appended to `base` (name, file form, directed flag) and their lines to `lines`;
/// `total_moves` counts moves with their powers against [`MAX_MOVES`]. Returns the
/// aliases, to be attached to the finished puzzle with [`attach_aliases`].
pub(crate) fn expand(
    src: &Source,
    sets: &[SetDef],
    positions: usize,
    total_moves: &mut usize,
    base: &mut Vec<(String, Transform, bool)>,
    lines: &mut Vec<Line>,
    derived: Vec<Line>,
) -> Result<Vec<Alias>, DefError> {
    let mut ex = Expander {
        src,
        sets,
        names: HashMap::new(),
        defined_at: HashMap::new(),
    };
    for ((name, file_form, directed), line) in base.iter().zip(lines.iter()) {
        ex.add(
            name,
            Transform::from_ksolve(sets, file_form),
            *directed,
            line.no,
        );
    }
    let mut aliases = Vec::new();
    let mut pending: Vec<(Line, Vec<(String, usize)>)> = derived
        .into_iter()
        .map(|line| {
            let words = if line.first() == "MoveAlias" {
                vec![(line.toks[2].s.clone(), line.toks[2].col)]
            } else {
                sequence_words(&line)
            };
            (line, words)
        })
        .collect();
    // Each round expands every definition whose words are all known; a round that
    // expands nothing leaves only unknown names or definitions that refer to each other.
    while !pending.is_empty() {
        let before = pending.len();
        let mut left = Vec::new();
        for (line, words) in pending {
            let effect = match ex.compose(&words) {
                Ok(e) => e,
                Err(_) => {
                    left.push((line, words));
                    continue;
                }
            };
            ex.check_new(&line)?;
            let name = line.toks[1].s.clone();
            if line.first() == "MoveAlias" {
                let directed = ex.names[&words[0].0].directed;
                ex.add(&name, effect, directed, line.no);
                aliases.push(Alias {
                    name,
                    target: words[0].0.clone(),
                    line,
                });
                continue;
            }
            if effect.is_identity() {
                return Err(src.err(
                    &line,
                    1,
                    invalid(format!(
                        "move sequence `{name}` changes nothing: expected moves that together move or twist some piece"
                    )),
                ));
            }
            let powers = order(&effect, sets).saturating_sub(1).max(1) as usize;
            let total = *total_moves + powers;
            if total > MAX_MOVES || total * positions > MAX_MOVE_ENTRIES {
                return Err(src.err(
                    &line,
                    1,
                    invalid(format!(
                        "move sequence `{name}` takes the number of moves with their powers to {total} over {positions} pieces: expected at most {MAX_MOVES} moves and {MAX_MOVE_ENTRIES} entries"
                    )),
                ));
            }
            *total_moves = total;
            ex.add(&name, effect.clone(), false, line.no);
            base.push((name, effect.to_ksolve(), false));
            lines.push(line);
        }
        if left.len() == before {
            let (line, words) = &left[0];
            let i = ex.compose(words).err().unwrap_or(0);
            let (word, col) = &words[i];
            let what = if line.first() == "MoveAlias" {
                "alias"
            } else {
                "move sequence"
            };
            return Err(src.err_col(
                line,
                *col,
                ErrorKind::UnknownMove {
                    found: word.clone(),
                    known: format!(
                        "in {what} `{}`; a name defined by a MoveAlias or MoveSequence that (perhaps through others) uses this one cannot be used here",
                        line.toks[1].s
                    ),
                },
            ));
        }
        pending = left;
    }
    Ok(aliases)
}

/// Gives the finished puzzle its aliases: each alias name, and its powers, name the
/// move of the same effect among the powers of the aliased move.
pub(crate) fn attach_aliases(
    src: &Source,
    puzzle: &mut Puzzle,
    aliases: Vec<Alias>,
) -> Result<(), DefError> {
    for alias in aliases {
        let Some(id) = puzzle.move_by_name(&alias.target) else {
            // `expand` resolved the target already; this arm only keeps the reader total.
            return Err(src.err(
                &alias.line,
                2,
                ErrorKind::UnknownMove {
                    found: alias.target.clone(),
                    known: "an alias names a move, a power or another alias".into(),
                },
            ));
        };
        let added = puzzle.alias_names(&alias.name, id);
        for (name, pid) in added {
            if puzzle.moves.iter().any(|m| m.name == name) {
                return Err(src.err(
                    &alias.line,
                    1,
                    invalid(format!(
                        "alias `{}` makes the name `{name}`, which a move already has: expected distinct names",
                        alias.name
                    )),
                ));
            }
            puzzle.aliases.push((name, pid));
        }
    }
    Ok(())
}
