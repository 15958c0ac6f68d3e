//! Pictures of a [`Board`]: text in box-drawing characters and SVG. A wall is drawn
//! between two neighbouring cells unless both are empty or a [`Board::joined`] pair
//! makes them one piece, so a Klotski bar is one block and the free space one gap; the
//! frame is always drawn. Both forms take the labels the board's set shows, cell by
//! cell, and return a string.

use crate::puzzle::board::{Board, Side, Tile};
use std::fmt::Write;

/// The board's cells with the labels a state shows, and the walls between them.
struct Grid<'a> {
    board: &'a Board,
    labels: &'a [u16],
    tiles: Vec<Tile>,
}

impl<'a> Grid<'a> {
    fn new(board: &'a Board, labels: &'a [u16]) -> Grid<'a> {
        let tiles = labels.iter().map(|&l| board.tile(l)).collect();
        Grid {
            board,
            labels,
            tiles,
        }
    }

    fn rows(&self) -> usize {
        self.board.rows as usize
    }

    fn cols(&self) -> usize {
        self.board.columns as usize
    }

    fn cell(&self, r: usize, c: usize) -> usize {
        r * self.cols() + c
    }

    /// Whether a wall separates cell `a` from its neighbour `b` on `side`.
    fn wall(&self, a: usize, b: usize, side: Side) -> bool {
        let empty = |i: usize| self.tiles[i] == Tile::Empty;
        !(empty(a) && empty(b) || self.board.joined(self.labels[a], self.labels[b], side))
    }

    /// Whether the vertical segment left of cell column `c` in row `r` is a wall
    /// (`c` may be the number of columns: the frame's right side).
    fn vertical(&self, r: usize, c: usize) -> bool {
        c == 0 || c == self.cols() || self.wall(self.cell(r, c - 1), self.cell(r, c), Side::Right)
    }

    /// Whether the horizontal segment above cell row `r` in column `c` is a wall.
    fn horizontal(&self, r: usize, c: usize) -> bool {
        r == 0 || r == self.rows() || self.wall(self.cell(r - 1, c), self.cell(r, c), Side::Down)
    }

    /// Whether every cell of `cells` shows a plain tile, so the gap between them is
    /// shaded as the tiles are.
    fn plain(&self, cells: &[usize]) -> bool {
        cells.iter().all(|&i| self.tiles[i] == Tile::Plain)
    }
}

/// The shading of a plain tile, which has no text to show it is there.
const SHADE: char = '░';

/// The board as text: one line per row of cells and one per row of walls.
pub fn text(board: &Board, labels: &[u16]) -> String {
    let g = Grid::new(board, labels);
    let width = g
        .tiles
        .iter()
        .map(|t| match t {
            Tile::Text(s) => s.chars().count(),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
        + 2;
    let (rows, cols) = (g.rows(), g.cols());
    let mut out = String::new();
    for i in 0..=rows {
        // The line of walls above row `i` (below the last row when `i == rows`).
        for j in 0..=cols {
            let up = i > 0 && g.vertical(i - 1, j);
            let down = i < rows && g.vertical(i, j);
            let left = j > 0 && g.horizontal(i, j - 1);
            let right = j < cols && g.horizontal(i, j);
            let inside = i > 0 && i < rows && j > 0 && j < cols;
            let corner = junction(up, down, left, right);
            out.push(match corner {
                ' ' if inside
                    && g.plain(&[
                        g.cell(i - 1, j - 1),
                        g.cell(i - 1, j),
                        g.cell(i, j - 1),
                        g.cell(i, j),
                    ]) =>
                {
                    SHADE
                }
                c => c,
            });
            if j < cols {
                let fill = if right {
                    '─'
                } else if i > 0 && i < rows && g.plain(&[g.cell(i - 1, j), g.cell(i, j)]) {
                    SHADE
                } else {
                    ' '
                };
                out.extend(std::iter::repeat_n(fill, width));
            }
        }
        trim_push(&mut out);
        if i == rows {
            break;
        }
        for j in 0..=cols {
            let wall = g.vertical(i, j);
            out.push(if wall {
                '│'
            } else if g.plain(&[g.cell(i, j - 1), g.cell(i, j)]) {
                SHADE
            } else {
                ' '
            });
            if j < cols {
                let _ = match &g.tiles[g.cell(i, j)] {
                    Tile::Empty => write!(out, "{:width$}", ""),
                    Tile::Plain => write!(out, "{}", SHADE.to_string().repeat(width)),
                    // Right-aligned, so that numbers line up as on a printed board.
                    Tile::Text(s) => write!(out, "{s:>0$} ", width - 1),
                };
            }
        }
        trim_push(&mut out);
    }
    out
}

/// Ends the line being written: its trailing blanks dropped, a newline added.
fn trim_push(out: &mut String) {
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
    out.push('\n');
}

/// The box-drawing character where walls meet, by which of the four directions have
/// a wall.
fn junction(up: bool, down: bool, left: bool, right: bool) -> char {
    match (up, down, left, right) {
        (false, false, false, false) => ' ',
        (true, true, false, false) => '│',
        (false, false, true, true) => '─',
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        (true, true, true, true) => '┼',
        (true, false, false, false) => '╵',
        (false, true, false, false) => '╷',
        (false, false, true, false) => '╴',
        (false, false, false, true) => '╶',
    }
}

/// The size of a cell in the SVG, in pixels, and the frame around the board.
pub const CELL: usize = 40;
pub const MARGIN: usize = 4;
/// The colours of the SVG: the board (seen through empty cells), a tile, a wall.
pub const BOARD_RGB: (u8, u8, u8) = (0xd8, 0xd8, 0xd8);
pub const TILE_RGB: (u8, u8, u8) = (0xf0, 0xc0, 0x60);
const WALL: &str = "#303030";

/// The board as an SVG picture: each piece's cells filled without seams, the walls as
/// lines over them, and each tile's text in its cell.
pub fn svg(board: &Board, labels: &[u16]) -> String {
    let g = Grid::new(board, labels);
    let (rows, cols) = (g.rows(), g.cols());
    let (w, h) = (cols * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN);
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    let _ = writeln!(
        out,
        "  <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        cols * CELL,
        rows * CELL,
        hex(BOARD_RGB)
    );
    let at = |r: usize, c: usize| (MARGIN + c * CELL, MARGIN + r * CELL);
    for r in 0..rows {
        for c in 0..cols {
            let tile = &g.tiles[g.cell(r, c)];
            if *tile == Tile::Empty {
                continue;
            }
            let (x, y) = at(r, c);
            let _ = writeln!(
                out,
                "  <rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
                hex(TILE_RGB)
            );
            if let Tile::Text(s) = tile {
                let _ = writeln!(
                    out,
                    "  <text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"18\" text-anchor=\"middle\" fill=\"#000\">{}</text>",
                    x + CELL / 2,
                    y + CELL / 2 + 6,
                    escape(s)
                );
            }
        }
    }
    let line = |out: &mut String, (x1, y1): (usize, usize), (x2, y2): (usize, usize)| {
        let _ = writeln!(
            out,
            "  <line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{WALL}\" stroke-width=\"3\" stroke-linecap=\"square\"/>"
        );
    };
    for r in 0..rows {
        for c in 0..=cols {
            if g.vertical(r, c) {
                line(&mut out, at(r, c), at(r + 1, c));
            }
        }
    }
    for r in 0..=rows {
        for c in 0..cols {
            if g.horizontal(r, c) {
                line(&mut out, at(r, c), at(r, c + 1));
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Text made safe inside an SVG element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
