//! The FIFO every single-queue discipline keeps (drop-tail, RED, CoDel, PIE): waiting packets in arrival
//! order, with the bytes they hold, so that byte buffers and byte-mode rules cost nothing to read.

use super::{fits, Waiting};
use crate::model::Buffer;
use crate::net::Packet;
use crate::time::Time;
use std::collections::VecDeque;

#[derive(Default)]
pub struct Fifo {
    queue: VecDeque<Waiting>,
    bytes: u64,
}

impl Fifo {
    /// Whether a packet of `size` bytes fits in `buffer` beside what waits.
    pub fn fits(&self, buffer: Buffer, size: u32) -> bool {
        fits(buffer, self.len(), self.bytes, size)
    }

    pub fn push(&mut self, now: Time, pkt: Packet) {
        self.bytes += pkt.size as u64;
        self.queue.push_back(Waiting { pkt, since: now });
    }

    pub fn pop(&mut self) -> Option<Waiting> {
        let w = self.queue.pop_front()?;
        self.bytes -= w.pkt.size as u64;
        Some(w)
    }

    pub fn front(&self) -> Option<&Waiting> {
        self.queue.front()
    }

    /// The waiting packets, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Waiting> {
        self.queue.iter()
    }

    pub fn len(&self) -> u64 {
        self.queue.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Takes every packet out, oldest first.
    pub fn drain(&mut self) -> Vec<Packet> {
        self.bytes = 0;
        self.queue.drain(..).map(|w| w.pkt).collect()
    }
}
