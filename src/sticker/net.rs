//! The net of a puzzle whose faces are pentagons, unfolded from its sticker map alone:
//! the standard two-flower net of the Megaminx, in which every face is a regular
//! pentagon pointing up or down.
//!
//! A face is a pentagon when its stickers fill the eleven cells of the pattern the
//! definitions use (relative to the face's bounding box, point down: row 0 columns
//! 1, 2, 3; row 1 columns 0, 2, 4; row 2 columns 0, 4; row 3 columns 1, 2, 3; or that
//! pattern mirrored, point up): a centre with a ring of five corners and five edges
//! around it. Two faces are adjacent when they carry the two stickers of one edge piece.
//! The first face of the map goes in the middle of the first flower with its five
//! neighbours folded out across its sides; the face at distance three (the opposite
//! one) goes in the middle of the second flower with its own five neighbours, and the
//! second flower hangs on the first across one shared edge. Nothing here knows a
//! puzzle by name: any map that has this shape is drawn this way, and any other gives
//! `None` and keeps its grid picture.

use super::StickerMap;
use std::collections::HashMap;

/// A point of the net, in units of a face's circumradius, with `y` growing downwards
/// as on a screen (so growing angles turn clockwise).
pub type Point = (f64, f64);

/// The cells of a point-down face relative to its bounding box: the ring clockwise
/// from the top-left corner (corners at even places, edges at odd ones), then the
/// centre.
pub const DOWN_CELLS: [(usize, usize); 11] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 4),
    (2, 4),
    (3, 3),
    (3, 2),
    (3, 1),
    (2, 0),
    (1, 0),
    (1, 2),
];

/// The cells of a point-up face, the vertical mirror of [`DOWN_CELLS`]: the ring
/// clockwise from the top point (the mirror of the bottom point, read the other way
/// round, since a mirror turns clockwise into anticlockwise), then the centre.
pub const UP_CELLS: [(usize, usize); 11] = mirrored(DOWN_CELLS);

/// The cells of [`DOWN_CELLS`] upside down, with the ring read from the top point.
const fn mirrored(down: [(usize, usize); 11]) -> [(usize, usize); 11] {
    let mut up = [(0, 0); 11];
    let mut i = 0;
    while i < 11 {
        // Place 6 of the ring is the bottom point; the centre stays last.
        let (r, c) = if i < 10 {
            down[(16 - i) % 10]
        } else {
            down[10]
        };
        up[i] = (3 - r, c);
        i += 1;
    }
    up
}

/// The direction (degrees clockwise from the x axis) of the first corner of the
/// templates: the top-left corner of a point-down face, the top point of a point-up one.
const DOWN_START: f64 = 234.0;
const UP_START: f64 = 270.0;

/// The distance from a pentagon's centre to the middle of a side (its apothem).
fn apothem() -> f64 {
    36f64.to_radians().cos()
}

/// One face placed on the net.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFace {
    /// The face's letter.
    pub face: char,
    /// The stickers of its ring (indices into the map), clockwise as the net shows the
    /// face, corners at even places; edge `2k + 1` lies on the side from corner `2k`
    /// to corner `2k + 2`.
    pub ring: [usize; 10],
    /// The sticker of its centre.
    pub middle: usize,
    /// The centre of the pentagon.
    pub centre: Point,
    /// The direction of the first corner of the ring from the centre, in degrees.
    pub angle: f64,
}

impl NetFace {
    /// Corner `k` of the outline (the vertex under ring place `2k`).
    pub fn vertex(&self, k: usize) -> Point {
        let a = (self.angle + 72.0 * k as f64).to_radians();
        (self.centre.0 + a.cos(), self.centre.1 + a.sin())
    }

    /// The five corners of the outline, in ring order.
    pub fn outline(&self) -> [Point; 5] {
        std::array::from_fn(|k| self.vertex(k))
    }

    /// Whether the face points down (one corner straight below the centre); otherwise
    /// it points up, since every face of such a net is one or the other.
    pub fn points_down(&self) -> bool {
        turns(self.angle - DOWN_START).is_some()
    }

    /// The ring turned so that it starts at the first cell of the face's template
    /// ([`DOWN_CELLS`] or [`UP_CELLS`]): a fifth of a turn shifts the ring by two.
    pub fn template_ring(&self) -> [usize; 10] {
        let start = if self.points_down() {
            DOWN_START
        } else {
            UP_START
        };
        let k = turns(start - self.angle).unwrap_or(0);
        std::array::from_fn(|i| self.ring[(i + 2 * k) % 10])
    }
}

