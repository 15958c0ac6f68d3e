//! Additive pattern tables for guarded puzzles: a family of tables whose bounds may be
//! summed, which is what makes random 15-puzzles solvable.
//!
//! A guard tests some positions of one set for a few labels (the 15-puzzle's moves all
//! test for the blank). Those *shared* labels are tracked, each as its own label, by
//! every table of the family, so each table can evaluate every guard exactly: a move
//! applies in the abstraction only where the abstract position satisfies its guard.
//! The other labels of the set are *owned*: split into disjoint groups, one per table.
//! In a table a move costs its usual cost when it moves a label the table owns and
//! nothing otherwise (sliding an untracked tile only moves the blank there).
//!
//! The sum of the family's entries is admissible when every real move moves owned
//! labels of at most one table, for then each move of a real solution is paid for by at
//! most one table. [`family_rule`] proves a sufficient form of that from the definition
//! alone: every move changes at most one position of the set that its guard does not
//! pin to shared labels (a pinned position holds a shared label, which no table owns).
//! A definition that breaks it (a move that carries two tiles at once, Klotski's
//! two-cell blocks) gets no family, and the ordinary tables are planned instead.
//!
//! Entries are indexed by the multiset-permutation rank ([`PermCoord`]) of the set's
//! arrangement seen through the table's relabelling (owned labels, then shared labels,
//! then one wildcard for the rest), so a table keeps the blank's position: 16!/9!
//! entries for six 15-puzzle tiles. The build is in [`build`]; the search looks the
//! tables up from the packed key it carries for guarded moves ([`Family::bound_key`]).

mod build;
mod mirror;
pub use build::build_group;
pub use mirror::{mirrors, Mirror};

use super::prune::{PruneTable, INFINITE};
use crate::coord::PermCoord;
use crate::keys::Packer;
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle, State};

/// The most entries one table of the family may have: larger tables would take minutes
/// to build on a small machine (the 15-puzzle's seven tiles with the blank are 519 M).
pub const MAX_ENTRIES: u64 = 1 << 28;

/// The most distinct labels a table may see (owned, shared and the wildcard), so that
/// a guard's labels fit one bit mask and a rank needs no allocation.
const MAX_CLASSES: usize = 64;

/// The most positions the set may have: the search unpacks keys into stack arrays.
const MAX_POSITIONS: usize = 128;

/// Why a definition gets no additive family, in words for `solve -v`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotAdditive(pub String);

/// What [`family_rule`] found: the set the guards test, the labels they test (shared by
/// every table) and the labels left to own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyShape {
    pub set: usize,
    /// 0-based labels the guards test, ascending.
    pub shared: Vec<u16>,
    /// 0-based labels of the solved state that no guard tests and the definition does
    /// not ignore, ascending: the labels the tables share out.
    pub owned: Vec<u16>,
}

/// One planned family: the groups of owned labels (one table each) and their sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyPlan {
    pub shape: FamilyShape,
    pub groups: Vec<Vec<u16>>,
    /// Entries of each group's table.
    pub lens: Vec<u64>,
    /// The board's mirror images, each a second lookup of every table ([`mirror`]).
    pub mirrors: Vec<Mirror>,
}

impl FamilyPlan {
    /// Bytes the family takes: its entries at one byte each (their depths often pass
    /// the 14 a nibble holds), plus the largest table again while it is built.
    pub fn bytes(&self) -> u64 {
        let stored: u64 = self.lens.iter().sum();
        stored + self.lens.iter().copied().max().unwrap_or(0)
    }

    /// The partition in words, as `solve -v` prints it: `6+6+3 of 15 pieces of Cells
    /// (1 2 5 6 9 10 | ...), each with piece 16 kept (57.7 M + ... entries)`.
    pub fn describe(&self, puzzle: &Puzzle) -> String {
        let sizes: Vec<String> = self.groups.iter().map(|g| g.len().to_string()).collect();
        let shared: Vec<String> = self
            .shape
            .shared
            .iter()
            .map(|l| (l + 1).to_string())
            .collect();
        let lens: Vec<String> = self
            .lens
            .iter()
            .map(|&l| crate::progress::format_count(l))
            .collect();
        // Which pieces each table owns, when there is a choice.
        let groups = match self.groups.len() {
            1 => String::new(),
            _ => {
                let g: Vec<String> = self
                    .groups
                    .iter()
                    .map(|g| {
                        let l: Vec<String> = g.iter().map(|l| (l + 1).to_string()).collect();
                        l.join(" ")
                    })
                    .collect();
                format!(" ({})", g.join(" | "))
            }
        };
        let mirrors = match self.mirrors.len() {
            0 => String::new(),
            1 => ", also looked up for the board's mirror image".to_string(),
            n => format!(", also looked up for the board's {n} mirror images"),
        };
        format!(
            "additive tables: {} of {} pieces of {}{groups}, each with piece {} kept ({} entries){mirrors}",
            sizes.join("+"),
            self.shape.owned.len(),
            puzzle.sets[self.shape.set].name,
            shared.join(" "),
            lens.join(" + ")
        )
    }
}

