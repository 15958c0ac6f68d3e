//! [`Reader`]: a pruning table read in a loop, its entries' storage looked through
//! once rather than per entry.

use super::PruneTable;

/// A pruning table with its entries' bytes looked up once ([`PruneTable::reader`]).
#[derive(Clone, Copy)]
pub struct Reader<'t> {
    table: &'t PruneTable,
    bytes: &'t [u8],
}

impl Reader<'_> {
    /// [`PruneTable::get`].
    #[inline]
    pub fn get(&self, index: u64) -> u32 {
        self.table.get_in(self.bytes, index)
    }

    /// [`PruneTable::prefetch`].
    #[inline]
    pub fn prefetch(&self, index: u64) {
        self.table.prefetch_in(self.bytes, index)
    }
}

impl PruneTable {
    /// A reader of the entries that looks through their storage once (a mapped file or
    /// a copy in huge pages is behind a trait object), for loops that read many.
    #[inline]
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            table: self,
            bytes: self.entries.bytes(),
        }
    }
}
