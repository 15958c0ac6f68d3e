//! Writing puzzles and positions back out: a definition file that reads back to an equal
//! [`Puzzle`], and ksolve+'s printing of a position.

use crate::puzzle::board::Tile;
use crate::puzzle::{Puzzle, SetState, State};
use std::fmt::Write;

fn join<T: ToString>(v: impl IntoIterator<Item = T>) -> String {
    v.into_iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn perm_line(s: &SetState) -> String {
    join(s.perm.iter().map(|&p| p as u32 + 1))
}

/// A condition as `POS LABELS` (1-based, labels joined by commas).
fn cond_words(c: &crate::puzzle::Cond) -> String {
    let labels: Vec<String> = c
        .labels
        .iter()
        .map(|&l| (l as u32 + 1).to_string())
        .collect();
    format!("{} {}", c.pos + 1, labels.join(","))
}

/// A definition file for `puzzle`. Parsing it gives back an equal puzzle: moves are
/// written in file form (orientation by source position), and a one-orientation set
/// gets a `1` wherever the move "twists" a piece, which keeps its Block behaviour.
pub fn write_def(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    if let Some(name) = &puzzle.name {
        let _ = writeln!(out, "Name {name}\n");
    }
    for set in &puzzle.sets {
        let _ = writeln!(out, "Set {} {} {}", set.name, set.size, set.orientations);
    }
    out.push_str("\nSolved\n");
    for (k, (set, s)) in puzzle.sets.iter().zip(&puzzle.solved.sets).enumerate() {
        // A free position of a goal that is a set is written `?N`.
        let free = |i: usize| puzzle.free.get(k).is_some_and(|f| f[i]);
        let perm: Vec<String> = s
            .perm
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("{}{}", if free(i) { "?" } else { "" }, p as u32 + 1))
            .collect();
        // An orientation known only modulo a divisor is written `O%M`, a free one `?`.
        let n = set.orientations.max(1);
        let ori: Vec<String> = s
            .ori
            .iter()
            .enumerate()
            .map(|(i, &o)| match puzzle.ori_modulus(k, i) {
                _ if puzzle.ori_free(k, i) => "?".to_string(),
                m if m < n => format!("{o}%{m}"),
                _ => o.to_string(),
            })
            .collect();
        let _ = writeln!(out, "{}\n{}\n{}", set.name, perm.join(" "), ori.join(" "));
    }
    for r in &puzzle.rules {
        let then = match &r.then {
            Some(t) => cond_words(t),
            None => "never".to_string(),
        };
        let name = &puzzle.sets[r.when.set].name;
        let _ = writeln!(out, "Require {name} {} {then}", cond_words(&r.when));
    }
    out.push_str("End\n");
    for (b, m) in puzzle.base_moves.iter().enumerate() {
        let noinverse = if m.directed { " noinverse" } else { "" };
        let _ = writeln!(out, "\nMove {}{noinverse}", m.name);
        if let Some(Some(g)) = puzzle.guards.get(b) {
            for c in &g.conds {
                let name = &puzzle.sets[c.set].name;
                let _ = writeln!(out, "When {name} {}", cond_words(c));
            }
        }
        let file_form = m.effect.to_ksolve();
        for (k, set) in puzzle.sets.iter().enumerate() {
            let touched = &m.touched[k];
            if !touched.iter().any(|&t| t) {
                continue;
            }
            let s = &file_form.sets[k];
            let ori: Vec<u8> = if set.orientations <= 1 {
                touched.iter().map(|&t| u8::from(t)).collect()
            } else {
                s.ori.clone()
            };
            let _ = writeln!(out, "{}\n{}\n{}", set.name, perm_line(s), join(&ori));
        }
        out.push_str("End\n");
    }
    // Aliases (twsearch's `MoveAlias`, a KPuzzle's derived moves that equal a move)
    // as given; reading them brings their powers back.
    let roots = puzzle.alias_roots();
    if !roots.is_empty() {
        out.push('\n');
        for (name, id) in roots {
            let _ = writeln!(out, "MoveAlias {name} {}", puzzle.mv(id).name);
        }
    }
    // Our `SearchMoves`, when the definition leaves some moves out of searches.
    if puzzle.unsearched().next().is_some() {
        let names: Vec<&str> = (0..puzzle.base_moves.len())
            .filter(|&b| puzzle.searched[b])
            .map(|b| puzzle.base_moves[b].name.as_str())
            .collect();
        let _ = writeln!(out, "\nSearchMoves {}", names.join(" "));
    }
    let ignored: Vec<usize> = (0..puzzle.sets.len())
        .filter(|&k| puzzle.ignore[k].any())
        .collect();
    if !ignored.is_empty() {
        out.push_str("\nIgnore\n");
        for k in ignored {
            let m = &puzzle.ignore[k];
            let _ = writeln!(
                out,
                "{}\n{}\n{}",
                puzzle.sets[k].name,
                join(m.perm.iter().map(|&b| u8::from(b))),
                join(m.ori.iter().map(|&b| u8::from(b)))
            );
        }
        out.push_str("End\n");
    }
    for block in &puzzle.blocks {
        out.push_str("\nBlock\n");
        // Pieces are kept set by set in the order given, which is how they were read.
        let mut i = 0;
        while i < block.pieces.len() {
            let set = block.pieces[i].0;
            let mut labels = Vec::new();
            while i < block.pieces.len() && block.pieces[i].0 == set {
                labels.push(block.pieces[i].1 as u32 + 1);
                i += 1;
            }
            let _ = writeln!(out, "{}\n{}", puzzle.sets[set].name, join(labels));
        }
        out.push_str("End\n");
    }
    let n = puzzle.moves.len();
    let pairs: Vec<(usize, usize)> = (0..n * n)
        .filter(|&i| puzzle.forbidden[i])
        .map(|i| (i / n, i % n))
        .collect();
    if !pairs.is_empty() {
        out.push_str("\nForbiddenPairs\n");
        for (a, b) in pairs {
            let _ = writeln!(out, "{} {}", puzzle.moves[a].name, puzzle.moves[b].name);
        }
        out.push_str("End\n");
    }
    if let Some(map) = &puzzle.stickers {
        out.push_str("\nStickers\n");
        for st in &map.stickers {
            let _ = match st.piece {
                Some(s) => writeln!(
                    out,
                    "{} {} {} {} {} {}",
                    st.face,
                    st.row,
                    st.col,
                    puzzle.sets[s.set].name,
                    s.pos + 1,
                    s.slot
                ),
                None => writeln!(out, "{} {} {} -", st.face, st.row, st.col),
            };
        }
        for (face, [r, g, b]) in &map.face_colours {
            let _ = writeln!(out, "Colour {face} #{r:02x}{g:02x}{b:02x}");
        }
        out.push_str("End\n");
    }
    if let Some(board) = &puzzle.board {
        let _ = writeln!(
            out,
            "\nBoard {} {} {}",
            puzzle.sets[board.set].name, board.columns, board.rows
        );
        if !board.tiles.is_empty() {
            let words = board.tiles.iter().map(|t| match t {
                Tile::Empty => ".".to_string(),
                Tile::Plain => "-".to_string(),
                Tile::Text(text) => text.clone(),
            });
            let _ = writeln!(out, "Tiles {}", words.collect::<Vec<_>>().join(" "));
        }
        for j in &board.joins {
            let _ = writeln!(
                out,
                "Join {} {} {}",
                j.first + 1,
                j.second + 1,
                j.side.word()
            );
        }
        out.push_str("End\n");
    }
    if puzzle.has_weights() {
        out.push_str("\nMoveCosts\n");
        for m in puzzle.moves.iter().filter(|m| m.weight != 1) {
            let _ = writeln!(out, "{} {}", m.name, m.weight);
        }
        out.push_str("End\n");
    }
    out
}

/// ksolve+'s printing of a position: per set, in alphabetical order of set names, the
/// name, the permutation (1-based) and the orientation, each on its own line.
pub fn format_state(puzzle: &Puzzle, state: &State) -> String {
    let mut order: Vec<usize> = (0..puzzle.sets.len()).collect();
    order.sort_by(|&a, &b| puzzle.sets[a].name.cmp(&puzzle.sets[b].name));
    let mut out = String::new();
    for k in order {
        let s = &state.sets[k];
        let _ = writeln!(
            out,
            "{}\n{}\n{}",
            puzzle.sets[k].name,
            perm_line(s),
            join(&s.ori)
        );
    }
    out
}