/// Checks that `puzzle` admits an additive family, and returns its shape.
///
/// The rule, checked per move (every power of an unguarded move too): every guard
/// condition is on one set, the set has no twists, no position holding a shared label in
/// the solved state is ignored or free, and the positions of the set the move changes,
/// less those its guard pins to shared labels, number at most one. Then a move carries
/// at most one non-shared label, so it is paid for by at most one table.
pub fn family_rule(puzzle: &Puzzle) -> Result<FamilyShape, NotAdditive> {
    let no = |why: &str| Err(NotAdditive(why.to_string()));
    if !puzzle.has_guards() {
        return no("no move has a guard");
    }
    let mut set = None;
    let mut shared: Vec<u16> = Vec::new();
    for g in puzzle.guards.iter().flatten() {
        for c in &g.conds {
            if *set.get_or_insert(c.set) != c.set {
                return no("guards test more than one set");
            }
            shared.extend(&c.labels);
        }
    }
    let Some(set) = set else {
        return no("no move has a guard");
    };
    shared.sort_unstable();
    shared.dedup();
    let def = &puzzle.sets[set];
    if def.orientations > 1 {
        return no("the guarded set has twists");
    }
    if def.size > MAX_POSITIONS {
        return no("the guarded set has more than 128 positions");
    }
    if puzzle.goal_is_set() {
        return no("the goal is a set of positions");
    }
    let solved = &puzzle.solved.sets[set].perm;
    let ignored = |i: usize| {
        puzzle
            .ignore
            .get(set)
            .is_some_and(|m| m.perm.get(i) == Some(&true))
    };
    if (0..def.size).any(|i| ignored(i) && shared.contains(&solved[i])) {
        return no("a label the guards test sits at an ignored position");
    }
    if shared.iter().any(|l| !solved.contains(l)) {
        return no("a guard tests a label the solved state does not hold");
    }
    let mut owned: Vec<u16> = (0..def.size)
        .filter(|&i| !ignored(i) && !shared.contains(&solved[i]))
        .map(|i| solved[i])
        .collect();
    owned.sort_unstable();
    owned.dedup();
    // A label the definition ignores somewhere is a wildcard to every table; one that is
    // kept everywhere may be owned.
    owned.retain(|&l| (0..def.size).all(|i| solved[i] != l || !ignored(i)));
    if owned.is_empty() {
        return no("no label is left for the tables to own");
    }
    for (id, mv) in puzzle.moves.iter().enumerate() {
        let src = &mv.effect.sets[set].perm;
        let pinned: Vec<usize> = puzzle
            .guard_of(crate::puzzle::MoveId(id as u16))
            .map(|g| {
                g.conds
                    .iter()
                    .filter(|c| c.labels.iter().all(|l| shared.contains(l)))
                    .map(|c| c.pos)
                    .collect()
            })
            .unwrap_or_default();
        let free_changed = (0..def.size)
            .filter(|&i| src[i] as usize != i && !pinned.contains(&i))
            .count();
        if free_changed > 1 {
            return Err(NotAdditive(format!(
                "move {} moves {free_changed} pieces its guard does not pin to {}, so two \
                 tables could both count it",
                mv.name,
                if shared.len() == 1 {
                    format!("piece {}", shared[0] + 1)
                } else {
                    "the pieces it tests".to_string()
                }
            )));
        }
    }
    Ok(FamilyShape { set, shared, owned })
}

