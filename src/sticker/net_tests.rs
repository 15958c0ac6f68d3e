//! The unfolded pentagon net: its faces do not overlap, faces that touch in the net
//! share their edge on the puzzle, and puzzles of other shapes have no such net.

use super::net::{Net, NetFace, Point};
use crate::def::parse_puzzle;
use crate::puzzle::stickers::StickerMap;

fn map(text: &str) -> StickerMap {
    let (p, _) = parse_puzzle(text.as_bytes(), "p.def").unwrap();
    p.stickers.unwrap()
}

fn near(a: Point, b: Point) -> bool {
    (a.0 - b.0).hypot(a.1 - b.1) < 1e-6
}

/// The side of `f` whose two corners are corners of `g`, if they share one in the net.
fn shared_side(f: &NetFace, g: &NetFace) -> Option<(usize, usize)> {
    let corner_of_g = |p: Point| (0..5).find(|&k| near(g.vertex(k), p));
    (0..5).find_map(|s| {
        let a = corner_of_g(f.vertex(s))?;
        let b = corner_of_g(f.vertex((s + 1) % 5))?;
        // The side runs the other way round on g: from its corner b to a = b + 1.
        ((b + 1) % 5 == a).then_some((s, b))
    })
}

#[test]
fn the_megaminx_unfolds_into_two_flowers_whose_touching_faces_share_their_edge() {
    for text in [
        include_str!("../../puzzles/megaminx.def"),
        include_str!("../../puzzles/megaminx_wca.def"),
    ] {
        let map = map(text);
        let net = Net::unfold(&map).expect("a pentagon net");
        assert_eq!(net.faces.len(), 12);
        let mut letters: Vec<char> = net.faces.iter().map(|f| f.face).collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(letters.len(), 12);
        assert!(!net.overlaps());
        // The first face is in the middle of the first flower, drawn as the file draws it.
        assert_eq!(net.faces[0].face, map.faces[0]);
        assert!(net.faces[0].points_down());
        let piece = |i: usize| map.stickers[i].piece.map(|s| (s.set, s.pos));
        let mut hinges = 0;
        for (i, f) in net.faces.iter().enumerate() {
            for g in &net.faces[..i] {
                let Some((s, t)) = shared_side(f, g) else {
                    continue;
                };
                hinges += 1;
                // The edge piece and the two corner pieces of the side are the same
                // pieces seen from both faces.
                assert_eq!(piece(f.ring[2 * s + 1]), piece(g.ring[2 * t + 1]));
                assert_eq!(piece(f.ring[2 * s]), piece(g.ring[(2 * t + 2) % 10]));
                assert_eq!(piece(f.ring[(2 * s + 2) % 10]), piece(g.ring[2 * t]));
                assert!(piece(f.ring[2 * s + 1]).is_some());
            }
        }
        // Five petals on each flower, and the hinge between the flowers.
        assert_eq!(hinges, 11);
    }
}

#[test]
fn other_puzzles_have_no_pentagon_net() {
    for text in [
        include_str!("../../puzzles/3x3x3.def"),
        include_str!("../../puzzles/2x2x2.def"),
        include_str!("../../puzzles/skewb.def"),
        include_str!("../../puzzles/pyraminx.def"),
    ] {
        assert_eq!(Net::unfold(&map(text)), None);
    }
}

#[test]
fn the_text_picture_gives_every_sticker_its_own_cell() {
    let map = map(include_str!("../../puzzles/megaminx.def"));
    let net = Net::unfold(&map).unwrap();
    let cells = super::pentagon::text_cells(&net);
    assert_eq!(cells.len(), map.stickers.len());
    let mut seen = std::collections::HashSet::new();
    for &(line, col, st) in &cells {
        assert!(seen.insert((line, col)), "{line} {col}");
        assert!(seen.insert((line, col + 1)), "{line} {col}");
        assert!(st < map.stickers.len());
    }
    let mut stickers: Vec<usize> = cells.iter().map(|c| c.2).collect();
    stickers.sort_unstable();
    assert_eq!(stickers, (0..map.stickers.len()).collect::<Vec<_>>());
}

#[test]
fn the_text_templates_put_each_sticker_where_the_pentagon_has_it() {
    use super::net::{DOWN_CELLS, UP_CELLS};
    use super::pentagon::face_polygons;
    let map = map(include_str!("../../puzzles/megaminx.def"));
    let net = Net::unfold(&map).unwrap();
    let angle = |dx: f64, dy: f64| dy.atan2(dx).to_degrees();
    for face in &net.faces {
        let cells = if face.points_down() {
            &DOWN_CELLS
        } else {
            &UP_CELLS
        };
        let (r0, c0) = cells[10];
        let ring = face.template_ring();
        let polygons = face_polygons(face);
        for (i, &(r, c)) in cells[..10].iter().enumerate() {
            // The direction of the cell from the template's centre cell, and of the
            // sticker's polygon from the pentagon's centre, agree within an eighth of a
            // turn.
            let text = angle(c as f64 - c0 as f64, r as f64 - r0 as f64);
            let (_, pts) = polygons.iter().find(|(st, _)| *st == ring[i]).unwrap();
            let (x, y) = super::draw::centroid(pts);
            let drawn = angle(x - face.centre.0, y - face.centre.1);
            let off = (text - drawn).rem_euclid(360.0);
            assert!(
                off.min(360.0 - off) < 45.0,
                "{} cell {i}: {text} {drawn}",
                face.face
            );
        }
    }
}

#[test]
fn faces_drawn_point_up_unfold_too() {
    // The Megaminx with every face of the definition turned upside down (rows 0 to 3
    // and 5 to 8 each read backwards): point-up pentagons, seen in the mirror.
    let text = include_str!("../../puzzles/megaminx.def");
    let mut block = false;
    let flipped: Vec<String> = text
        .lines()
        .map(|line| {
            block = (block || line == "Stickers") && line != "End";
            let mut words: Vec<String> = line.split(' ').map(String::from).collect();
            let row = words.get(1).and_then(|w| w.parse::<u16>().ok());
            if let (true, Some(row)) = (block && words.len() >= 4, row) {
                words[1] = (if row < 5 { 3 - row } else { 13 - row }).to_string();
            }
            words.join(" ")
        })
        .collect();
    let flipped = map(&flipped.join("\n"));
    let upright = map(text);
    let net = Net::unfold(&flipped).expect("a pentagon net");
    assert!(!net.faces[0].points_down());
    assert!(!net.overlaps());
    // Upside down is a mirror image: read clockwise, the first face's ring runs the
    // other way round, from the mirror of its bottom point.
    let ring = |m: &StickerMap| Net::unfold(m).unwrap().faces[0].ring;
    let (mirror, first) = (ring(&flipped), ring(&upright));
    assert!(
        (0..10).all(|i| mirror[i] == first[(16 - i) % 10]),
        "{mirror:?} {first:?}"
    );
    let cells = super::pentagon::text_cells(&net);
    let distinct: std::collections::HashSet<_> = cells.iter().map(|c| (c.0, c.1)).collect();
    assert_eq!(distinct.len(), flipped.stickers.len());
}
