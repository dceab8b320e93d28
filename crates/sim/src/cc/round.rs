//! RTT rounds counted by sequence numbers, as Vegas and the FAST module do: a round ends when the ACK for
//! the first packet sent after the previous round ended arrives.

#[derive(Clone, Debug, Default)]
pub struct Rounds {
    end_seq: u64,
    pub count: u64,
}

impl Rounds {
    /// Call on every new ACK. Returns true when this ACK completes a round; the next round then ends once
    /// everything sent up to now (`snd_nxt`) is acknowledged.
    #[inline]
    pub fn on_ack(&mut self, snd_una: u64, snd_nxt: u64) -> bool {
        if snd_una > self.end_seq {
            self.end_seq = snd_nxt;
            self.count += 1;
            true
        } else {
            false
        }
    }

    /// Starts a fresh round now (after recovery or a timeout).
    pub fn restart(&mut self, snd_nxt: u64) {
        self.end_seq = snd_nxt;
    }
}

#[cfg(test)]
mod tests {
    use super::Rounds;

    #[test]
    fn one_round_per_window() {
        let mut r = Rounds::default();
        // Window of 4 sent (0..4): the first ACK ends round 0 and the next round ends at seq 4.
        assert!(r.on_ack(1, 4));
        assert!(!r.on_ack(2, 5));
        assert!(!r.on_ack(4, 7));
        assert!(r.on_ack(5, 8));
        assert_eq!(r.count, 2);
    }
}
