//! Source routes: each route is a list of link-direction indices, stored flat. Packets carry a route id
//! and their hop number, as in htsim, so forwarding is an array lookup.

#[derive(Default)]
pub struct Routes {
    hops: Vec<u32>,
    spans: Vec<(u32, u32)>,
}

impl Routes {
    pub fn add(&mut self, dirs: &[u32]) -> u32 {
        // `first` relies on it: a route with no hop would read the next route's first.
        assert!(!dirs.is_empty(), "a route has at least one hop (the scenario layer checks src != dst)");
        let start = self.hops.len() as u32;
        self.hops.extend_from_slice(dirs);
        self.spans.push((start, dirs.len() as u32));
        (self.spans.len() - 1) as u32
    }

    #[inline]
    pub fn hop(&self, route: u32, hop: u16) -> Option<u32> {
        let (start, len) = self.spans[route as usize];
        if (hop as u32) < len {
            Some(self.hops[(start + hop as u32) as usize])
        } else {
            None
        }
    }

    /// The first hop of `route`. Every route has one, so a packet just sent is never delivered at once:
    /// the simulation's send path then never calls its delivery path, which can be inlined.
    #[inline]
    pub fn first(&self, route: u32) -> u32 {
        self.hops[self.spans[route as usize].0 as usize]
    }

    pub fn dirs(&self, route: u32) -> &[u32] {
        let (start, len) = self.spans[route as usize];
        &self.hops[start as usize..(start + len) as usize]
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}
