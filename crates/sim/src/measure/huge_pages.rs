//! Transparent huge pages for the time series of large runs. A thousand flows sampled every 10 ms write
//! 144 MB over 20 s into fresh memory: in 4 KiB pages that is 37 000 page faults, a fifth of the run's
//! time on this kind of machine, against about 70 faults in 2 MiB pages. Linux only gives them to memory
//! that asks (`/sys/kernel/mm/transparent_hugepage/enabled` is `madvise` here, as on most
//! distributions); elsewhere, or if the kernel refuses, the buffer simply keeps small pages.

/// Buffers below this keep small pages: their faults cost little, and a huge page would round a small
/// run's memory up by up to 2 MiB.
const MIN_BYTES: usize = 32 << 20;

/// Asks for huge pages for the whole allocation of `v`, its capacity included. The advice applies to
/// pages touched after it: call it before writing.
pub fn advise(v: &Vec<f64>) {
    let bytes = v.capacity() * size_of::<f64>();
    if bytes >= MIN_BYTES {
        advise_range(v.as_ptr() as usize, bytes);
    }
}

#[cfg(target_os = "linux")]
fn advise_range(start: usize, bytes: usize) {
    const PAGE: usize = 4096;
    // madvise takes whole pages: the ones lying entirely inside the buffer.
    let first = start.next_multiple_of(PAGE);
    let end = (start + bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: madvise(MADV_HUGEPAGE) changes no memory contents and no mapping's access rights; the
        // range is page-aligned and lies inside an allocation this process owns. A failure (an old
        // kernel, THP disabled) leaves small pages, which is correct too, so its result is ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_start: usize, _bytes: usize) {}
