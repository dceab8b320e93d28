//! A sender's per-flow statistics: packets sent, retransmissions, fast retransmits, timeouts, RTT samples,
//! the inter-ACK delay and its jitter (P003's IPD), and the time average of the window. These are
//! measurement, not protocol: the sender updates them through the small methods below and decides nothing
//! on them (the delivery-rate sampler reads the minimum RTT). The summary and the recorder read the public
//! fields.
//!
//! `on_transmit`, `on_new_ack`, `on_rtt_sample` and `account_cwnd` run per packet: they are inlined, so
//! counting costs what it cost written out inside the sender.

use crate::time::{run_time_f64, Time};

/// No value yet, in the fields below that would otherwise be `Option`s.
const NONE: Time = Time::MAX;

/// `v` unless it is the `NONE` sentinel.
#[inline]
fn some(v: Time) -> Option<Time> {
    (v != NONE).then_some(v)
}

#[derive(Clone, Debug)]
pub struct SenderStats {
    pub pkts_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ns: f64,
    /// The smallest and the latest RTT sample, `NONE` before the first (`rtt_min()`, `last_rtt()`):
    /// a sentinel rather than an `Option`, which cost a tag and a select on every sample.
    rtt_min: Time,
    last_rtt: Time,
    /// ∫ cwnd dt over the active time, packets·ns.
    pub cwnd_integral: f64,
    pub cwnd_since: Time,
    pub completed_at: Option<Time>,
    /// When the last three new ACKs arrived, latest first, `NONE` before there were that many. The
    /// inter-ACK delay and its jitter are computed from them when read (`ipd()`, `ipd_jitter()`): a new
    /// ACK only shifts them, where computing both on it cost 14 instructions.
    new_ack_times: [Time; 3],
    /// The window average is being accumulated (from start until completion or the end of the run).
    active: bool,
}

impl Default for SenderStats {
    fn default() -> Self {
        SenderStats {
            pkts_sent: 0,
            retransmits: 0,
            fast_retransmits: 0,
            timeouts: 0,
            rtt_samples: 0,
            rtt_sum_ns: 0.0,
            rtt_min: NONE,
            last_rtt: NONE,
            cwnd_integral: 0.0,
            cwnd_since: 0,
            completed_at: None,
            new_ack_times: [NONE; 3],
            active: false,
        }
    }
}

impl SenderStats {
    /// The smallest RTT sample so far.
    pub fn rtt_min(&self) -> Option<Time> {
        some(self.rtt_min)
    }

    /// The latest RTT sample.
    pub fn last_rtt(&self) -> Option<Time> {
        some(self.last_rtt)
    }

    /// The latest inter-ACK delay of new ACKs.
    pub fn ipd(&self) -> Option<Time> {
        let [last, before, _] = self.new_ack_times;
        some(before).map(|b| last - b)
    }

    /// The latest inter-ACK delay's change from the one before.
    pub fn ipd_jitter(&self) -> Option<Time> {
        let [last, before, first] = self.new_ack_times;
        some(first).map(|f| (last - before).abs_diff(before - f))
    }

    /// The flow starts at `now`: the window average runs from here.
    #[inline]
    pub fn start(&mut self, now: Time) {
        self.active = true;
        self.cwnd_since = now;
    }

    /// Adds the window held since the last call to the window average (while it is accumulated) and
    /// restarts the interval at `now`. `window` is asked only when it counts (a virtual call).
    #[inline(always)]
    pub fn account_cwnd(&mut self, now: Time, window: impl FnOnce() -> f64) {
        if self.active {
            let dt = run_time_f64(now.saturating_sub(self.cwnd_since));
            self.cwnd_integral += window() * dt;
        }
        self.cwnd_since = now;
    }

    /// The window average stops accumulating (at completion or at the end of the run, after a last
    /// `account_cwnd`).
    #[inline]
    pub fn stop_average(&mut self) {
        self.active = false;
    }

    /// Records that the transfer completed at `now`; true the first time only.
    #[inline]
    pub fn record_completion(&mut self, now: Time) -> bool {
        let first = self.completed_at.is_none();
        if first {
            self.completed_at = Some(now);
        }
        first
    }

    /// A data packet left (a first transmission or, with `retransmit`, a retransmission).
    #[inline(always)]
    pub fn on_transmit(&mut self, retransmit: bool) {
        self.pkts_sent += 1;
        if retransmit {
            self.retransmits += 1;
        }
    }

    /// A new cumulative ACK arrived at `now`, for the inter-ACK delay of new ACKs (duplicates are ignored)
    /// and its change from the one before.
    #[inline(always)]
    pub fn on_new_ack(&mut self, now: Time) {
        let [last, before, _] = self.new_ack_times;
        self.new_ack_times = [now, last, before];
    }

    /// An RTT sample (from a first transmission, Karn's rule).
    #[inline(always)]
    pub fn on_rtt_sample(&mut self, rtt: Time) {
        self.rtt_samples += 1;
        self.rtt_sum_ns += run_time_f64(rtt);
        // Below `NONE`: an RTT is nanoseconds of a run, never 2^64 - 1.
        self.rtt_min = self.rtt_min.min(rtt);
        self.last_rtt = rtt;
    }

    #[inline]
    pub fn on_fast_retransmit(&mut self) {
        self.fast_retransmits += 1;
    }

    #[inline]
    pub fn on_timeout(&mut self) {
        self.timeouts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::SenderStats;

    #[test]
    fn the_window_average_counts_only_the_active_time() {
        let mut s = SenderStats::default();
        s.account_cwnd(100, || panic!("not active yet: the window is not asked"));
        s.start(1_000);
        s.account_cwnd(3_000, || 10.0);
        assert_eq!((s.cwnd_integral, s.cwnd_since), (20_000.0, 3_000));
        s.account_cwnd(4_000, || 5.0);
        s.stop_average();
        s.account_cwnd(9_000, || panic!("stopped: the window is not asked"));
        assert_eq!((s.cwnd_integral, s.cwnd_since), (25_000.0, 9_000));
    }

    #[test]
    fn inter_ack_delay_and_its_jitter() {
        let mut s = SenderStats::default();
        s.on_new_ack(100);
        assert_eq!((s.ipd(), s.ipd_jitter()), (None, None));
        s.on_new_ack(130);
        assert_eq!((s.ipd(), s.ipd_jitter()), (Some(30), None));
        s.on_new_ack(150);
        assert_eq!((s.ipd(), s.ipd_jitter()), (Some(20), Some(10)));
    }

    #[test]
    fn rtt_samples_and_completion() {
        let mut s = SenderStats::default();
        s.on_rtt_sample(50);
        s.on_rtt_sample(30);
        s.on_rtt_sample(40);
        assert_eq!((s.rtt_samples, s.rtt_sum_ns, s.rtt_min(), s.last_rtt()), (3, 120.0, Some(30), Some(40)));
        assert!(s.record_completion(7));
        assert!(!s.record_completion(9));
        assert_eq!(s.completed_at, Some(7));
    }
}
