//! SACK as ns-2.35 does it: the receiver's block choice (`Sacker::append_ack`, tcp/tcp-sink.cc:605) and the
//! sender's scoreboard (`ScoreBoardRQ`, tcp/scoreboard-rq.cc, used by Agent/TCP/Sack1 and the FAST
//! module). Blocks are half-open packet ranges [left, right), as ns-2's `sa_left`/`sa_right`.
//!
//! ACK packets do not carry the blocks: the packet stays small for flows without SACK. The receiver's
//! blocks go into a per-flow `SackLog` keyed by a serial number that the ACK carries in its (otherwise
//! unused) `first_sent` field; the sender looks them up when the ACK arrives.

use std::collections::VecDeque;

/// ns-2 `maxSackBlocks_ 3` (tcl/lib/ns-default.tcl:1075).
pub const MAX_SACK_BLOCKS: usize = 3;

/// Bytes each block adds to an ACK (`ch->size() += sack_index * 8`, tcp/tcp-sink.cc:755).
pub const SACK_BLOCK_BYTES: u32 = 8;

/// Up to three SACK blocks, most recent first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    pub n: u8,
    pub b: [(u64, u64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.b[..self.n as usize]
    }
    fn push(&mut self, l: i64, r: i64) {
        self.b[self.n as usize] = (l as u64, r as u64);
        self.n += 1;
    }
}

/// The receiver's memory of recent blocks (ns-2 `SackStack`, tcp/tcp-sink.cc:483), -1 = empty.
#[derive(Clone, Debug)]
pub struct Sacker {
    stack: [(i64, i64); MAX_SACK_BLOCKS],
    cnt: usize,
}

impl Default for Sacker {
    fn default() -> Self {
        Sacker { stack: [(-1, -1); MAX_SACK_BLOCKS], cnt: 0 }
    }
}

impl Sacker {
    fn reset(&mut self) {
        self.stack = [(-1, -1); MAX_SACK_BLOCKS];
        self.cnt = 0;
    }

    /// What `blocks` does when the cumulative ACK has reached the highest packet seen: it reports no
    /// block and empties its memory.
    pub fn forget(&mut self) {
        if self.cnt != 0 {
            self.reset();
        }
    }
    fn pop(&mut self, n: usize) {
        let mut i = n;
        while i + 1 < self.cnt {
            self.stack[i] = self.stack[i + 1];
            i += 1;
        }
        self.stack[i] = (-1, -1);
        self.cnt -= 1;
    }
    fn push(&mut self, e: (i64, i64)) {
        if self.cnt >= MAX_SACK_BLOCKS {
            self.cnt = MAX_SACK_BLOCKS - 1;
        }
        let mut i = self.cnt;
        while i > 0 {
            self.stack[i] = self.stack[i - 1];
            i -= 1;
        }
        self.cnt += 1;
        self.stack[0] = e;
    }

    /// `Sacker::append_ack`: the blocks of the ACK for packet `old` (generateDSacks_ false). `cum` is
    /// the last in-order packet (-1: none), `maxseen` the highest received, `seen(i)` whether packet i
    /// has arrived, `is_dup` whether `old` had arrived before.
    pub fn blocks(
        &mut self,
        old: i64,
        cum: i64,
        maxseen: i64,
        is_dup: bool,
        seen: impl Fn(i64) -> bool,
    ) -> SackBlocks {
        let mut out = SackBlocks::default();
        if cum >= maxseen && self.cnt != 0 {
            self.reset();
            return out;
        }
        if !(cum < maxseen || is_dup) {
            return out;
        }
        // First block: the one holding the packet just received. A block remembered from an earlier ACK
        // is all received (packets never leave the receiver), so a scan that reaches one can jump over it
        // to its edge, where it checks the one packet beyond: the same edges as the packet-by-packet scan
        // of append_ack, without walking a long run of out-of-order packets on every arrival.
        let known = &self.stack[..self.cnt];
        let mut right = -1;
        let mut i = old;
        while i <= maxseen {
            if !seen(i) {
                right = i;
                break;
            }
            match known.iter().find(|&&(l, r)| l == i + 1 && r > l) {
                Some(&(_, r)) => i = r,
                None => i += 1,
            }
        }
        if right == -1 {
            right = maxseen + 1;
        }
        let mut left = -1;
        if old <= cum {
            left = 0;
        } else {
            let mut i = right - 1;
            while i > cum {
                if let Some(&(l, _)) = known.iter().find(|&&(l, r)| r == i + 1 && l <= i) {
                    if l - 1 < i && l - 1 > cum {
                        i = l - 1;
                        if !seen(i) {
                            left = i + 1;
                            break;
                        }
                        continue;
                    }
                }
                if !seen(i) {
                    left = i + 1;
                    break;
                }
                i -= 1;
            }
            out.push(left, right);
        }
        let recent = (left, right);
        // Then the most recent earlier blocks, skipping those the first one covers.
        let mut k = 0;
        while (out.n as usize) < MAX_SACK_BLOCKS && k < MAX_SACK_BLOCKS {
            let (l, r) = self.stack[k];
            if l < 0 || r < 0 || r > maxseen + 1 {
                break;
            }
            if recent.0 <= l && recent.1 >= r {
                self.pop(k);
                continue;
            }
            out.push(l, r);
            k += 1;
        }
        if old > cum {
            self.push(recent);
        }
        out
    }
}

