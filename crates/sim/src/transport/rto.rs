//! Retransmission timeout per RFC 6298: SRTT/RTTVAR from RTT samples (Karn's rule is applied by the
//! caller, which only passes samples of packets sent once), RTO = SRTT + 4·RTTVAR clamped to
//! [min_rto, max_rto], doubled on each expiry (exponential backoff) until a new sample arrives.

use crate::time::{round_ns, Time};

#[derive(Clone, Debug)]
pub struct RtoEstimator {
    srtt: Option<f64>,
    rttvar: f64,
    base_rto: Time,
    backoff: u32,
    min_rto: Time,
    max_rto: Time,
}

impl RtoEstimator {
    pub fn new(initial: Time, min_rto: Time, max_rto: Time) -> Self {
        RtoEstimator {
            srtt: None,
            rttvar: 0.0,
            base_rto: initial.clamp(min_rto, max_rto),
            backoff: 0,
            min_rto,
            max_rto,
        }
    }

    pub fn on_sample(&mut self, rtt: Time) {
        let r = rtt as f64;
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(s) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (s - r).abs();
                self.srtt = Some(0.875 * s + 0.125 * r);
            }
        }
        let rto = self.srtt.unwrap_or(r) + 4.0 * self.rttvar;
        self.base_rto = round_ns(rto).clamp(self.min_rto, self.max_rto);
        self.backoff = 0;
    }

    pub fn on_timeout(&mut self) {
        self.backoff = (self.backoff + 1).min(32);
    }

    /// The current timeout, with backoff applied.
    pub fn rto(&self) -> Time {
        let factor = 1u64.checked_shl(self.backoff).unwrap_or(u64::MAX);
        self.base_rto.saturating_mul(factor).min(self.max_rto)
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt.map(round_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const MS: Time = 1_000_000;

    #[test]
    fn rfc6298_first_and_later_samples() {
        let mut r = RtoEstimator::new(1000 * MS, 200 * MS, 60_000 * MS);
        assert_eq!(r.rto(), 1000 * MS);
        r.on_sample(100 * MS);
        // SRTT = 100, RTTVAR = 50, RTO = 300 ms.
        assert_eq!(r.rto(), 300 * MS);
        r.on_sample(100 * MS);
        // RTTVAR = 37.5, RTO = 250 ms.
        assert_eq!(r.rto(), 250 * MS);
        r.on_timeout();
        r.on_timeout();
        assert_eq!(r.rto(), 1000 * MS);
        r.on_sample(100 * MS);
        assert!(r.rto() < 300 * MS);
    }

    #[test]
    fn clamped_to_min_and_max() {
        let mut r = RtoEstimator::new(1000 * MS, 200 * MS, 2000 * MS);
        r.on_sample(MS);
        assert_eq!(r.rto(), 200 * MS);
        for _ in 0..10 {
            r.on_timeout();
        }
        assert_eq!(r.rto(), 2000 * MS);
    }
}