/// The relabelling of table `group`: its owned labels in order, then each shared label,
/// then one wildcard for everything else; indexed by the set's 0-based labels.
pub fn group_relabel(puzzle: &Puzzle, shape: &FamilyShape, group: &[u16]) -> Vec<u16> {
    let max = puzzle.solved.sets[shape.set]
        .perm
        .iter()
        .map(|&l| l as usize + 1)
        .max()
        .unwrap_or(0);
    let wild = (group.len() + shape.shared.len()) as u16;
    (0..max as u16)
        .map(|l| {
            if let Some(k) = group.iter().position(|&g| g == l) {
                k as u16
            } else if let Some(k) = shape.shared.iter().position(|&s| s == l) {
                (group.len() + k) as u16
            } else {
                wild
            }
        })
        .collect()
}

/// The coordinate of table `group`: arrangements of the relabelled solved state.
fn group_coord(puzzle: &Puzzle, shape: &FamilyShape, relabel: &[u16]) -> Option<PermCoord> {
    let labels: Vec<u16> = puzzle.solved.sets[shape.set]
        .perm
        .iter()
        .map(|&l| relabel[l as usize])
        .collect();
    PermCoord::new(&labels).ok()
}

/// Entries of the table owning `group`, or `None` past 64 bits.
pub fn group_len(puzzle: &Puzzle, shape: &FamilyShape, group: &[u16]) -> Option<u64> {
    let relabel = group_relabel(puzzle, shape, group);
    group_coord(puzzle, shape, &relabel).map(|c| c.count())
}

/// The family of groups of at most `size` owned labels each, as compact as the moves
/// allow (see [`compact`]; for the 15-puzzle and six: 2x3 blocks and the rest).
pub fn partition(puzzle: &Puzzle, shape: &FamilyShape, size: usize) -> Option<FamilyPlan> {
    if size == 0 || size + shape.shared.len() + 1 > MAX_CLASSES {
        return None;
    }
    let mut groups: Vec<Vec<u16>> = shape.owned.chunks(size).map(<[u16]>::to_vec).collect();
    compact(puzzle, shape, &mut groups);
    let lens = groups
        .iter()
        .map(|g| group_len(puzzle, shape, g))
        .collect::<Option<Vec<u64>>>()?;
    Some(FamilyPlan {
        shape: shape.clone(),
        groups,
        lens,
        mirrors: mirrors(puzzle, shape.set),
    })
}

/// Which positions of set `set` are neighbours: `near[a * size + b]` when some move
/// changes both `a` and `b` (a tile and the blank it slides into). The compact groups and
/// the mirror images both read the board from it.
fn neighbours(puzzle: &Puzzle, set: usize) -> Vec<bool> {
    let size = puzzle.sets[set].size;
    let mut near = vec![false; size * size];
    for mv in &puzzle.moves {
        let src = &mv.effect.sets[set].perm;
        let changed: Vec<usize> = (0..size).filter(|&i| src[i] as usize != i).collect();
        for &a in &changed {
            for &b in &changed {
                near[a * size + b] |= a != b;
            }
        }
    }
    near
}

