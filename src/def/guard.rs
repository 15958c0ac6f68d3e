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

use super::lex::{entry, Entry, Line, Source};
use crate::located::{DefError, ErrorKind};
use crate::puzzle::{Cond, Guard, Rule, SetDef};
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
