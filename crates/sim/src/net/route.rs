//! Source routes: each route is a list of link-direction indices, stored flat and ended by `END`.
//! Packets carry a route id and their hop number, as in htsim; the id is where the route starts in the
//! flat list, so forwarding is one array lookup (a table of each route's start and length cost a second
//! lookup, with its bounds check, per hop).

/// Ends each route in the flat list: the packet has arrived.
const END: u32 = u32::MAX;

/// A route's id with its first hop, which every send reads: a flow keeps both, so that sending does not
/// look the first hop up in the flat list (a bounds check and two loads, twice a packet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteRef {
    pub id: u32,
    pub first_hop: u32,
}

#[derive(Default)]
pub struct Routes {
    hops: Vec<u32>,
}

impl Routes {
    /// Adds a route through link directions `dirs`; returns its id and first hop.
    pub fn add(&mut self, dirs: &[u32]) -> RouteRef {
        // `first` relies on it: a route with no hop would be its own end.
        assert!(!dirs.is_empty(), "a route has at least one hop (the scenario layer checks src != dst)");
        assert!(!dirs.contains(&END), "link direction index {END} is reserved");
        let start = u32::try_from(self.hops.len()).expect("fewer than 2^32 hops over all routes");
        self.hops.extend_from_slice(dirs);
        self.hops.push(END);
        RouteRef { id: start, first_hop: dirs[0] }
    }

    /// The direction of hop `hop` of `route`, None past its last.
    #[inline]
    pub fn hop(&self, route: u32, hop: u16) -> Option<u32> {
        let d = self.hops[route as usize + hop as usize];
        (d != END).then_some(d)
    }

    /// The first hop of `route`. Every route has one, so a packet just sent is never delivered at once:
    /// the simulation's send path then never calls its delivery path, which can be inlined.
    #[inline]
    pub fn first(&self, route: u32) -> u32 {
        self.hops[route as usize]
    }

    /// For each of `dirs` link directions, whether every route that crosses it ends with it (true also
    /// for a direction no route crosses): a packet arriving at the end of such a direction has arrived.
    pub fn last_hops(&self, dirs: usize) -> Vec<bool> {
        let mut last = vec![true; dirs];
        for w in self.hops.windows(2) {
            if w[0] != END && w[1] != END {
                last[w[0] as usize] = false;
            }
        }
        last
    }

    /// Every direction some route crosses (with repeats).
    pub fn all_dirs(&self) -> impl Iterator<Item = u32> + '_ {
        self.hops.iter().copied().filter(|&d| d != END)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_hop_by_hop_until_their_end() {
        let mut r = Routes::default();
        let a = r.add(&[4, 7]);
        let b = r.add(&[1]);
        assert_eq!(b.first_hop, 1);
        let (a, b) = (a.id, b.id);
        assert_eq!((r.first(a), r.hop(a, 1), r.hop(a, 2)), (4, Some(7), None));
        assert_eq!((r.first(b), r.hop(b, 0), r.hop(b, 1)), (1, Some(1), None));
        assert_eq!(r.all_dirs().collect::<Vec<_>>(), vec![4, 7, 1]);
        // 4 is followed by 7; 7 and 1 end every route that crosses them; 0 and 2 carry nothing.
        assert_eq!(r.last_hops(8), vec![true, true, true, true, false, true, true, true]);
        r.add(&[7, 2]);
        assert!(!r.last_hops(8)[7], "7 is now also a first hop");
    }
}
