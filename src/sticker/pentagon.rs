//! Where the stickers of a pentagon net ([`Net`]) go in a picture: on a character grid
//! for text, and as polygons for SVG. [`super::draw`] paints them.

use super::net::{Net, NetFace, Point, DOWN_CELLS, UP_CELLS};

/// A sticker on the character grid while the grid's scale is sought: line, column,
/// sticker and the index of its face in the net.
type Placed = (i64, i64, usize, usize);

/// A sticker's polygon: the sticker (an index into the map) and its corners.
pub type Polygon = (usize, Vec<Point>);

/// The stickers of a face on the character grid: `(line, column, sticker)` relative to
/// the top-left corner of its four-line template, each sticker two columns wide.
fn face_cells(face: &NetFace) -> impl Iterator<Item = (i64, i64, usize)> + '_ {
    let cells = if face.points_down() {
        &DOWN_CELLS
    } else {
        &UP_CELLS
    };
    let ring = face.template_ring();
    cells.iter().enumerate().map(move |(i, &(r, c))| {
        let sticker = if i < 10 { ring[i] } else { face.middle };
        (r as i64, 2 * c as i64, sticker)
    })
}

/// The net on a character grid with `sx` columns and `sy` lines to a unit of the net:
/// `(line, column, sticker, face)` for every sticker.
fn place(net: &Net, sx: f64, sy: f64) -> Vec<Placed> {
    let mut out = Vec::new();
    for (f, face) in net.faces.iter().enumerate() {
        // The template is four lines by nine columns; its middle goes where the face's
        // centre falls.
        let line0 = (face.centre.1 * sy - 1.5).round() as i64;
        let col0 = (face.centre.0 * sx).round() as i64 - 4;
        out.extend(face_cells(face).map(|(r, c, st)| (line0 + r, col0 + c, st, f)));
    }
    out
}

/// Whether the faces stand apart: stickers of different faces on the same or
/// neighbouring lines are at least four columns apart (a blank sticker's width between
/// them), so that no face runs into another.
fn apart(cells: &[Placed]) -> bool {
    let at: std::collections::HashMap<(i64, i64), usize> =
        cells.iter().map(|&(l, c, _, f)| ((l, c), f)).collect();
    cells.iter().all(|&(l, c, _, f)| {
        (l - 1..=l + 1)
            .all(|ll| (c - 3..=c + 3).all(|cc| at.get(&(ll, cc)).is_none_or(|&g| g == f)))
    })
}

/// The net on a character grid: `(line, column, sticker)` for every sticker, from line
/// and column 0. The face centres keep their places in the net, scaled by the smallest
/// grid (in area) on which the faces stand apart.
pub fn text_cells(net: &Net) -> Vec<(usize, usize, usize)> {
    let mut best: Option<(i64, Vec<Placed>)> = None;
    // A quarter of a column or line at a time, from scales at which faces would collide
    // to scales far wider than needed.
    for sy in 8..=24 {
        for sx in 16..=48 {
            let cells = place(net, f64::from(sx) / 4.0, f64::from(sy) / 4.0);
            if !apart(&cells) {
                continue;
            }
            let span = |get: fn(&Placed) -> i64| {
                let lo = cells.iter().map(get).min().unwrap_or(0);
                let hi = cells.iter().map(get).max().unwrap_or(0);
                hi - lo + 1
            };
            let area = span(|c| c.0) * (span(|c| c.1) + 1);
            if best.as_ref().is_none_or(|(a, _)| area < *a) {
                best = Some((area, cells));
            }
        }
    }
    // The widest scale sets faces apart whatever the net's turn; it is only a guard.
    let cells = best.map_or_else(|| place(net, 12.0, 6.0), |(_, c)| c);
    let line0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let col0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    cells
        .into_iter()
        .map(|(l, c, st, _)| ((l - line0) as usize, (c - col0) as usize, st))
        .collect()
}

/// How far the centre pentagon reaches towards the corners, as a fraction of the
/// face's size: at one half, corner and edge stickers come out about as wide as each
/// other along the face's outline.
const INNER: f64 = 0.5;

/// The polygons of a face's stickers: `(sticker, corners)` for the five corners, the
/// five edges and the centre. The cuts run parallel to the face's sides, as a real
/// puzzle's do, so a corner sticker is a rhombus, an edge sticker a trapezium and the
/// centre a smaller pentagon.
pub fn face_polygons(face: &NetFace) -> Vec<Polygon> {
    let outer = face.outline();
    let c = face.centre;
    let inner: Vec<Point> = outer
        .iter()
        .map(|v| (c.0 + INNER * (v.0 - c.0), c.1 + INNER * (v.1 - c.1)))
        .collect();
    // Along each side, a corner sticker takes the length at which its rhombus reaches
    // the centre pentagon's corner: (1 - INNER) / (2 cos 54°) of the radius.
    let cut = (1.0 - INNER) / (2.0 * 54f64.to_radians().cos());
    let toward = |a: Point, b: Point| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.hypot(dy);
        (a.0 + cut * dx / len, a.1 + cut * dy / len)
    };
    let mut out = Vec::new();
    for k in 0..5 {
        let (prev, next) = (outer[(k + 4) % 5], outer[(k + 1) % 5]);
        out.push((
            face.ring[2 * k],
            vec![
                outer[k],
                toward(outer[k], next),
                inner[k],
                toward(outer[k], prev),
            ],
        ));
        out.push((
            face.ring[2 * k + 1],
            vec![
                toward(outer[k], next),
                toward(next, outer[k]),
                inner[(k + 1) % 5],
                inner[k],
            ],
        ));
    }
    out.push((face.middle, inner));
    out
}

/// Pixels to a unit of the net in SVG pictures, and the margin around the net.
pub const SVG_SCALE: f64 = 40.0;
pub const SVG_MARGIN: f64 = 4.0;

/// The polygons of every sticker in SVG pixels, and the picture's width and height.
pub fn svg_polygons(net: &Net) -> (Vec<Polygon>, (f64, f64)) {
    let (lo, hi) = net.bounds();
    let px = |p: Point| {
        (
            (p.0 - lo.0) * SVG_SCALE + SVG_MARGIN,
            (p.1 - lo.1) * SVG_SCALE + SVG_MARGIN,
        )
    };
    let polygons = net
        .faces
        .iter()
        .flat_map(face_polygons)
        .map(|(st, pts)| (st, pts.into_iter().map(px).collect()))
        .collect();
    let size = (
        ((hi.0 - lo.0) * SVG_SCALE + 2.0 * SVG_MARGIN).ceil(),
        ((hi.1 - lo.1) * SVG_SCALE + 2.0 * SVG_MARGIN).ceil(),
    );
    (polygons, size)
}
