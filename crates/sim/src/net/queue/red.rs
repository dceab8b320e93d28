//! RED (Floyd & Jacobson 1993) as ns-2.35's `Queue/RED` runs it (queue/red.cc): an exponentially
//! weighted average of the queue, decayed over idle time as if packets of mean_pktsize had kept arriving
//! to an empty queue; a drop probability that rises from 0 at min_th to max_p at max_th (and, gentle, to 1
//! at 2 max_th); the count since the last drop spreading drops evenly; ECN marks instead of drops where
//! ns-2 marks. ns-2's defaults, its automatic thresholds and weight, and its byte mode are in `params.rs`.
//!
//! Not modelled, because ns-2.35's defaults leave them off: adaptive RED (`adaptive_`), `cautious_`,
//! `drop_front_` and `drop_rand_` (the arriving packet is the one dropped, as with ns-2's `drop_tail_`).

mod params;
#[cfg(test)]
mod tests;

pub use params::{check, Config, PARAMS};

use super::fifo::Fifo;
use super::{QueueContext, QueueCounters, QueueDiscipline, Waiting};
use crate::model::{Buffer, Params};
use crate::net::Packet;
use crate::rng::Rng;
use crate::time::{secs, Time};

pub struct Red {
    cfg: Config,
    buffer: Buffer,
    rng: Rng,
    fifo: Fifo,
    /// The average queue (ns-2's v_ave), in bytes or packets as `cfg.queue_in_bytes` says.
    ave: f64,
    /// Arrivals (and their bytes) since the last drop or mark, this one included (ns-2's count,
    /// count_bytes).
    count: u64,
    count_bytes: u64,
    /// Whether the previous arrival already found the average at or above min_th (ns-2's `old`): the first
    /// one that does only restarts the count.
    old: bool,
    /// Whether the transmitter found the queue empty, and when (ns-2's idle_, idletime_).
    idle: bool,
    idle_since: Time,
    /// The last arrival or departure: where a drain (the link went down) leaves the queue idle from.
    last_event: Time,
    counters: QueueCounters,
}

/// What RED decided for an arrival before the buffer had its say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Keep,
    Mark,
    /// Dropped by probability (ns-2's unforced drop).
    Drop,
    /// Dropped because the average is beyond the probabilistic region (ns-2's forced drop).
    Force,
}

pub fn build(params: &Params, ctx: &QueueContext) -> Box<dyn QueueDiscipline> {
    Box::new(Red::new(Config::new(params, ctx.bps, ctx.delay), ctx.buffer, ctx.rng.clone()))
}

impl Red {
    pub fn new(cfg: Config, buffer: Buffer, rng: Rng) -> Red {
        Red {
            cfg,
            buffer,
            rng,
            fifo: Fifo::default(),
            ave: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            // ns-2 starts idle since time 0 (red.cc `reset`).
            idle: true,
            idle_since: 0,
            last_event: 0,
            counters: QueueCounters::default(),
        }
    }

    /// The average queue, in the unit of the thresholds.
    pub fn average(&self) -> f64 {
        self.ave
    }

    /// The queue as the average counts it.
    fn current(&self) -> u64 {
        if self.cfg.queue_in_bytes {
            self.fifo.bytes()
        } else {
            self.fifo.len()
        }
    }

    /// The average after `m` arrivals that found `q` waiting (red.cc `estimator`): the old average
    /// weighs (1 - q_w)^m.
    fn estimate(&self, q: u64, m: u64) -> f64 {
        let keep = 1.0 - self.cfg.q_w;
        let mut ave = self.ave;
        if m > 1 {
            // ns-2 multiplies m - 1 times in a loop; one power is the same up to rounding, and an idle
            // second on a fast link would be a million multiplications.
            ave *= keep.powi((m - 1).min(i32::MAX as u64) as i32);
        }
        ave * keep + self.cfg.q_w * q as f64
    }

    /// The random decision for an arrival with the average in the probabilistic region (red.cc
    /// `drop_early`).
    fn early(&mut self, pkt: &Packet) -> Verdict {
        let p_b = self.cfg.base_probability(self.ave);
        let p = self.cfg.uniformised(p_b, self.count, self.count_bytes, pkt.size);
        // ns-2 tests u <= p with u in (0, 1); ours is in [0, 1), so `<` keeps p = 0 from ever dropping.
        if self.rng.uniform() >= p {
            return Verdict::Keep;
        }
        self.count = 0;
        self.count_bytes = 0;
        let may_mark = !self.cfg.use_mark_p || p_b <= self.cfg.mark_p;
        if self.cfg.ecn && pkt.ecn_capable() && may_mark {
            Verdict::Mark
        } else {
            Verdict::Drop
        }
    }
}

impl QueueDiscipline for Red {
    /// red.cc `enque`: the average first (with the idle time), then the count, then RED's verdict, and
    /// last the buffer, which drops whatever RED said.
    fn enqueue(&mut self, now: Time, mut pkt: Packet) -> bool {
        self.last_event = now;
        let mut m = 0;
        if self.idle {
            // As if the link had sent packets of mean_pktsize all the time it was idle (ns-2 truncates).
            self.idle = false;
            m = (self.cfg.ptc * secs(now.saturating_sub(self.idle_since))) as u64;
        }
        let q = self.current();
        self.ave = self.estimate(q, m + 1);
        self.count += 1;
        self.count_bytes += pkt.size as u64;
        let cfg = &self.cfg;
        let mut verdict = Verdict::Keep;
        // ns-2 leaves a queue of at most one packet (one byte in byte mode) alone whatever the average.
        if self.ave >= cfg.min_th && q > 1 {
            let beyond = if cfg.gentle { 2.0 * cfg.max_th } else { cfg.max_th };
            if !cfg.use_mark_p && self.ave >= beyond {
                verdict = Verdict::Force;
            } else if !self.old {
                // The average has just crossed min_th (or the queue has just become non-trivial).
                self.count = 1;
                self.count_bytes = pkt.size as u64;
                self.old = true;
            } else {
                verdict = self.early(&pkt);
            }
        } else {
            self.old = false;
        }
        if !self.fifo.fits(self.buffer, pkt.size) {
            // A forced drop restarts the count (ns-2's bug fix from Philip Liu, ns1_compat_ false).
            self.count = 0;
            self.count_bytes = 0;
            self.counters.overflow_drops += 1;
            return false;
        }
        match verdict {
            Verdict::Force => {
                self.count = 0;
                self.count_bytes = 0;
                self.counters.early_drops += 1;
                return false;
            }
            Verdict::Drop => {
                self.counters.early_drops += 1;
                return false;
            }
            Verdict::Mark => {
                pkt.mark_ce();
                self.counters.marks += 1;
            }
            Verdict::Keep => {}
        }
        self.fifo.push(now, pkt);
        true
    }

    fn dequeue(&mut self, now: Time, _dropped: &mut Vec<Packet>) -> Option<Waiting> {
        self.last_event = now;
        let Some(w) = self.fifo.pop() else {
            // The transmitter found nothing: idle from now (red.cc `deque`).
            self.idle = true;
            self.idle_since = now;
            return None;
        };
        Some(w)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    fn drain(&mut self) -> Vec<Packet> {
        self.idle = true;
        self.idle_since = self.last_event;
        self.fifo.drain()
    }

    fn counters(&self) -> QueueCounters {
        self.counters
    }
}
