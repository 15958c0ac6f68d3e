//! The Megaminx drawn as its two-flower net: the text net `show` prints for both
//! megaminx definitions (snapshots, colour off), and the SVG picture with real
//! pentagons in the faces' colours (rendered by a real SVG renderer).

use ksolve::def::load_puzzle;
use ksolve::sticker::draw::centroid;
use ksolve::sticker::net::Net;
use ksolve::sticker::pentagon::svg_polygons;
use std::ffi::OsStr;
use std::path::Path;

fn show(args: &[&str]) -> String {
    let args: Vec<&OsStr> = ["show"]
        .iter()
        .chain(args)
        .chain(&["--color", "never"])
        .map(OsStr::new)
        .collect();
    crate::common::stdout_of(&args)
}

#[test]
fn show_prints_the_megaminx_as_two_flowers() {
    insta::assert_snapshot!("megaminx_solved", show(&["puzzles/megaminx.def"]));
    insta::assert_snapshot!(
        "megaminx_r_u_bl2",
        show(&["puzzles/megaminx.def", "--alg", "R U BL2'"])
    );
    // The WCA definition draws alike when solved (its centres are pieces, not fixed).
    assert_eq!(
        show(&["puzzles/megaminx_wca.def"]),
        show(&["puzzles/megaminx.def"])
    );
    insta::assert_snapshot!(
        "megaminx_wca_r_pp_d_mm_u",
        show(&["puzzles/megaminx_wca.def", "--alg", "R++ D-- U'"])
    );
}

/// The picture in `docs/` is what `show --svg` draws, and a real SVG renderer draws the
/// faces' centres in their colours and leaves the outside of the net transparent.
#[test]
fn the_megaminx_svg_draws_pentagons_in_the_faces_colours() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("megaminx.svg");
    let def = root.join("puzzles/megaminx.def");
    crate::common::stdout_of(&[
        OsStr::new("show"),
        def.as_os_str(),
        OsStr::new("--svg"),
        path.as_os_str(),
    ]);
    let drawn = std::fs::read_to_string(&path).unwrap();
    let shipped = std::fs::read_to_string(root.join("docs/megaminx-solved.svg")).unwrap();
    assert_eq!(drawn, shipped, "docs/megaminx-solved.svg is out of date");
    assert!(drawn.contains("<polygon"), "{drawn}");
    let pixmap = crate::common::render_svg(&drawn);
    // Where the library puts each face's centre sticker.
    let (puzzle, _) = load_puzzle(&def).unwrap();
    let map = puzzle.stickers.as_ref().unwrap();
    let net = Net::unfold(map).unwrap();
    let (polygons, _) = svg_polygons(&net);
    let centre_of = |face: char| {
        let f = net.faces.iter().find(|f| f.face == face).unwrap();
        let (_, pts) = polygons.iter().find(|(st, _)| *st == f.middle).unwrap();
        let (x, y) = centroid(pts);
        // Off the faint letter drawn in the middle.
        let p = pixmap.pixel(x as u32, y as u32 + 8).unwrap();
        (p.red(), p.green(), p.blue(), p.alpha())
    };
    assert_eq!(centre_of('U'), (0xff, 0xff, 0xff, 0xff));
    assert_eq!(centre_of('F'), (0x00, 0x88, 0x00, 0xff));
    assert_eq!(centre_of('C'), (0x00, 0x00, 0xff, 0xff));
    assert_eq!(centre_of('D'), (0x88, 0x88, 0x88, 0xff));
    // The top-left corner of the picture lies outside every face.
    assert_eq!(pixmap.pixel(2, 2).unwrap().alpha(), 0);
}
