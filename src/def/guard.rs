//! Reading our sliding-block extension: `When` lines in a `Move` (the move's guard) and
//! `Require` lines in `Solved` (which positions are well formed).
//!
//! ```text
//! When SET POS LABELS [POS LABELS]...     every POS holds one of its LABELS
//! Require SET POS LABELS POS LABELS       if the first holds, so does the second
//! Require SET POS LABELS never            the first never holds
//! ```
//!
//! Positions and labels are numbered as the block's vectors are (from 1, or from 0 in
//! twsearch's blocks); `LABELS` is one number or several joined by commas (`1,3`).
//!
//! Once the puzzle is assembled, [`check_goal`] refuses a goal the rules leave without a
//! position: every search and count starts from the goal's positions, and with none a
//! random scramble has nothing to draw from and a table counts nothing.

use super::lex::{entry, Entry, Line, Source};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{Cond, Guard, Puzzle, Rule, SetDef};
use std::collections::HashMap;

fn invalid(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Invalid(msg.into())
}

/// What the lines need to know about the definition so far.
pub(crate) struct Ctx<'a> {
    pub src: &'a Source,
    pub sets: &'a [SetDef],
    pub set_names: &'a HashMap<String, usize>,
    /// The number of the first position and label (1, or 0 for twsearch's blocks).
    pub first: u64,
}