/// Regroups the owned labels so that each group's pieces lie close together when
/// solved, keeping the groups' sizes. Two positions are neighbours when one move changes
/// both (a tile and the blank it slides into), and the distance of two positions is the
/// fewest neighbour steps between them. Pieces close to each other block each other's
/// way (a linear conflict), and only a table that owns both sees it, so groups whose
/// pieces are close bound more: labels are swapped between groups while that lowers the
/// sum of the distances within groups, in a fixed order, so the result is reproducible.
/// For the 15-puzzle's groups of six this turns rows into blocks of two by three.
fn compact(puzzle: &Puzzle, shape: &FamilyShape, groups: &mut [Vec<u16>]) {
    let size = puzzle.sets[shape.set].size;
    let solved = &puzzle.solved.sets[shape.set].perm;
    let near = neighbours(puzzle, shape.set);
    // Breadth-first distances between positions (`size` where none connects them).
    let mut dist = vec![size; size * size];
    for from in 0..size {
        let mut queue = std::collections::VecDeque::from([from]);
        dist[from * size + from] = 0;
        while let Some(a) = queue.pop_front() {
            for b in (0..size).filter(|&b| near[a * size + b]) {
                if dist[from * size + b] == size {
                    dist[from * size + b] = dist[from * size + a] + 1;
                    queue.push_back(b);
                }
            }
        }
    }
    // Labels are as close as their closest solved positions.
    let max = solved.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); max];
    for (i, &l) in solved.iter().enumerate() {
        at[l as usize].push(i);
    }
    let apart = |a: u16, b: u16| -> usize {
        let (pa, pb) = (&at[a as usize], &at[b as usize]);
        pa.iter()
            .flat_map(|&i| pb.iter().map(move |&j| (i, j)))
            .map(|(i, j)| dist[i * size + j])
            .min()
            .unwrap_or(size)
    };
    // The distances from `with` to the group's labels other than the one at `skip`.
    let spread = |g: &[u16], skip: usize, with: u16| -> usize {
        g.iter()
            .enumerate()
            .filter(|&(k, _)| k != skip)
            .map(|(_, &l)| apart(l, with))
            .sum()
    };
    loop {
        let mut improved = false;
        for x in 0..groups.len() {
            for y in x + 1..groups.len() {
                for i in 0..groups[x].len() {
                    for j in 0..groups[y].len() {
                        let (a, b) = (groups[x][i], groups[y][j]);
                        let before = spread(&groups[x], i, a) + spread(&groups[y], j, b);
                        let after = spread(&groups[x], i, b) + spread(&groups[y], j, a);
                        if after < before {
                            groups[x][i] = b;
                            groups[y][j] = a;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
    for g in groups.iter_mut() {
        g.sort_unstable();
    }
}

/// The strongest family within `budget` bytes: the largest groups whose tables each
/// stay within [`MAX_ENTRIES`] and whose bytes fit (larger groups see more of the
/// interactions between pieces, so they prune more). `Err` says why there is none.
pub fn plan_family(puzzle: &Puzzle, budget: u64) -> Result<FamilyPlan, NotAdditive> {
    let shape = family_rule(puzzle)?;
    let most = shape.owned.len().min(MAX_CLASSES - 1 - shape.shared.len());
    for size in (1..=most).rev() {
        let Some(plan) = partition(puzzle, &shape, size) else {
            continue;
        };
        if plan.lens.iter().all(|&l| l <= MAX_ENTRIES) && plan.bytes() <= budget {
            return Ok(plan);
        }
    }
    Err(NotAdditive(
        "even tables of one piece do not fit the memory budget".into(),
    ))
}

/// One built table of a family.
pub struct GroupTable {
    /// Owned labels (0-based).
    pub group: Vec<u16>,
    relabel: Vec<u16>,
    coord: PermCoord,
    pub table: PruneTable,
}

/// A built family: tables whose bounds add up.
pub struct Family {
    pub plan: FamilyPlan,
    pub metric: Metric,
    pub tables: Vec<GroupTable>,
    /// Flat index of the set's first position in a packed key ([`Packer`] lays out the
    /// sets in order).
    offset: usize,
    /// Positions of the guarded set, and of every set (a packed key's length).
    size: usize,
    npos: usize,
}

impl Family {
    /// The family of `plan` from its built tables (in the plan's group order).
    pub fn new(
        puzzle: &Puzzle,
        plan: FamilyPlan,
        metric: Metric,
        built: Vec<PruneTable>,
    ) -> Family {
        let offset = puzzle.sets[..plan.shape.set].iter().map(|s| s.size).sum();
        let tables = plan
            .groups
            .iter()
            .zip(built)
            .map(|(g, table)| {
                let relabel = group_relabel(puzzle, &plan.shape, g);
                let coord = group_coord(puzzle, &plan.shape, &relabel).expect("planned");
                GroupTable {
                    group: g.clone(),
                    relabel,
                    coord,
                    table,
                }
            })
            .collect();
        Family {
            size: puzzle.sets[plan.shape.set].size,
            npos: puzzle.sets.iter().map(|s| s.size).sum(),
            plan,
            metric,
            tables,
            offset,
        }
    }

    /// Builds every table of `plan` in memory (no cache).
    pub fn build(
        puzzle: &Puzzle,
        plan: FamilyPlan,
        metric: Metric,
        progress: &dyn Progress,
    ) -> Family {
        let built = plan
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let what = format!("additive table {} of {}", i + 1, plan.groups.len());
                build_group(puzzle, &plan.shape, g, metric, &what, progress)
            })
            .collect();
        Family::new(puzzle, plan, metric, built)
    }

    /// The sum of the tables' bounds for the set's labels `labels` (0-based, one per
    /// position), [`INFINITE`] when some table says the goal is out of reach.
    #[inline]
    fn bound_labels(&self, labels: &[u16]) -> u32 {
        let mut best = self.sum_labels(labels);
        // A mirror image is exactly as far from the goal, so its bound holds here too.
        let mut image = [0u16; MAX_POSITIONS];
        let image = &mut image[..labels.len()];
        for m in &self.plan.mirrors {
            if best >= INFINITE {
                break;
            }
            m.image(labels, image);
            best = best.max(self.sum_labels(image));
        }
        best
    }

    /// The sum of the tables' bounds for the set's labels `labels`.
    #[inline]
    fn sum_labels(&self, labels: &[u16]) -> u32 {
        self.sum_upto(labels, INFINITE)
    }

    /// The sum of the tables' bounds for `labels`, [`INFINITE`] when some table says
    /// the goal is out of reach; once the sum passes `cap` the rest is not looked up
    /// and what was summed so far (more than `cap`) is returned.
    #[inline]
    fn sum_upto(&self, labels: &[u16], cap: u32) -> u32 {
        let mut arr = [0u16; MAX_POSITIONS];
        let arr = &mut arr[..labels.len()];
        let mut sum = 0u32;
        for t in &self.tables {
            for (a, &l) in arr.iter_mut().zip(labels) {
                *a = t.relabel.get(l as usize).copied().unwrap_or(u16::MAX);
            }
            let h = t.table.get(t.coord.rank(arr));
            if h >= INFINITE {
                return INFINITE;
            }
            sum += h;
            if sum > cap {
                break;
            }
        }
        sum
    }

    /// By how much the family's bound for the set's labels `labels` passes `left` (0
    /// when it does not): the sums are cut short once the excess reaches `enough` (at
    /// least 1), so a larger excess is only known to be at least `enough`.
    #[inline]
    fn over_labels(&self, labels: &[u16], left: u32, enough: u32) -> u32 {
        let mut over = self.sum_over(labels, left, enough);
        let mut image = [0u16; MAX_POSITIONS];
        let image = &mut image[..labels.len()];
        for m in &self.plan.mirrors {
            if over >= enough {
                break;
            }
            m.image(labels, image);
            over = over.max(self.sum_over(image, left, enough));
        }
        over
    }

    /// By how much the sum of the tables' bounds for `labels` passes `left` (0 when it
    /// does not), summed only until the excess reaches `enough`.
    #[inline]
    fn sum_over(&self, labels: &[u16], left: u32, enough: u32) -> u32 {
        let cap = left.saturating_add(enough.max(1) - 1);
        self.sum_upto(labels, cap).saturating_sub(left)
    }

    /// The family's bound for `state` (a position of the definition's puzzle).
    pub fn bound_state(&self, state: &State) -> u32 {
        self.bound_labels(&state.sets[self.plan.shape.set].perm)
    }

    /// The family's bound for a position packed by `packer`. Nothing is allocated.
    #[inline]
    pub(crate) fn bound_key(&self, packer: &Packer, key: u128) -> u32 {
        let mut labels = [0u16; MAX_POSITIONS];
        let mut oris = [0u8; MAX_POSITIONS];
        let npos = self.npos;
        if npos > MAX_POSITIONS {
            return 0;
        }
        packer.unpack(key, &mut labels[..npos], &mut oris[..npos]);
        self.bound_labels(&labels[self.offset..self.offset + self.size])
    }

    /// By how much [`Family::bound_key`] passes `left` (0 when it does not), computed
    /// only until the excess reaches `enough`: the search only needs to know whether the
    /// position fits, and, when it does not, whether it passes by less than the least
    /// excess met so far (`enough`), which sets the next bound.
    #[inline]
    pub(crate) fn over_key(&self, packer: &Packer, key: u128, left: u32, enough: u32) -> u32 {
        let mut labels = [0u16; MAX_POSITIONS];
        let mut oris = [0u8; MAX_POSITIONS];
        let npos = self.npos;
        if npos > MAX_POSITIONS {
            return 0;
        }
        packer.unpack(key, &mut labels[..npos], &mut oris[..npos]);
        self.over_labels(&labels[self.offset..self.offset + self.size], left, enough)
    }

    /// Bytes the family's entries take.
    pub fn memory(&self) -> u64 {
        self.tables.iter().map(|t| t.table.memory()).sum()
    }
}