/// How many fifths of a turn `degrees` is (0 to 4), if it is a whole number of them.
fn turns(degrees: f64) -> Option<usize> {
    let fifths = degrees / 72.0;
    let whole = fifths.round();
    ((fifths - whole).abs() < 1e-6).then(|| whole.rem_euclid(5.0) as usize)
}

/// The unfolded net: every face of the map, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub faces: Vec<NetFace>,
}

impl Net {
    /// The two-flower net of the map, or `None` when its faces are not twelve pentagons
    /// joined as a dodecahedron's.
    pub fn unfold(map: &StickerMap) -> Option<Net> {
        let shapes = pentagons(map)?;
        let sides = neighbours(map, &shapes)?;
        let dist = distances(&sides)?;
        let start = if shapes[0].down { DOWN_START } else { UP_START };
        let mut best: Option<(Net, (f64, f64))> = None;
        for candidate in flowers(&shapes, &sides, &dist, start) {
            let (w, h) = candidate.size();
            let better = match &best {
                None => true,
                Some((_, (bw, bh))) => h < bh - 1e-6 || (h < bh + 1e-6 && w < bw - 1e-6),
            };
            if better && !candidate.overlaps() {
                best = Some((candidate, (w, h)));
            }
        }
        best.map(|(net, _)| net)
    }

    /// The smallest and largest coordinates of the faces' corners.
    pub fn bounds(&self) -> (Point, Point) {
        let mut lo = (f64::MAX, f64::MAX);
        let mut hi = (f64::MIN, f64::MIN);
        for p in self.faces.iter().flat_map(NetFace::outline) {
            lo = (lo.0.min(p.0), lo.1.min(p.1));
            hi = (hi.0.max(p.0), hi.1.max(p.1));
        }
        (lo, hi)
    }

    /// Width and height of the net.
    fn size(&self) -> (f64, f64) {
        let (lo, hi) = self.bounds();
        (hi.0 - lo.0, hi.1 - lo.1)
    }

    /// Whether two faces of the net overlap (touching along an edge is no overlap).
    pub fn overlaps(&self) -> bool {
        let outlines: Vec<[Point; 5]> = self.faces.iter().map(NetFace::outline).collect();
        (0..outlines.len()).any(|i| (0..i).any(|j| overlap(&outlines[i], &outlines[j])))
    }
}

/// A pentagon face as the definition draws it.
#[derive(Clone, Debug)]
struct Shape {
    face: char,
    ring: [usize; 10],
    middle: usize,
    /// Whether the definition draws it point down.
    down: bool,
}

/// The faces of the map in order, if every one is a pentagon.
fn pentagons(map: &StickerMap) -> Option<Vec<Shape>> {
    map.faces
        .iter()
        .map(|&face| {
            let mine: Vec<usize> = (0..map.stickers.len())
                .filter(|&i| map.stickers[i].face == face)
                .collect();
            if mine.len() != 11 {
                return None;
            }
            let row0 = mine.iter().map(|&i| map.stickers[i].row).min()?;
            let col0 = mine.iter().map(|&i| map.stickers[i].col).min()?;
            let at = |cell: (usize, usize)| {
                mine.iter().copied().find(|&i| {
                    let st = &map.stickers[i];
                    (usize::from(st.row - row0), usize::from(st.col - col0)) == cell
                })
            };
            [(DOWN_CELLS, true), (UP_CELLS, false)]
                .into_iter()
                .find_map(|(cells, down)| {
                    let found: Vec<usize> = cells.iter().map(|&c| at(c)).collect::<Option<_>>()?;
                    Some(Shape {
                        face,
                        ring: std::array::from_fn(|i| found[i]),
                        middle: found[10],
                        down,
                    })
                })
        })
        .collect()
}

/// Per face and side, the face across that side and its side there, read from the edge
/// pieces: `None` unless every edge sticker of every ring pairs with one on another
/// face, and the corners at the ends of each shared side are the same pieces (which
/// fails when some faces are drawn in the mirror of the others: a net cannot join
/// them).
fn neighbours(map: &StickerMap, shapes: &[Shape]) -> Option<Vec<[(usize, usize); 5]>> {
    let piece = |i: usize| map.stickers[i].piece.map(|s| (s.set, s.pos));
    let mut by_piece: HashMap<(usize, usize), Vec<(usize, usize)>> = HashMap::new();
    for (f, shape) in shapes.iter().enumerate() {
        for s in 0..5 {
            by_piece
                .entry(piece(shape.ring[2 * s + 1])?)
                .or_default()
                .push((f, s));
        }
    }
    let mut sides = vec![[(usize::MAX, 0); 5]; shapes.len()];
    for pair in by_piece.values() {
        let [(f, s), (g, t)] = pair[..] else {
            return None;
        };
        if f == g {
            return None;
        }
        sides[f][s] = (g, t);
        sides[g][t] = (f, s);
    }
    // The side from corner s to corner s + 1 of one face runs from corner t + 1 to
    // corner t of the other.
    for (f, shape) in shapes.iter().enumerate() {
        for (s, &(g, t)) in sides[f].iter().enumerate() {
            let other = &shapes[g].ring;
            let same = |a: usize, b: usize| piece(a).is_some() && piece(a) == piece(b);
            if !same(shape.ring[2 * s], other[(2 * t + 2) % 10])
                || !same(shape.ring[(2 * s + 2) % 10], other[2 * t])
            {
                return None;
            }
        }
    }
    Some(sides)
}

