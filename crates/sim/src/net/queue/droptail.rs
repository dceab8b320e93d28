//! Drop-tail FIFO: keep arrivals while the buffer has room, send them in order. The discipline every
//! direction has by default; a fixed-rate direction runs it inline (`link.rs`), a managed one (with a
//! varying capacity) through this file.

use super::fifo::Fifo;
use super::{QueueContext, QueueCounters, QueueDiscipline, Waiting};
use crate::model::{Buffer, ParamSpec, Params};
use crate::net::Packet;
use crate::time::Time;

/// Drop-tail has no parameters: the direction's `buffer` is its limit.
pub const PARAMS: &[ParamSpec] = &[];

pub struct DropTail {
    buffer: Buffer,
    fifo: Fifo,
    counters: QueueCounters,
}

pub fn build(_params: &Params, ctx: &QueueContext) -> Box<dyn QueueDiscipline> {
    Box::new(DropTail { buffer: ctx.buffer, fifo: Fifo::default(), counters: Default::default() })
}

impl QueueDiscipline for DropTail {
    fn enqueue(&mut self, now: Time, pkt: Packet) -> bool {
        if !self.fifo.fits(self.buffer, pkt.size) {
            self.counters.overflow_drops += 1;
            return false;
        }
        self.fifo.push(now, pkt);
        true
    }

    fn dequeue(&mut self, _now: Time, _dropped: &mut Vec<Packet>) -> Option<Waiting> {
        self.fifo.pop()
    }

    fn len_packets(&self) -> u64 {
        self.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    fn drain(&mut self) -> Vec<Packet> {
        self.fifo.drain()
    }

    fn counters(&self) -> QueueCounters {
        self.counters
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn keeps_order_and_drops_at_the_tail_when_full() {
        let ctx = QueueContext {
            buffer: Buffer::Packets(2),
            bps: 1e6,
            delay: 0,
            mtu: 1000,
            rng: Rng::stream(1, "q"),
        };
        let mut q = build(&Params::default(), &ctx);
        let p = |seq| Packet { seq, size: 1000, ..Packet::EMPTY };
        assert!(q.enqueue(0, p(0)) && q.enqueue(1, p(1)));
        assert!(!q.enqueue(2, p(2)));
        assert_eq!((q.len_packets(), q.len_bytes()), (2, 2000));
        let mut dropped = Vec::new();
        let first = q.dequeue(5, &mut dropped).unwrap();
        assert_eq!((first.pkt.seq, first.since), (0, 0));
        assert_eq!(q.drain().iter().map(|p| p.seq).collect::<Vec<_>>(), vec![1]);
        assert_eq!(q.counters().overflow_drops, 1);
        assert!(dropped.is_empty() && q.dequeue(6, &mut dropped).is_none());
    }
}
