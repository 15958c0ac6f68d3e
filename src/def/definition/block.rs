//! Reading of a definition's `Block` command: a group of pieces that a legal move moves
//! all or none of (bandaging). It is its own file because its checks (each set once,
//! piece numbers within their set, each piece once) share nothing with the reading of
//! positions and moves.

use super::Builder;
use crate::def::lex::{entry, Entry, EntryError, Line};
use crate::def::syntax::Section;
use crate::located::{DefError, ErrorKind};
use crate::puzzle::Block;

impl Builder<'_> {
    /// Reads one `Block ... End`: the pieces listed move as one.
    pub(super) fn block(&mut self, line: &Line, sections: &[Section]) -> Result<(), DefError> {
        self.close_sets(line);
        let src = self.src;
        let mut pieces = Vec::new();
        let mut seen_sets = vec![false; self.sets.len()];
        for sec in sections {
            let k = self.set_index(&sec.name)?;
            let set = &self.sets[k];
            if seen_sets[k] {
                return Err(src.err(
                    &sec.name,
                    0,
                    ErrorKind::DuplicateSet {
                        set: set.name.clone(),
                        within: "this Block".into(),
                    },
                ));
            }
            seen_sets[k] = true;
            let row = &sec.rows[0];
            let n = set.size as u64;
            let mut seen = vec![false; set.size];
            for t in 0..row.toks.len() {
                let x = match entry(&row.toks[t].s) {
                    Ok(Entry::Num(x)) => x,
                    Err(EntryError::TooLarge) => u64::MAX,
                    _ => {
                        return Err(src.err(
                            row,
                            t,
                            ErrorKind::BadBlock(format!(
                                "`{}` is not a piece number: expected numbers from 1 to {n} (pieces of set `{}`)",
                                row.toks[t].s, set.name
                            )),
                        ))
                    }
                };
                if x < 1 || x > n {
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::BadBlock(format!(
                            "piece {} is not in set `{}`: expected numbers from 1 to {n}",
                            row.toks[t].s, set.name
                        )),
                    ));
                }
                if seen[(x - 1) as usize] {
                    return Err(src.err(
                        row,
                        t,
                        ErrorKind::BadBlock(format!(
                            "piece {x} of set `{}` is listed twice: expected each piece once",
                            set.name
                        )),
                    ));
                }
                seen[(x - 1) as usize] = true;
                pieces.push((k, (x - 1) as u16));
            }
        }
        if pieces.len() < 2 {
            self.warn(
                line,
                "this Block joins fewer than two pieces, so it constrains nothing".into(),
            );
        }
        self.blocks.push(Block { pieces });
        Ok(())
    }
}