/// The distance of every face from the first, if the faces are joined as a
/// dodecahedron's: one face, five around it, five more, and one opposite.
fn distances(sides: &[[(usize, usize); 5]]) -> Option<Vec<usize>> {
    let mut dist = vec![usize::MAX; sides.len()];
    dist[0] = 0;
    let mut queue = std::collections::VecDeque::from([0]);
    while let Some(f) = queue.pop_front() {
        for &(g, _) in &sides[f] {
            if dist[g] == usize::MAX {
                dist[g] = dist[f] + 1;
                queue.push_back(g);
            }
        }
    }
    let count = |d: usize| dist.iter().filter(|&&x| x == d).count();
    (sides.len() == 12 && [1, 5, 5, 1] == [count(0), count(1), count(2), count(3)]).then_some(dist)
}

/// Places the face across side `s` of `placed`: its centre is the mirror image of
/// `placed`'s across that side, and its side `t` lies on the same line, facing back.
fn across(placed: &NetFace, s: usize, shape: &Shape, t: usize) -> NetFace {
    let phi = placed.angle + 72.0 * s as f64 + 36.0;
    let step = 2.0 * apothem();
    let r = phi.to_radians();
    NetFace {
        face: shape.face,
        ring: shape.ring,
        middle: shape.middle,
        centre: (
            placed.centre.0 + step * r.cos(),
            placed.centre.1 + step * r.sin(),
        ),
        angle: (placed.angle + 72.0 * (s as f64 - t as f64) + 180.0).rem_euclid(360.0),
    }
}

/// Every way to hang the second flower on the first: the first face at the origin
/// (drawn as the definition draws it) with its neighbours around it, then, for each
/// side of a neighbour that leads to a face of the second flower, that face, the
/// opposite face beyond it and the opposite face's other neighbours.
fn flowers(
    shapes: &[Shape],
    sides: &[[(usize, usize); 5]],
    dist: &[usize],
    start: f64,
) -> Vec<Net> {
    let root = NetFace {
        face: shapes[0].face,
        ring: shapes[0].ring,
        middle: shapes[0].middle,
        centre: (0.0, 0.0),
        angle: start,
    };
    let petals: Vec<NetFace> = sides[0]
        .iter()
        .enumerate()
        .map(|(s, &(g, t))| across(&root, s, &shapes[g], t))
        .collect();
    let first: Vec<NetFace> = std::iter::once(root)
        .chain(petals.iter().cloned())
        .collect();
    let mut out = Vec::new();
    for (petal, &(p, _)) in petals.iter().zip(&sides[0]) {
        for (s, &(q, t)) in sides[p].iter().enumerate() {
            if dist[q] != 2 {
                continue;
            }
            let hinge = across(petal, s, &shapes[q], t);
            let Some((so, &(o, to))) = sides[q].iter().enumerate().find(|(_, n)| dist[n.0] == 3)
            else {
                continue;
            };
            let opposite = across(&hinge, so, &shapes[o], to);
            let mut faces = first.clone();
            faces.extend(
                sides[o]
                    .iter()
                    .enumerate()
                    .map(|(k, &(g, tg))| across(&opposite, k, &shapes[g], tg)),
            );
            faces.push(opposite);
            out.push(Net { faces });
        }
    }
    out
}

/// Whether two convex outlines overlap by more than a touch: no side of either
/// separates them (the separating axis test).
fn overlap(a: &[Point; 5], b: &[Point; 5]) -> bool {
    const EPS: f64 = 1e-6;
    [a, b].iter().all(|poly| {
        (0..5).all(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % 5]);
            let normal = (q.1 - p.1, p.0 - q.0);
            let project = |pts: &[Point; 5]| {
                pts.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| {
                    let d = v.0 * normal.0 + v.1 * normal.1;
                    (lo.min(d), hi.max(d))
                })
            };
            let ((alo, ahi), (blo, bhi)) = (project(a), project(b));
            ahi > blo + EPS && bhi > alo + EPS
        })
    })
}
