//! Orientations the solved state knows only modulo a divisor: `?` (not known at all)
//! and `O%M` (orientation `O`, known modulo `M`) in a `Solved` orientation row, our
//! extension for KPuzzle's `orientationMod` where it differs within an orbit.
//!
//! Only this file reads the two forms; the rest of the reader sees plain orientations
//! (`?` reads as 0), and [`Puzzle::set_known_mod`] takes the moduli.
//!
//! [`Puzzle::set_known_mod`]: crate::puzzle::Puzzle::set_known_mod

use super::{invalid, number_in};
use crate::def::lex::{Line, Source};
use crate::located::DefError;
use crate::puzzle::modulo::MAX_MODULO_GOALS;
use crate::puzzle::SetDef;

/// One entry of a `Solved` orientation row: the orientation, and the modulus it is
/// known by (`n`, the set's count, where it is known exactly).
pub(super) fn solved_entry(
    src: &Source,
    line: &Line,
    t: usize,
    set: &SetDef,
) -> Result<(u8, u8), DefError> {
    let n = set.orientations.max(1);
    let word = &line.toks[t].s;
    let orientation = format!("an orientation from 0 to {}", n - 1);
    if word == "?" {
        return Ok((0, 1));
    }
    let Some((o, m)) = word.split_once('%') else {
        let o = number_in(src, line, t, 0, n as u64 - 1, &orientation)?;
        return Ok((o as u8, n));
    };
    let bad = |what: String| Err(src.err(line, t, invalid(what)));
    let (Ok(o), Ok(m)) = (o.parse::<u64>(), m.parse::<u64>()) else {
        return bad(format!(
            "`{word}` is not an orientation known modulo a divisor: expected `O%M` with O from 0 to {} and M dividing {n}",
            n - 1
        ));
    };
    if o >= n as u64 {
        return bad(format!(
            "`{word}`: orientation {o} is not one of set `{}`'s: expected {orientation}",
            set.name
        ));
    }
    if m == 0 || !(n as u64).is_multiple_of(m) {
        return bad(format!(
            "`{word}`: modulus {m} does not divide the {n} orientations of set `{}`: expected a divisor of {n}",
            set.name
        ));
    }
    Ok((o as u8, m as u8))
}

/// The orientations and moduli of a `Solved` orientation row.
pub(super) fn solved_row(
    src: &Source,
    line: &Line,
    set: &SetDef,
) -> Result<(Vec<u8>, Vec<u8>), DefError> {
    let mut ori = Vec::with_capacity(line.toks.len());
    let mut mods = Vec::with_capacity(line.toks.len());
    for t in 0..line.toks.len() {
        let (o, m) = solved_entry(src, line, t, set)?;
        ori.push(o);
        mods.push(m);
    }
    Ok((ori, mods))
}

/// Refuses moduli that make more than [`MAX_MODULO_GOALS`] goal positions (a free
/// twist is no position of its own: the goal leaves it unread).
pub(super) fn check_count(
    src: &Source,
    line: &Line,
    sets: &[SetDef],
    mods: &[Vec<u8>],
) -> Result<(), DefError> {
    let count = crate::puzzle::modulo::modulo_count(sets, mods);
    match count {
        Some(c) if c <= MAX_MODULO_GOALS => Ok(()),
        _ => Err(src.err(
            line,
            0,
            invalid(format!(
                "the orientations `Solved` knows modulo a divisor make more than {MAX_MODULO_GOALS} goal positions: expected fewer `O%M` entries (`?` makes none)"
            )),
        )),
    }
}