/// Blocks sent with ACKs and not yet read by the sender, keyed by the ACK's serial number.
///
/// Every ACK gets a serial, but only the ACKs with blocks get an entry: most ACKs carry none, and for
/// them recording is a count and taking a test.
#[derive(Clone, Debug, Default)]
pub struct SackLog {
    /// The serial the next ACK gets.
    next: u64,
    /// The ACKs with blocks not yet taken, in serial order. Taking an ACK drops the entries of earlier
    /// serials (ACKs lost or overtaken on the way), so all are above every serial taken: an ACK that
    /// arrives after a later one was taken finds nothing, without a test of its own.
    entries: VecDeque<(u64, SackBlocks)>,
}

impl SackLog {
    /// The serial of the next ACK.
    #[inline(always)]
    pub fn number(&mut self) -> u64 {
        self.next += 1;
        self.next - 1
    }

    /// Keeps the blocks of ACK `serial`, numbered above every ACK recorded before.
    pub fn record(&mut self, serial: u64, b: SackBlocks) {
        if b.n != 0 {
            self.entries.push_back((serial, b));
        }
    }

    /// The blocks of ACK `serial` if they are still kept, without taking them (for packet traces).
    pub fn peek(&self, serial: u64) -> Option<SackBlocks> {
        self.entries.iter().find(|(s, _)| *s == serial).map(|&(_, b)| b)
    }

    /// The blocks of ACK `serial`, None if it has none (most ACKs: the caller then copies no empty
    /// blocks) or is no longer kept; earlier entries (ACKs lost on the way) are dropped.
    #[inline]
    pub fn take(&mut self, serial: u64) -> Option<SackBlocks> {
        if self.entries.is_empty() {
            return None;
        }
        self.take_entry(serial)
    }

    fn take_entry(&mut self, serial: u64) -> Option<SackBlocks> {
        while let Some(&(s, b)) = self.entries.front() {
            if s > serial {
                break;
            }
            self.entries.pop_front();
            if s == serial {
                return Some(b);
            }
        }
        None
    }
}

/// The sender's scoreboard (`ScoreBoardRQ`): SACKed ranges above the cumulative ACK, the next hole to
/// retransmit, and whether the last update changed anything.
///
/// After a burst of losses the scoreboard holds hundreds of ranges, and it is read on every ACK of the
/// recovery, so nothing here walks all of them: the ranges' ends increase with their starts, so lookups
/// are binary searches, and the number of packets they cover is kept up to date rather than summed.
/// A search that mostly lands on the same range, or the next, tries those first: the next hole to
/// resend (at or after the last one) and the ranges the cumulative ACK passed (mostly none or the first).
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    /// Disjoint, sorted, non-adjacent [l, r) ranges (so both ends increase strictly).
    ranges: Vec<(u64, u64)>,
    /// Packets the ranges cover.
    covered: u64,
    /// Lowest packet not cumulatively acknowledged (ns-2 sack_min).
    sack_min: u64,
    /// Next candidate for retransmission (ns-2 h_seqno_; None = -1).
    h_seqno: Option<u64>,
    changed: bool,
    /// Where `next_retran` found its range last.
    retran_at: usize,
    /// The blocks of the last updates by their place in the ACK, with the index of the range that held
    /// each. An ACK's older blocks mostly repeat the previous ACK's, at the same place or one further,
    /// and a block that range still holds changes nothing: no search for it.
    held: [((u64, u64), usize); MAX_SACK_BLOCKS],
}

