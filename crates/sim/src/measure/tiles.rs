//! Where the recorder keeps the links' and sources' samples (the flows' are in `flow_log.rs`), during the
//! run and after it: in tiles of `TILE` series. Tile g holds, sample after sample, the values of series
//! TILE·g .. TILE·g + TILE, so recording a sample appends one cache line to each tile, and reading one
//! series back is a strided walk through one tile.
//!
//! Why not one column per series: with thousands of series, writing every value into its own column
//! touched thousands of pages per sample, and the recorder took longer than the simulation. Why the
//! tiles are also the result and not copied into columns at the end: that copy wrote every value a
//! second time into fresh pages; a reader gathers a series from its tile in one pass instead.

use super::huge_pages;
use super::resolution::{merge_rows, Merge};
use super::stream_store::{fence, store_line};

/// Series per tile: eight `f64` values are one 64-byte cache line.
pub const TILE: usize = 8;

/// All tiles live in one buffer, tile g at `base + g * capacity * TILE`, so that a large time series can be
/// given huge pages (`huge_pages.rs`); `base` puts every row on a cache line of its own
/// (`stream_store.rs`).
#[derive(Default)]
pub struct Tiles {
    buf: Vec<f64>,
    base: usize,
    tiles: usize,
    /// Samples each tile has room for.
    capacity: usize,
    samples: usize,
}

impl Tiles {
    /// Storage for `series` series and up to `capacity` samples (the recorder's bound on samples), all
    /// reserved up front: the pages are only touched as samples arrive.
    pub fn new(series: usize, capacity: usize) -> Tiles {
        let tiles = series.div_ceil(TILE);
        // Zeroed memory fresh from the system costs nothing until written; one spare row for alignment.
        let buf = vec![0.0; (tiles * capacity + 1) * TILE];
        huge_pages::advise(&buf);
        let misaligned = (buf.as_ptr() as usize % 64) / size_of::<f64>();
        let base = (TILE - misaligned) % TILE;
        Tiles { buf, base, tiles, capacity, samples: 0 }
    }

    /// Width of a row `push_row` takes: the series rounded up to whole tiles.
    pub fn row_width(&self) -> usize {
        self.tiles * TILE
    }

    /// Appends one sample: one value per series, padded to `row_width()`. At most `capacity` samples.
    pub fn push_row(&mut self, row: &[f64]) {
        assert_eq!(row.len(), self.row_width(), "a row covers whole tiles");
        assert!(self.samples < self.capacity, "more samples than reserved");
        let stride = self.capacity * TILE;
        let at = self.samples * TILE;
        let tiles = self.buf[self.base..].chunks_exact_mut(stride);
        for (tile, values) in tiles.zip(row.chunks_exact(TILE)) {
            let dst: &mut [f64; TILE] = (&mut tile[at..at + TILE]).try_into().expect("one row");
            store_line(dst, values.try_into().expect("one row"));
        }
        fence();
        self.samples += 1;
    }

    /// Samples held per series.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// The recorded part of tile g.
    fn tile(&self, g: usize) -> &[f64] {
        let start = self.base + g * self.capacity * TILE;
        &self.buf[start..start + self.samples * TILE]
    }

    /// The values of series `i`, in sample order.
    pub fn series(&self, i: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.tile(i / TILE).iter().skip(i % TILE).step_by(TILE).copied()
    }

    /// Merges every two adjacent samples into one (`resolution.rs`), series `i` by `rule(i)`. The number of
    /// samples must be even.
    pub fn merge_pairs(&mut self, rule: impl Fn(usize) -> Merge) {
        let used = self.samples * TILE;
        let tiles = self.buf[self.base..].chunks_exact_mut((self.capacity * TILE).max(1));
        for (g, tile) in tiles.take(self.tiles).enumerate() {
            let mut rules = [Merge::Last; TILE];
            for (k, r) in rules.iter_mut().enumerate() {
                *r = rule(g * TILE + k);
            }
            merge_rows(&mut tile[..used], &rules);
        }
        self.samples /= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(t: &Tiles, i: usize) -> Vec<f64> {
        t.series(i).collect()
    }

    /// Nine series (two tiles), the value of series s at sample n being 10·n + s.
    fn filled(samples: usize) -> Tiles {
        let mut t = Tiles::new(9, samples);
        for n in 0..samples {
            let mut row: Vec<f64> = (0..9).map(|s| (10 * n + s) as f64).collect();
            row.resize(t.row_width(), f64::NAN);
            t.push_row(&row);
        }
        t
    }

    #[test]
    fn reads_back_each_series_in_sample_order() {
        let t = filled(3);
        assert_eq!(t.row_width(), 16);
        assert_eq!(t.samples(), 3);
        assert_eq!(col(&t, 0), vec![0.0, 10.0, 20.0]);
        assert_eq!(col(&t, 7), vec![7.0, 17.0, 27.0]);
        assert_eq!(col(&t, 8), vec![8.0, 18.0, 28.0]);
        assert_eq!(t.series(8).len(), 3);
        assert_eq!(Tiles::new(9, 4).series(8).len(), 0);
    }

    #[test]
    fn merges_adjacent_samples_series_by_series() {
        let mut t = filled(4);
        t.merge_pairs(|i| if i == 8 { Merge::Sum } else { Merge::Last });
        assert_eq!(t.samples(), 2);
        assert_eq!(col(&t, 3), vec![13.0, 33.0]);
        assert_eq!(col(&t, 8), vec![8.0 + 18.0, 28.0 + 38.0]);
    }
}