impl Ctx<'_> {
    /// Word `t` of `line` as a position of `set`, 0-based.
    fn position(&self, line: &Line, t: usize, set: &SetDef) -> Result<usize, DefError> {
        let last = set.size as u64 - 1 + self.first;
        let Some(tok) = line.toks.get(t) else {
            return Err(self.src.err(
                line,
                t,
                invalid(format!(
                    "a missing position: expected a position of set `{}` from {} to {last}",
                    set.name, self.first
                )),
            ));
        };
        match entry(&tok.s) {
            Ok(Entry::Num(v)) if v >= self.first && v <= last => Ok((v - self.first) as usize),
            _ => Err(self.src.err(
                line,
                t,
                invalid(format!(
                    "`{}` is not a position of set `{}`: expected a number from {} to {last}",
                    tok.s, set.name, self.first
                )),
            )),
        }
    }

    /// Word `t` of `line` as a comma-separated list of labels of `set`, 0-based and
    /// sorted.
    fn labels(&self, line: &Line, t: usize, set: &SetDef) -> Result<Vec<u16>, DefError> {
        let last = set.size as u64 - 1 + self.first;
        let expected = format!(
            "one label of set `{}` from {} to {last}, or several joined by commas (`1,3`)",
            set.name, self.first
        );
        let Some(tok) = line.toks.get(t) else {
            return Err(self.src.err(
                line,
                t,
                invalid(format!("missing labels: expected {expected}")),
            ));
        };
        let mut out = Vec::new();
        for part in tok.s.split(',') {
            match entry(part) {
                Ok(Entry::Num(v)) if v >= self.first && v <= last => {
                    out.push((v - self.first) as u16)
                }
                _ => {
                    return Err(self.src.err(
                        line,
                        t,
                        invalid(format!(
                            "`{part}` in `{}` is not a label: expected {expected}",
                            tok.s
                        )),
                    ))
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The set named by word 1.
    fn set(&self, line: &Line) -> Result<usize, DefError> {
        if line.toks.len() < 2 {
            return Err(self.src.err(
                line,
                1,
                invalid("a missing set name: expected `SET POS LABELS ...`"),
            ));
        }
        let name = &line.toks[1].s;
        self.set_names.get(name).copied().ok_or_else(|| {
            self.src.err(
                line,
                1,
                ErrorKind::UnknownSet {
                    found: name.clone(),
                    known: super::names::known_sets(self.sets),
                },
            )
        })
    }

    /// The condition at words `t` (position) and `t + 1` (labels).
    fn cond(&self, line: &Line, k: usize, t: usize) -> Result<Cond, DefError> {
        let set = &self.sets[k];
        Ok(Cond {
            set: k,
            pos: self.position(line, t, set)?,
            labels: self.labels(line, t + 1, set)?,
        })
    }

    /// Reads the `When` lines of one move into its guard; `None` when there are none.
    pub(crate) fn guard(&self, lines: &[Line]) -> Result<Option<Guard>, DefError> {
        let mut conds: Vec<Cond> = Vec::new();
        for line in lines {
            let k = self.set(line)?;
            if line.toks.len() < 4 || line.toks.len() % 2 != 0 {
                let at = line.toks.len().max(3);
                return Err(self.src.err(
                    line,
                    at,
                    invalid(format!(
                        "`When` needs pairs of a position and its labels after the set name: expected `When {} POS LABELS [POS LABELS]...`",
                        line.toks[1].s
                    )),
                ));
            }
            for t in (2..line.toks.len()).step_by(2) {
                let c = self.cond(line, k, t)?;
                if conds.iter().any(|d| d.set == c.set && d.pos == c.pos) {
                    return Err(self.src.err(
                        line,
                        t,
                        invalid(format!(
                            "position {} of set `{}` is already in this move's conditions: expected each position once (list every allowed label there, joined by commas)",
                            line.toks[t].s, self.sets[k].name
                        )),
                    ));
                }
                conds.push(c);
            }
        }
        Ok((!conds.is_empty()).then_some(Guard { conds }))
    }

    /// Reads the `Require` lines of `Solved`.
    pub(crate) fn rules(&self, lines: &[Line]) -> Result<Vec<Rule>, DefError> {
        let mut out = Vec::new();
        for line in lines {
            let k = self.set(line)?;
            let when = self.cond(line, k, 2)?;
            let then = match line.toks.get(4).map(|t| t.s.as_str()) {
                Some("never") if line.toks.len() == 5 => None,
                Some(_) if line.toks.len() == 6 => Some(self.cond(line, k, 4)?),
                _ => {
                    return Err(self.src.err(
                        line,
                        if line.toks.len() > 6 { 6 } else { 4 },
                        invalid(format!(
                            "`Require` needs a condition and what follows from it: expected `Require {} POS LABELS POS LABELS` or `Require {} POS LABELS never`",
                            line.toks[1].s, line.toks[1].s
                        )),
                    ))
                }
            };
            out.push(Rule { when, then });
        }
        Ok(out)
    }
}

/// Refuses a goal that the `Require` rules leave without a position: a rule broken by
/// positions of `Solved` that are fixed (not `?`) is named at its line; otherwise, when
/// no filling of the free positions keeps every rule, the `Solved` line is, with the
/// rules' lines. `rule_lines` are the `Require` lines, one per rule of `puzzle`.
pub(crate) fn check_goal(
    src: &Source,
    puzzle: &Puzzle,
    solved: &Line,
    rule_lines: &[Line],
) -> Result<(), DefError> {
    if puzzle.rules.is_empty() {
        return Ok(());
    }
    let fixed = |c: &Cond| !puzzle.free.get(c.set).is_some_and(|f| f[c.pos]);
    for (rule, line) in puzzle.rules.iter().zip(rule_lines) {
        if fixed(&rule.when) && rule.then.as_ref().is_none_or(fixed) && !rule.holds(&puzzle.solved)
        {
            return Err(src.err(
                line,
                0,
                invalid(
                    "the positions of `Solved` without `?` break this rule, so no goal \
                     position keeps it: expected a `Solved` state that keeps every \
                     `Require` rule",
                ),
            ));
        }
    }
    if puzzle.goal_is_set() && puzzle.goal_positions(1).is_some_and(|g| g.is_empty()) {
        return Err(src.err(
            solved,
            0,
            invalid(format!(
                "no filling of the free positions (`?`) keeps the `Require` rules (line{} \
                 {}): expected rules that leave the goal at least one position",
                if rule_lines.len() == 1 { "" } else { "s" },
                line_ranges(rule_lines.iter().map(|l| l.no))
            )),
        ));
    }
    Ok(())
}

/// Line numbers, ascending, with runs written as ranges: `3, 5-9, 12`.
fn line_ranges(lines: impl Iterator<Item = usize>) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for n in lines {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_ranges_join_runs() {
        let r = |v: &[usize]| super::line_ranges(v.iter().copied());
        assert_eq!(r(&[3, 5, 6, 7, 8, 9, 12]), "3, 5-9, 12");
        assert_eq!(r(&[4]), "4");
        assert_eq!(r(&[]), "");
    }
}