impl Scoreboard {
    pub fn clear(&mut self) {
        self.ranges.clear();
        self.covered = 0;
        self.h_seqno = None;
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The index of the first range that ends above `seq` (`ranges.len()` if none does): the only range
    /// that can hold `seq`, and the first one above it otherwise.
    fn first_ending_above(&self, seq: u64) -> usize {
        self.ranges.partition_point(|&(_, r)| r <= seq)
    }

    /// `first_ending_above(seq)`, tried at `hint` and `hint + 1` before a binary search.
    #[inline(always)]
    fn first_ending_above_from(&self, hint: usize, seq: u64) -> usize {
        let below = |&(_, r): &(u64, u64)| r <= seq;
        let n = self.ranges.len();
        for p in [hint, hint + 1] {
            if p <= n && (p == 0 || below(&self.ranges[p - 1])) && (p == n || !below(&self.ranges[p])) {
                return p;
            }
        }
        self.first_ending_above(seq)
    }

    /// Adds block [l, r); returns the index of the range that holds it (of the first range above it if
    /// it is empty).
    fn add(&mut self, l: u64, r: u64) -> usize {
        if r <= l {
            return 0;
        }
        let start = self.first_ending_at_or_above(l);
        // Most blocks after an ACK's first repeat what the scoreboard already holds.
        let known = self.ranges.get(start).is_some_and(|&(a, b)| a <= l && r <= b);
        if !known {
            self.merge(start, l, r);
        }
        self.sack_min_over_first();
        start
    }

    /// Whether the range at `i` holds [l, r).
    #[inline(always)]
    fn holds(&self, i: usize, l: u64, r: u64) -> bool {
        self.ranges.get(i).is_some_and(|&(a, b)| a <= l && r <= b)
    }

    /// ReassemblyQueue::add moves rcv_nxt_ (sack_min) over a block starting at or below it.
    #[inline(always)]
    fn sack_min_over_first(&mut self) {
        if let Some(&(a, b)) = self.ranges.first() {
            if a <= self.sack_min {
                self.sack_min = self.sack_min.max(b);
            }
        }
    }

    /// The index of the first range that ends at or above `l`: where a block starting at `l` goes. The
    /// newest block usually extends the highest range, so that one is tried before the search.
    fn first_ending_at_or_above(&self, l: u64) -> usize {
        match self.ranges.last() {
            Some(&(a, b)) if a <= l => self.ranges.len() - usize::from(b >= l),
            _ => self.ranges.partition_point(|x| x.1 < l),
        }
    }

    /// Merges [l, r) in place with every range from `start` on that it overlaps or touches (the ranges
    /// stay sorted, disjoint and non-adjacent); no allocation, as this runs for every new block.
    fn merge(&mut self, start: usize, l: u64, r: u64) {
        let (mut lo, mut hi, mut end) = (l, r, start);
        while let Some(&(a, b)) = self.ranges.get(end) {
            if a > hi {
                break;
            }
            lo = lo.min(a);
            hi = hi.max(b);
            self.covered -= b - a;
            end += 1;
        }
        self.covered += hi - lo;
        match end - start {
            0 => self.ranges.insert(start, (lo, hi)),
            1 => self.ranges[start] = (lo, hi),
            _ => {
                self.ranges[start] = (lo, hi);
                self.ranges.drain(start + 1..end);
            }
        }
    }

    /// `UpdateScoreBoard(last_ack_, tcph)`: `snd_una` is the cumulative ACK (next expected).
    pub fn update(&mut self, snd_una: u64, blocks: &[(u64, u64)]) {
        let old_covered = self.covered;
        self.changed = false;
        let mut gone = 0;
        if self.sack_min < snd_una {
            self.sack_min = snd_una;
            if !self.ranges.is_empty() {
                // The ranges ending at or below sack_min are a prefix, mostly of none or one range.
                gone = self.first_ending_above_from(0, snd_una);
                for (l, r) in self.ranges.drain(..gone) {
                    self.covered -= r - l;
                }
                self.changed = true;
            }
        }
        let held = self.held;
        for (k, &(l, r)) in blocks.iter().enumerate() {
            let at = match held[k.saturating_sub(1)..=k].iter().find(|h| h.0 == (l, r)) {
                Some(&(_, i)) if l < r && self.holds(i.wrapping_sub(gone), l, r) => {
                    self.sack_min_over_first();
                    i.wrapping_sub(gone)
                }
                _ => self.add(l, r),
            };
            self.held[k] = ((l, r), at);
        }
        self.changed = self.changed || old_covered != self.covered;
    }

    pub fn changed(&self) -> bool {
        self.changed
    }

    /// `GetNextRetran`: the first hole at or above h_seqno that has SACKed data above it.
    pub fn next_retran(&mut self) -> Option<u64> {
        let mut seq = self.h_seqno.unwrap_or(0).max(self.sack_min);
        let i = self.first_ending_above_from(self.retran_at, seq);
        self.retran_at = i;
        // Some range must start above the hole: the one after seq's own range if seq is covered (the
        // hole is then at that range's end), else the range found, which starts above seq.
        let &(l, r) = self.ranges.get(i)?;
        if l <= seq {
            self.ranges.get(i + 1)?;
            seq = r;
        }
        if self.h_seqno.is_none_or(|h| seq > h) {
            self.h_seqno = Some(seq);
        }
        Some(seq)
    }

    /// `MarkRetran`.
    pub fn mark_retran(&mut self, seq: u64) {
        if self.h_seqno.is_none_or(|h| seq >= h) {
            self.h_seqno = Some(seq + 1);
        }
    }

    /// `GetNextUnacked(seq)`: the first packet at or above `seq` not SACKed (None if nothing is SACKed
    /// at or above it).
    pub fn next_unacked(&self, seq: u64) -> Option<u64> {
        let &(l, r) = self.ranges.get(self.first_ending_above_from(0, seq))?;
        Some(if l > seq { seq } else { r })
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        self.ranges.get(self.first_ending_above(seq)).is_some_and(|&(l, _)| l <= seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a receiver that got `arrived` packets in this order; returns each ACK's blocks.
    fn run(arrived: &[i64]) -> Vec<Vec<(u64, u64)>> {
        let mut seen = std::collections::BTreeSet::new();
        let mut cum = -1i64;
        let mut maxseen = -1i64;
        let mut s = Sacker::default();
        let mut out = Vec::new();
        for &p in arrived {
            let dup = !seen.insert(p);
            maxseen = maxseen.max(p);
            while seen.contains(&(cum + 1)) {
                cum += 1;
            }
            let b = s.blocks(p, cum, maxseen, dup, |i| seen.contains(&i));
            out.push(b.as_slice().to_vec());
        }
        out
    }

    #[test]
    fn newest_block_first_at_most_three() {
        // 0 arrives, 1 lost, 2 arrives, 3 lost, 4, 5 lost, 6, 7 lost, 8.
        let acks = run(&[0, 2, 4, 6, 8]);
        assert_eq!(acks[0], vec![]);
        assert_eq!(acks[1], vec![(2, 3)]);
        assert_eq!(acks[2], vec![(4, 5), (2, 3)]);
        assert_eq!(acks[3], vec![(6, 7), (4, 5), (2, 3)]);
        // Four islands: only the three most recent are reported.
        assert_eq!(acks[4], vec![(8, 9), (6, 7), (4, 5)]);
    }

    #[test]
    fn growing_block_replaces_its_older_copy_and_reset_at_the_edge() {
        let acks = run(&[0, 2, 3, 5, 1, 4]);
        assert_eq!(acks[1], vec![(2, 3)]);
        assert_eq!(acks[2], vec![(2, 4)], "the older (2,3) is covered and popped");
        assert_eq!(acks[3], vec![(5, 6), (2, 4)]);
        // 1 fills the first hole: cum = 3, 4 still missing; 1 is in order, so no first block.
        assert_eq!(acks[4], vec![(5, 6)]);
        // 4 fills the last hole: the cumulative ACK reaches maxseen and the history is emptied.
        assert_eq!(acks[5], vec![]);
    }

    #[test]
    fn scoreboard_holes_in_order() {
        let mut sb = Scoreboard::default();
        sb.update(1, &[(2, 3), (4, 5), (6, 7)]);
        assert!(sb.changed());
        assert_eq!(sb.next_retran(), Some(1));
        sb.mark_retran(1);
        assert_eq!(sb.next_retran(), Some(3));
        sb.mark_retran(3);
        assert_eq!(sb.next_retran(), Some(5));
        sb.mark_retran(5);
        assert_eq!(sb.next_retran(), None, "no SACKed data above 7");
        sb.update(1, &[(6, 7)]);
        assert!(!sb.changed());
        assert_eq!(sb.next_unacked(1), Some(1));
        assert_eq!(sb.next_unacked(2), Some(3));
    }

    /// A deterministic stream of numbers below the bound asked (xorshift64 from `seed`, non-zero).
    fn xorshift_below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed;
        move |n| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        }
    }

    /// The scoreboard's lookups against the linear scans they replaced, over random SACK updates.
    #[test]
    fn scoreboard_lookups_match_linear_scans() {
        let mut rand = xorshift_below(0x2545_f491_4f6c_dd1d);
        for _ in 0..200 {
            let mut sb = Scoreboard::default();
            let mut una = 0;
            for _ in 0..60 {
                una += rand(4);
                let blocks: Vec<_> = (0..rand(4))
                    .map(|_| {
                        let l = una + rand(80);
                        (l, l + rand(6))
                    })
                    .collect();
                let before: u64 = sb.ranges.iter().map(|(l, r)| r - l).sum();
                let had = !sb.ranges.is_empty() && sb.sack_min < una;
                sb.update(una, &blocks);
                let total: u64 = sb.ranges.iter().map(|(l, r)| r - l).sum();
                assert_eq!(sb.covered, total);
                assert_eq!(sb.changed(), had || before != total);
                assert!(sb.ranges.windows(2).all(|w| w[0].1 < w[1].0));
                for seq in una.saturating_sub(2)..una + 90 {
                    let linear = sb
                        .ranges
                        .iter()
                        .find_map(|&(l, r)| (l > seq).then_some(seq).or((seq < r).then_some(r)));
                    assert_eq!(sb.next_unacked(seq), linear);
                    let covered = sb.ranges.iter().any(|&(l, r)| l <= seq && seq < r);
                    assert_eq!(sb.is_sacked(seq), covered);
                }
                if rand(3) == 0 {
                    let mut seq = sb.h_seqno.unwrap_or(0).max(sb.sack_min);
                    let mut expect = None;
                    let mut last = false;
                    for (i, &(l, r)) in sb.ranges.iter().enumerate() {
                        if l > seq {
                            break;
                        }
                        if seq < r {
                            last = i + 1 == sb.ranges.len();
                            seq = r;
                            break;
                        }
                    }
                    if !last && sb.ranges.iter().any(|&(l, _)| l > seq) {
                        expect = Some(seq);
                    }
                    let got = sb.next_retran();
                    assert_eq!(got, expect);
                    if let Some(s) = got {
                        sb.mark_retran(s + rand(3));
                    }
                }
                if rand(20) == 0 {
                    sb.clear();
                }
            }
        }
    }

    /// Updates with ACK-like blocks (the newest first, then the previous ACK's, as a receiver repeats
    /// them) against the same updates each made without the blocks held from the previous update.
    #[test]
    fn held_blocks_change_nothing_a_full_update_would() {
        let mut rand = xorshift_below(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let (mut sb, mut full) = (Scoreboard::default(), Scoreboard::default());
            let mut una = 0;
            let mut prev: Vec<(u64, u64)> = Vec::new();
            for _ in 0..80 {
                if rand(4) == 0 {
                    una += rand(6);
                }
                let l = una + rand(60);
                let mut blocks = vec![(l, l + rand(5))];
                // The previous blocks at the same place or one further, or not at all.
                let skip = rand(3) as usize;
                blocks.extend(prev.iter().skip(skip.min(1)).take(MAX_SACK_BLOCKS - 1));
                if skip == 2 {
                    blocks.truncate(1);
                }
                full.held = Default::default();
                sb.update(una, &blocks);
                full.update(una, &blocks);
                assert_eq!(
                    (&sb.ranges, sb.covered, sb.sack_min, sb.changed),
                    (&full.ranges, full.covered, full.sack_min, full.changed)
                );
                prev = blocks;
                if rand(25) == 0 {
                    sb.clear();
                    full.clear();
                }
            }
        }
    }

    #[test]
    fn log_drops_lost_acks() {
        let mut log = SackLog::default();
        let mut b = SackBlocks::default();
        b.push(5, 6);
        // ACKs 0 and 3 have no blocks: no entries.
        assert_eq!((log.number(), log.number()), (0, 1));
        log.record(0, SackBlocks::default());
        log.record(1, b);
        assert_eq!(log.take(1), Some(b));
        assert_eq!(log.take(0), None);
        log.record(2, b);
        log.record(3, SackBlocks::default());
        log.record(4, b);
        assert_eq!(log.peek(2), Some(b));
        assert_eq!(log.peek(3), None);
        assert_eq!(log.take(3), None);
        assert_eq!(log.peek(2), None, "taking a later ACK drops the earlier ones");
        assert_eq!(log.take(2), None, "passed over");
        assert_eq!(log.take(4), Some(b));
        assert!(log.entries.is_empty());
    }
}
