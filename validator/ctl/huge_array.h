// Flat arrays for large graphs. Blocks of 2 MiB or more are aligned to 2 MiB
// and marked for transparent huge pages, so that the random accesses of a
// graph traversal over tens of megabytes miss the TLB far less often (on a
// virtual machine a TLB miss costs a two-level page walk). Smaller blocks are
// ordinary allocations.
#ifndef TRACESPEC_VALIDATOR_CTL_HUGE_ARRAY_H_
#define TRACESPEC_VALIDATOR_CTL_HUGE_ARRAY_H_

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <vector>

namespace tracespec::ctl {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t{2} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return static_cast<T*>(::operator new(bytes));
    const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = ::operator new(rounded, std::align_val_t{kHuge});
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure is harmless
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHuge) {
      ::operator delete(p);
    } else {
      ::operator delete(p, std::align_val_t{kHuge});
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

template <typename T>
using HugeArray = std::vector<T, HugePageAllocator<T>>;

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_HUGE_ARRAY_H_
