//! Convergence time after fast recovery, as P003 defines it: T = T_LF − T_PD, from the third duplicate
//! ACK (T_PD) to the moment the flow has regained its share. Operationally (docs/experiments.md#metrics,
//! metric definitions): the first time after T_PD at which the window is back to at least the pre-loss window
//! minus one packet and stays there for one RTT.

use crate::time::Time;

#[derive(Clone, Debug, Default)]
pub struct ConvergenceTracker {
    /// (T_PD, pre-loss window) of the episode being watched.
    episode: Option<(Time, f64)>,
    /// When the window first came back (candidate T_LF), waiting for one RTT of confirmation.
    candidate: Option<Time>,
    /// Completed episodes: (T_PD, T_LF − T_PD) in nanoseconds.
    pub episodes: Vec<(Time, Time)>,
    /// Episodes cut short by a new loss or a timeout before the window came back.
    pub abandoned: u64,
}

impl ConvergenceTracker {
    /// Fast retransmit at `now` with the window the flow had just before the loss.
    pub fn on_loss(&mut self, now: Time, pre_loss_cwnd: f64) {
        if self.episode.is_some() {
            self.abandoned += 1;
        }
        self.episode = Some((now, pre_loss_cwnd));
        self.candidate = None;
    }

    pub fn on_timeout(&mut self) {
        if self.episode.take().is_some() {
            self.abandoned += 1;
        }
        self.candidate = None;
    }

    /// An episode is open: `on_ack` has something to check (callers skip computing its inputs otherwise).
    #[inline]
    pub fn watching(&self) -> bool {
        self.episode.is_some()
    }

    /// After every ACK outside recovery: the current window and smoothed RTT. The RTT is asked only once
    /// the window is back, which is not the case on most ACKs of an episode.
    #[inline]
    pub fn on_ack(&mut self, now: Time, cwnd: f64, rtt: impl FnOnce() -> Time) {
        let Some((t_pd, target)) = self.episode else { return };
        if cwnd >= target - 1.0 {
            let since = *self.candidate.get_or_insert(now);
            if now.saturating_sub(since) >= rtt() {
                self.episodes.push((t_pd, since - t_pd));
                self.episode = None;
                self.candidate = None;
            }
        } else {
            self.candidate = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_newreno_episode() {
        // Window 40 when the third dupack arrives at t = 10 s; RTT 100 ms. Recovery ends at 10.1 s with
        // cwnd 20, which then grows one packet per RTT: it reaches 39 = 40 - 1 after 19 RTTs, at 12.0 s,
        // and holds for an RTT. T = 12.0 - 10.0 = 2.0 s.
        let ms = 1_000_000;
        let mut c = ConvergenceTracker::default();
        c.on_loss(10_000 * ms, 40.0);
        let mut t = 10_100 * ms;
        let mut w = 20.0;
        while t <= 12_200 * ms {
            c.on_ack(t, w, || 100 * ms);
            t += 100 * ms;
            w += 1.0;
        }
        assert_eq!(c.episodes, vec![(10_000 * ms, 2_000 * ms)]);
    }

    #[test]
    fn a_dip_below_the_target_restarts_the_confirmation() {
        let mut c = ConvergenceTracker::default();
        c.on_loss(0, 10.0);
        c.on_ack(100, 9.0, || 50);
        c.on_ack(120, 8.5, || 50);
        c.on_ack(130, 9.5, || 50);
        c.on_ack(190, 9.5, || 50);
        assert_eq!(c.episodes, vec![(0, 130)]);
    }

    #[test]
    fn a_new_loss_abandons_the_episode() {
        let mut c = ConvergenceTracker::default();
        c.on_loss(0, 10.0);
        c.on_loss(5, 6.0);
        c.on_timeout();
        assert_eq!((c.episodes.len(), c.abandoned), (0, 2));
    }
}
